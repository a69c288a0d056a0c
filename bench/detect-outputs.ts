// The detector's whole output on a fixed set of inputs, for holding a change to the matcher to
// "same detections, same evidence, byte for byte": the labelled fixtures as they are, the same
// sites padded to home-page size (bench/detect-pages.ts), pages built to attack every rule
// (test/helpers/adversarial-page.ts), and the current view of the first N companies of the demo
// world (seed `stacklens`, as of 2026-01-01), as the world evaluation renders them.
// Run in two checkouts and compare: node --import tsx bench/detect-outputs.ts [--companies 300] [--out FILE]
// Prints one sha256 per input set (and writes every site's record as JSON Lines to FILE).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { builtInCatalog, coreCatalog } from '../src/detect/catalog.ts';
import { detect, siteRecord } from '../src/detect/detect.ts';
import { toSiteArtifacts } from '../src/detect/artifacts.ts';
import { readFixtures } from '../src/eval/detect.ts';
import type { SiteArtifacts } from '../src/detect/types.ts';
import { buildCatalog } from '../src/ingest/seed/catalog.ts';
import { buildSegments, cumulativeShares, drawSegment } from '../src/ingest/seed/segments.ts';
import { generateCompany, type CompanyContext } from '../src/ingest/seed/companies.ts';
import { buildStackContext, generateStack } from '../src/ingest/seed/stacks.ts';
import { renderSite, type ArtifactWorld } from '../src/ingest/seed/artifacts.ts';
import { buildTraceKits } from '../src/ingest/seed/traces.ts';
import { makeIdCodec } from '../src/ingest/seed/rng.ts';
import { SCALES } from '../src/ingest/seed/scale.ts';
import { parseAsOf } from '../src/ingest/seed/index.ts';
import { adversarialHtml, adversarialInlineScript, adversarialJobPost } from '../test/helpers/adversarial-page.ts';
import { paddedFixtureSites } from './detect-pages.ts';

const { values } = parseArgs({ options: { companies: { type: 'string', default: '300' }, out: { type: 'string' } } });
const catalog = builtInCatalog();

/** The world evaluation's current view of each company (src/eval/detect-world.ts): today's crawl with DNS, job posts of the last year. */
function* worldSites(n: number): Generator<SiteArtifacts> {
  const seed = 'stacklens',
    scale = SCALES.M,
    asOfMs = parseAsOf('2026-01-01');
  const worldTechnologies = coreCatalog();
  const products = buildCatalog(seed, scale, worldTechnologies.technologies);
  const segments = buildSegments(seed, products, scale);
  const cumulative = cumulativeShares(segments);
  const codec = makeIdCodec(seed, 'cmp');
  const ctx: CompanyContext = { seed, asOf: new Date(asOfMs), takenDomains: new Set(), takenNames: new Set(), companyId: (k) => `cmp_${codec(k)}` };
  const stackCtx = buildStackContext(seed, asOfMs, products);
  const world: ArtifactWorld = { seed, asOfMs, catalog: products, detector: worldTechnologies, kits: buildTraceKits(seed, worldTechnologies) };
  for (let i = 0; i < n; i++) {
    const company = generateCompany(ctx, i, segments[drawSegment(seed, i, cumulative)]!);
    const site = renderSite(world, company, generateStack(stackCtx, company));
    const crawl = site.captures.find((c) => c.kind === 'crawl')!;
    const jobs = site.captures.filter((c) => c.kind === 'job' && c.seenAt >= asOfMs - 365 * 86_400_000).flatMap((c) => c.site.jobs ?? []);
    yield { ...crawl.site, jobs };
  }
}

const url = 'https://hostile.example/';
const sets: Record<string, Iterable<SiteArtifacts>> = {
  fixtures: readFixtures().map((f) => toSiteArtifacts(f.artifact)),
  padded: paddedFixtureSites(),
  adversarial: [
    { domain: 'html.example', pages: [{ url, html: adversarialHtml(catalog) }] },
    { domain: 'script.example', pages: [{ url, html: adversarialInlineScript(catalog) }] },
    { domain: 'job.example', pages: [], jobs: [adversarialJobPost(catalog)] },
  ],
  world: worldSites(Number(values.companies)),
};

const lines: string[] = [];
for (const [name, sites] of Object.entries(sets)) {
  const hash = createHash('sha256');
  let n = 0;
  for (const site of sites) {
    const line = JSON.stringify({ set: name, ...siteRecord(site.domain, detect(site, catalog)) });
    hash.update(line + '\n');
    lines.push(line);
    n++;
  }
  console.log(`${name}: ${n} sites, sha256 ${hash.digest('hex')}`);
}
if (values.out) writeFileSync(values.out, lines.join('\n') + '\n');
