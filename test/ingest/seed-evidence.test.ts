// The demo world's evidence beyond the home page: the job board (src/ingest/seed/job-posts.ts),
// links to the company's accounts on vendors' sites, and the DNS configuration of the services it
// uses (src/ingest/seed/artifacts.ts, traces.ts). Generated in memory, no database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import { buildCatalog } from '../../src/ingest/seed/catalog.ts';
import { buildSegments, cumulativeShares, drawSegment } from '../../src/ingest/seed/segments.ts';
import { generateCompany, type Company, type CompanyContext } from '../../src/ingest/seed/companies.ts';
import { buildStackContext, generateStack, type Install } from '../../src/ingest/seed/stacks.ts';
import { buildTraceKits, siteWithTraces } from '../../src/ingest/seed/traces.ts';
import { renderSite, type ArtifactWorld } from '../../src/ingest/seed/artifacts.ts';
import { BOARD_DAYS, jobBoard, postText, postsPerYear, teamsOfLeaf } from '../../src/ingest/seed/job-posts.ts';
import { makeIdCodec, rngFor } from '../../src/ingest/seed/rng.ts';
import { SCALES } from '../../src/ingest/seed/scale.ts';
import { parseAsOf } from '../../src/ingest/seed/index.ts';

const DAY = 86_400_000;
const seed = 'seed-evidence-test';
const asOfMs = parseAsOf('2026-06-01');
const technologies = coreCatalog();
const catalog = buildCatalog(seed, SCALES.M, technologies.technologies);
const segments = buildSegments(seed, catalog, SCALES.M);
const cumulative = cumulativeShares(segments);
const codec = makeIdCodec(seed, 'cmp');
const kits = buildTraceKits(seed, technologies);
const world: ArtifactWorld = { seed, asOfMs, catalog, detector: technologies, kits };

/** The first `n` companies of the world with their true stacks. */
function companies(n: number): Array<{ company: Company; installs: Install[] }> {
  const ctx: CompanyContext = { seed, asOf: new Date(asOfMs), takenDomains: new Set(), takenNames: new Set(), companyId: (k) => `cmp_${codec(k)}` };
  const stackCtx = buildStackContext(seed, asOfMs, catalog);
  return Array.from({ length: n }, (_, i) => {
    const company = generateCompany(ctx, i, segments[drawSegment(seed, i, cumulative)]!);
    return { company, installs: generateStack(stackCtx, company) };
  });
}
const sample = companies(400);
const techName = (t: number) => technologies.technologies[t]!.name;

test('bigger companies post more: the expected posts a year grow with size, and so do the boards drawn', () => {
  assert.ok(postsPerYear(10) < postsPerYear(100) && postsPerYear(100) < postsPerYear(1000), 'grows with employees');
  assert.ok(postsPerYear(1_000_000) <= 40, 'bounded');
  const mean = (list: typeof sample) =>
    list.reduce((a, c) => a + jobBoard(seed, asOfMs, catalog, kits, c.company, c.installs, new Set()).length, 0) / list.length;
  const small = sample.filter((c) => c.company.employees < 50);
  const large = sample.filter((c) => c.company.employees >= 1000);
  assert.ok(small.length > 20 && large.length > 5);
  assert.ok(mean(large) > 3 * mean(small), `large ${mean(large)}, small ${mean(small)}`);
});

test('a post names only tools its company used on its date, of categories job posts reveal, never a mere mention', () => {
  let lines = 0;
  for (const { company, installs } of sample) {
    for (const post of jobBoard(seed, asOfMs, catalog, kits, company, installs, new Set())) {
      assert.ok(post.at <= asOfMs && post.at > asOfMs - BOARD_DAYS * DAY);
      assert.ok(post.lines.length <= 8);
      for (const line of post.lines) {
        lines++;
        const inst = installs.find((i) => catalog.products[i.product]!.technology === line.tech && i.kind !== 'weak_mention');
        assert.ok(inst, `${techName(line.tech)} at ${company.domain} is not a tool it uses`);
        assert.ok(inst.firstVerified <= post.at && (inst.inUse || post.at <= inst.lastVerified), `${techName(line.tech)} named outside its use`);
        const leaf = catalog.categoryById.get(catalog.products[inst.product]!.categoryId)!;
        assert.notEqual(teamsOfLeaf(leaf, catalog.categoryById), null, `${leaf.name} is not revealed by job posts`);
      }
    }
  }
  assert.ok(lines > 1000, `${lines} lines`);
});

