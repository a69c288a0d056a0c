// `stacklens eval detect --world`: the detector on the demo world's artifacts against its hidden
// truth. The world is generated in memory (no database): each company's true stack, the
// artifacts rendered from it (src/ingest/seed/artifacts.ts), and the detector's findings in the
// current view (today's crawl and DNS, job posts of the last year). A technology counts as
// truly present when the company uses it (truth kind active, active_sparse, or a weak mention
// that is in use). Detections carried only by an `implies` relation are not scored: the demo
// truth does not model implied technologies (a WordPress site's PHP).
import { builtInCatalog, coreCatalog, type CompiledCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import { EVIDENCE_SOURCES, type EvidenceSource } from '../technographics/evidence.ts';
import { buildCatalog } from '../ingest/seed/catalog.ts';
import { buildSegments, cumulativeShares, drawSegment } from '../ingest/seed/segments.ts';
import { generateCompany, type CompanyContext } from '../ingest/seed/companies.ts';
import { buildStackContext, generateStack } from '../ingest/seed/stacks.ts';
import { renderSite, type ArtifactWorld } from '../ingest/seed/artifacts.ts';
import { buildTraceKits } from '../ingest/seed/traces.ts';
import { makeIdCodec } from '../ingest/seed/rng.ts';
import { SCALES, type ScaleName } from '../ingest/seed/scale.ts';
import { parseAsOf, todayUtc } from '../ingest/seed/index.ts';
import type { Counts, DetectEvalReport } from './detect.ts';

const DAY = 86_400_000;

interface WorldEvalOptions {
  companies?: number;
  seed?: string;
  scale?: ScaleName;
  asOf?: string;
  /** Another compiled catalog (e.g. with an operator's rules); default the built-in one. */
  detector?: CompiledCatalog;
}

interface WorldEvalReport extends DetectEvalReport {
  /** Recall over the in-use technologies that left at least one trace in the current view (the rest are invisible by design). */
  recallVisible: Counts;
  /** In-use technologies with no trace in the current view (missing tags, proxied analytics, internal tools). */
  invisible: number;
  truthInUse: number;
  /**
   * Detections of technologies the world does not model (the extended catalog's, an operator's):
   * not scored, since the world's truth cannot say whether they are right. Most are a product
   * family's parts read from its traces (Azure CDN from a `*.azureedge.net` CNAME).
   */
  unmodelled: { detections: number; technologies: Array<{ name: string; detections: number }> };
}

const counts = (tp: number, fp: number, fn: number): Counts => {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  return { tp, fp, fn, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
};

export function evaluateWorld(opts: WorldEvalOptions = {}): WorldEvalReport {
  const n = opts.companies ?? 1000;
  const seed = opts.seed ?? 'stacklens';
  const scale = SCALES[opts.scale ?? 'M'];
  const asOfMs = parseAsOf(opts.asOf ?? todayUtc());
  // The world is drawn from the core catalog, as the demo world is; the detector reading it is the
  // whole catalog (or an operator's), so the extended technologies' rules are held to the same pages.
  const detector = opts.detector ?? builtInCatalog();
  const worldTechnologies = coreCatalog();
  const catalog = buildCatalog(seed, scale, worldTechnologies.technologies);
  const segments = buildSegments(seed, catalog, scale);
  const cumulative = cumulativeShares(segments);
  const codec = makeIdCodec(seed, 'cmp');
  const ctx: CompanyContext = { seed, asOf: new Date(asOfMs), takenDomains: new Set(), takenNames: new Set(), companyId: (k) => `cmp_${codec(k)}` };
  const stackCtx = buildStackContext(seed, asOfMs, catalog);
  const world: ArtifactWorld = { seed, asOfMs, catalog, detector: worldTechnologies, kits: buildTraceKits(seed, worldTechnologies) };

  const perTech = new Map<string, { tp: number; fp: number; fn: number }>();
  const bump = (name: string, key: 'tp' | 'fp' | 'fn') => {
    const row = perTech.get(name) ?? { tp: 0, fp: 0, fn: 0 };
    row[key]++;
    perTech.set(name, row);
  };
  const src = Object.fromEntries(EVIDENCE_SOURCES.map((s) => [s, { tp: 0, fp: 0, fn: 0 }])) as Record<EvidenceSource, { tp: number; fp: number; fn: number }>;
  const errors: DetectEvalReport['errors'] = [];
  const hardDetected: DetectEvalReport['hardNegatives']['detected'] = [];
  let tp = 0,
    fp = 0,
    fn = 0,
    fnVisible = 0,
    planted = 0,
    invisible = 0,
    truthInUse = 0;
  const unmodelled = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const company = generateCompany(ctx, i, segments[drawSegment(seed, i, cumulative)]!);
    const installs = generateStack(stackCtx, company);
    const site = renderSite(world, company, installs);
    // The current view: today's crawl with DNS, and job posts of the last year, as one site.
    const crawl = site.captures.find((c) => c.kind === 'crawl')!;
    const jobs = site.captures.filter((c) => c.kind === 'job' && c.seenAt >= asOfMs - 365 * DAY).flatMap((c) => c.site.jobs ?? []);
    const found = detect({ ...crawl.site, jobs }, detector).filter((d) => d.evidence.some((e) => !e.ruleId.includes('/implies/')));
    const byName = new Map(found.map((d) => [d.name, d]));
    const truth = new Map<string, Set<EvidenceSource>>();
    for (const inst of installs) {
      if (!inst.inUse) continue;
      const tech = catalog.products[inst.product]!.technology;
      truth.set(worldTechnologies.technologies[tech]!.name, site.planted.get(tech) ?? new Set());
    }
    truthInUse += truth.size;
    for (const [name, sources] of truth) {
      const d = byName.get(name);
      if (d) (tp++, bump(name, 'tp'));
      else {
        fn++;
        bump(name, 'fn');
        if (sources.size) (fnVisible++, errors.push({ id: company.domain, name, kind: 'fn' }));
        else invisible++;
      }
      const seen = new Set(d ? d.evidence.filter((e) => !e.ruleId.includes('/implies/')).map((e) => e.source) : []);
      for (const s of sources) src[s][seen.has(s) ? 'tp' : 'fn']++;
      for (const s of seen) if (!sources.has(s)) src[s].fp++;
    }
    for (const d of found) {
      if (truth.has(d.name)) continue;
      if (!worldTechnologies.byName.has(d.name)) {
        unmodelled.set(d.name, (unmodelled.get(d.name) ?? 0) + 1);
        continue;
      }
      fp++;
      bump(d.name, 'fp');
      errors.push({ id: company.domain, name: d.name, kind: 'fp', evidence: d.evidence.map((e) => `${e.ruleId}: ${e.excerpt}`).join(' | ') });
      for (const e of d.evidence) if (!e.ruleId.includes('/implies/')) src[e.source].fp++;
    }
    for (const tech of site.mentioned) {
      planted++;
      const name = worldTechnologies.technologies[tech]!.name;
      const d = byName.get(name);
      if (d && !truth.has(name)) hardDetected.push({ id: company.domain, name, evidence: d.evidence.map((e) => `${e.ruleId}: ${e.excerpt}`).join(' | ') });
    }
  }
  return {
    sites: n,
    micro: counts(tp, fp, fn),
    recallVisible: counts(tp, fp, fnVisible),
    invisible,
    truthInUse,
    unmodelled: {
      detections: [...unmodelled.values()].reduce((a, b) => a + b, 0),
      technologies: [...unmodelled]
        .map(([name, detections]) => ({ name, detections }))
        .sort((a, b) => b.detections - a.detections || a.name.localeCompare(b.name)),
    },
    perTechnology: [...perTech].map(([name, c]) => ({ name, ...counts(c.tp, c.fp, c.fn) })).sort((a, b) => a.name.localeCompare(b.name)),
    perSource: Object.fromEntries(EVIDENCE_SOURCES.map((s) => [s, counts(src[s].tp, src[s].fp, src[s].fn)])) as Record<EvidenceSource, Counts>,
    hardNegatives: { planted, detected: hardDetected },
    errors,
  };
}
