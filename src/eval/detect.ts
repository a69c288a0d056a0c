// `stacklens eval detect`: precision, recall and F1 of the detector on a labelled fixture set
// (test/fixtures/detect/fixtures.jsonl), per technology, per evidence source and micro-averaged,
// plus the hard negatives (technologies a page names without using) that were detected anyway.
// A truth item's sources say where its traces are; an empty list means it is only implied.
import { readFileSync } from 'node:fs';
import { detect } from '../detect/detect.ts';
import { artifactLineSchema, toSiteArtifacts, type ArtifactLine } from '../detect/artifacts.ts';
import type { CompiledCatalog } from '../detect/catalog.ts';
import type { Detection } from '../detect/types.ts';
import { EVIDENCE_SOURCES, type EvidenceSource } from '../technographics/evidence.ts';

export const FIXTURES_FILE = new URL('../../test/fixtures/detect/fixtures.jsonl', import.meta.url);

export interface LabelledSite {
  id: string;
  /** The site template the generator used (wordpress, shopify, negatives-only, ...). */
  kind?: string;
  artifact: ArtifactLine;
  truth: Record<string, EvidenceSource[]>;
  negatives: string[];
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface DetectEvalReport {
  sites: number;
  micro: Counts;
  perTechnology: Array<Counts & { name: string }>;
  perSource: Record<EvidenceSource, Counts>;
  hardNegatives: { planted: number; detected: Array<{ id: string; name: string; evidence: string }> };
  errors: Array<{ id: string; name: string; kind: 'fp' | 'fn'; evidence?: string }>;
}

export const GOALS = { precision: 0.95, recall: 0.9 } as const;

export function readFixtures(path: URL | string = FIXTURES_FILE): LabelledSite[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((line, i) => {
      const raw = JSON.parse(line) as LabelledSite;
      const artifact = artifactLineSchema.parse(raw.artifact);
      if (!raw.id || !raw.truth || !Array.isArray(raw.negatives)) throw new Error(`fixtures line ${i + 1}: needs id, truth and negatives`);
      return { ...raw, artifact };
    });
}

const counts = (tp: number, fp: number, fn: number): Counts => {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  return { tp, fp, fn, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
};

const directSources = (d: Detection) => new Set(d.evidence.filter((e) => !e.ruleId.includes('/implies/')).map((e) => e.source));

interface EvaluateOptions {
  /**
   * Detections outside the truth that are neither right nor wrong for this set (a real page cannot
   * show an implied technology, nor tell whose an S3 bucket is): not counted as false positives.
   */
  notScored?: (siteId: string, detection: Detection) => boolean;
}

export function evaluateDetector(sites: LabelledSite[], catalog: CompiledCatalog, opts: EvaluateOptions = {}): DetectEvalReport {
  const perTech = new Map<string, { tp: number; fp: number; fn: number }>();
  const src = Object.fromEntries(EVIDENCE_SOURCES.map((s) => [s, { tp: 0, fp: 0, fn: 0 }])) as Record<EvidenceSource, { tp: number; fp: number; fn: number }>;
  const errors: DetectEvalReport['errors'] = [];
  const hardDetected: DetectEvalReport['hardNegatives']['detected'] = [];
  let planted = 0,
    tp = 0,
    fp = 0,
    fn = 0;
  const bump = (name: string, key: 'tp' | 'fp' | 'fn') => {
    const row = perTech.get(name) ?? { tp: 0, fp: 0, fn: 0 };
    row[key]++;
    perTech.set(name, row);
  };
  for (const site of sites) {
    for (const name of [...Object.keys(site.truth), ...site.negatives]) {
      if (!catalog.byName.has(name)) throw new Error(`fixture ${site.id}: '${name}' is not in the catalog`);
    }
    const found = detect(toSiteArtifacts(site.artifact), catalog);
    const byName = new Map(found.map((d) => [d.name, d]));
    for (const [name, sources] of Object.entries(site.truth)) {
      const d = byName.get(name);
      if (d) (tp++, bump(name, 'tp'));
      else (fn++, bump(name, 'fn'), errors.push({ id: site.id, name, kind: 'fn' }));
      const seen = d ? directSources(d) : new Set<EvidenceSource>();
      for (const s of sources) src[s][seen.has(s) ? 'tp' : 'fn']++;
      for (const s of seen) if (!sources.includes(s)) src[s].fp++;
    }
    for (const d of found) {
      if (d.name in site.truth || opts.notScored?.(site.id, d)) continue;
      fp++;
      bump(d.name, 'fp');
      const evidence = d.evidence.map((e) => `${e.ruleId}: ${e.excerpt}`).join(' | ');
      errors.push({ id: site.id, name: d.name, kind: 'fp', evidence });
      for (const s of directSources(d)) src[s].fp++;
    }
    planted += site.negatives.length;
    for (const name of site.negatives) {
      const d = byName.get(name);
      if (d) hardDetected.push({ id: site.id, name, evidence: d.evidence.map((e) => `${e.ruleId}: ${e.excerpt}`).join(' | ') });
    }
  }
  return {
    sites: sites.length,
    micro: counts(tp, fp, fn),
    perTechnology: [...perTech].map(([name, c]) => ({ name, ...counts(c.tp, c.fp, c.fn) })).sort((a, b) => a.name.localeCompare(b.name)),
    perSource: Object.fromEntries(EVIDENCE_SOURCES.map((s) => [s, counts(src[s].tp, src[s].fp, src[s].fn)])) as Record<EvidenceSource, Counts>,
    hardNegatives: { planted, detected: hardDetected },
    errors,
  };
}

const f = (x: number) => x.toFixed(3);

export function formatDetectEval(
  r: DetectEvalReport,
  opts: {
    errors?: boolean;
    title?: string;
    extra?: string[];
    goals?: boolean | { precision: number; recall: number };
    /** Technologies with fewer true instances (tp + fn) are summed in one line, not listed. */
    minSupport?: number;
  } = {},
): string {
  const goals = opts.goals === undefined || opts.goals === true ? GOALS : opts.goals;
  const out: string[] = [opts.title ?? `Labelled fixtures: ${r.sites} sites.`, ...(opts.extra ?? []), ''];
  const row = (label: string, c: Counts, width = 34) =>
    `${label.padEnd(width)}${f(c.precision).padEnd(11)}${f(c.recall).padEnd(9)}${f(c.f1).padEnd(8)}${String(c.tp).padStart(5)}${String(c.fp).padStart(5)}${String(c.fn).padStart(5)}`;
  const header = (label: string, width = 34) =>
    `${label.padEnd(width)}${'precision'.padEnd(11)}${'recall'.padEnd(9)}${'F1'.padEnd(8)}${'tp'.padStart(5)}${'fp'.padStart(5)}${'fn'.padStart(5)}`;
  out.push(header('micro-averaged'), row(goals ? `all (goals: P >= ${goals.precision}, R >= ${goals.recall})` : 'all', r.micro));
  out.push(`hard negatives detected: ${r.hardNegatives.detected.length} of ${r.hardNegatives.planted} planted${goals ? ' (goal 0)' : ''}`, '');
  out.push(header('per source (direct evidence)'));
  for (const [s, c] of Object.entries(r.perSource)) if (c.tp + c.fp + c.fn) out.push(row(s, c));
  const min = opts.minSupport ?? 0;
  out.push('', header(min > 1 ? `per technology (support >= ${min})` : 'per technology'));
  for (const t of r.perTechnology) if (t.tp + t.fn >= min) out.push(row(t.name, t));
  const rest = r.perTechnology.filter((t) => t.tp + t.fn < min);
  if (rest.length) {
    const sum = (k: 'tp' | 'fp' | 'fn') => rest.reduce((n, t) => n + t[k], 0);
    const withFp = rest.filter((t) => t.fp).map((t) => `${t.name} ${t.fp}`);
    out.push(
      `${rest.length} technologies with support < ${min}: tp ${sum('tp')}, fp ${sum('fp')}, fn ${sum('fn')}${withFp.length ? `; false positives: ${withFp.join(', ')}` : ''}`,
    );
  }
  if (r.hardNegatives.detected.length) {
    out.push('', 'Hard negatives detected:');
    for (const h of r.hardNegatives.detected) out.push(`  ${h.id}: ${h.name} — ${h.evidence}`);
  }
  if (opts.errors && r.errors.length) {
    out.push('', 'Errors:');
    for (const e of r.errors) out.push(`  ${e.kind.toUpperCase()} ${e.id}: ${e.name}${e.evidence ? ` — ${e.evidence}` : ''}`);
  }
  return out.join('\n');
}