test('a tool without a public trace is named in no post', () => {
  const { company, installs } = sample.find((c) => c.installs.filter((i) => i.kind === 'active').length > 10 && c.company.employees > 500)!;
  const named = (silent: Set<number>) => new Set(jobBoard(seed, asOfMs, catalog, kits, company, installs, silent).flatMap((p) => p.lines.map((l) => l.tech)));
  const all = named(new Set());
  const silent = new Set(installs.filter((i) => all.has(catalog.products[i.product]!.technology)).map((i) => i.product));
  const quiet = named(new Set([...silent].filter((_, k) => k % 2 === 0)));
  assert.ok(all.size >= 4, `${all.size} tools named`);
  for (const p of [...silent].filter((_, k) => k % 2 === 0)) assert.ok(!quiet.has(catalog.products[p]!.technology), techName(catalog.products[p]!.technology));
  assert.ok(quiet.size > 0, 'the others are still named');
});

test("a post's own words name no technology: only its tool lines are evidence", () => {
  const { company, installs } = sample[0]!;
  const rng = rngFor(seed, 'post-text', 0);
  for (const post of jobBoard(seed, asOfMs, catalog, kits, { ...company, employees: 5000 }, installs, new Set()).slice(0, 40)) {
    const text = postText(rng, company, { ...post, lines: [] });
    assert.deepEqual(
      detect({ domain: company.domain, pages: [], jobs: [text] }, technologies, { minConfidence: 0.01 }).map((d) => d.name),
      [],
      text,
    );
  }
});

test('a help desk with a CNAME rule has its help-centre CNAME in most companies that use it, not in all', () => {
  const zendesk = technologies.byName.get('Zendesk')!;
  const cname = kits[zendesk]!.traces.find((t) => t.kind === 'dns' && t.type === 'CNAME');
  assert.ok(cname && cname.kind === 'dns', 'Zendesk has a CNAME trace: its rules read one');
  const users = companies(3000).filter((c) => c.installs.some((i) => i.inUse && catalog.products[i.product]!.technology === zendesk));
  assert.ok(users.length >= 20, `${users.length} Zendesk users`);
  const withCname = users.filter(({ company, installs }) => {
    const crawl = renderSite(world, company, installs).captures.find((c) => c.kind === 'crawl')!;
    return crawl.site.dns?.CNAME?.includes(cname.value);
  });
  const share = withCname.length / users.length;
  assert.ok(share > 0.5 && share < 1, `${withCname.length} of ${users.length}`);
});

test("links name the company's account on the vendor's site, and are detected as the vendor's tool", () => {
  for (const name of ['Lever', 'Greenhouse', 'Calendly', 'Zendesk']) {
    const t = technologies.byName.get(name)!;
    const link = kits[t]!.traces.find((x) => x.kind === 'link');
    assert.ok(link && link.kind === 'link' && link.href.includes('{account}'), `${name}: ${JSON.stringify(link)}`);
    const site = siteWithTraces('northwind-traders.com', [link]);
    assert.match(site.pages[0]!.html!, /<a href="[^"]*northwindtraders[^"]*">/);
    assert.deepEqual(
      detect(site, technologies).map((d) => d.name),
      [name],
    );
  }
});

test("a trace whose only side effect is another technology's candidate survives; one that claims another does not", () => {
  const ns1 = kits[technologies.byName.get('NS1')!]!.traces;
  assert.ok(
    ns1.some((t) => t.kind === 'dns' && t.type === 'NS'),
    'NS1: its name servers are also a Netlify candidate (0.3), not a claim',
  );
  // Route 53's name servers are AWS's too, which they would claim: the world leaves them out.
  assert.deepEqual(kits[technologies.byName.get('Amazon Route 53')!]!.traces, []);
});

test('job posts are imported every four months: one capture per four months of posts, bounded', () => {
  const big = sample.filter((c) => c.company.employees >= 1000).slice(0, 5);
  assert.ok(big.length === 5);
  for (const { company, installs } of big) {
    const jobs = renderSite(world, company, installs).captures.filter((c) => c.kind === 'job');
    const lastYear = jobs.filter((c) => c.seenAt >= asOfMs - 365 * DAY);
    assert.ok(lastYear.length >= 3 && lastYear.length <= 4, `${company.domain}: ${lastYear.length} imports in the last year`);
    const posts = lastYear.reduce((n, c) => n + c.site.jobs!.length, 0);
    assert.ok(posts >= 10, `${company.domain}: ${posts} posts in the last year`);
    assert.ok(jobs.length <= 16, `${company.domain}: ${jobs.length} captures in five years`);
    assert.ok(jobs.every((c) => (c.site.jobs?.length ?? 0) >= 1));
  }
});
