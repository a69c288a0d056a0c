// Installs from detections: the demo world's installs are what the detector finds in the
// rendered artifacts (artifacts.ts), never a copy of the hidden truth. Every capture (today's
// crawl, an archived copy, a dated job post) is one observation; an install's dates, hit count
// and sources are folded from its observations the way the observation log folds them.
//
// The seed appends every observation to the append-only observation log (`observationRows`,
// as `recordDetections` writes them), so the evidence API serves the demo world's evidence, and
// writes the installs `installsFromDetections` folds from the same observations: the fold is the
// log's derivation (store/observations.ts deriveInstallsFromLog with a window covering the
// world's five years, so stale traces stay installs whose age tells they are stale), done in
// memory because the derivation query would cost the first start ~1 s per 1,000 companies.
// test/ingest/seed.test.ts checks that deriving from the log changes nothing.
import { detect } from '../../detect/detect.ts';
import type { CompiledCatalog } from '../../detect/catalog.ts';
import type { Detection, Evidence } from '../../detect/types.ts';
import type { Capture } from './artifacts.ts';
import type { Install } from './stacks.ts';
import { evidenceHash } from '../../services/observations.ts';
import type { ObservationRow } from '../../store/observations.ts';

export interface Observation {
  seenAt: number;
  detections: Detection[];
}

/** An install as the seed writes it (`product`: index into the demo catalog's products). */
export type DerivedInstall = Pick<Install, 'product' | 'firstVerified' | 'lastVerified' | 'hitCount' | 'intensity' | 'sources'>;

/** Each evidence item's hash, computed once: the fold and the log rows both need it. */
const hashes = new WeakMap<Evidence, string>();

function traceHash(e: Evidence): string {
  let hash = hashes.get(e);
  if (hash === undefined) hashes.set(e, (hash = evidenceHash(e.source, e.ruleId, e.url, e.excerpt, e.version)));
  return hash;
}

/** Runs the detector over one company's captures. */
export function observe(captures: Capture[], detector: CompiledCatalog): Observation[] {
  return captures.map((c) => ({ seenAt: c.seenAt, detections: detect(c.site, detector) }));
}

/**
 * Folds observations into installs exactly as the observation log derives them
 * (store/observations.ts deriveInstallsFromLog, with a window covering every observation):
 * first and last time seen, one hit per distinct trace per day, the evidence sources, and
 * intensity = 100 × noisy-OR of each rule's strongest weight. Technologies without a demo product are left out.
 */
export function installsFromDetections(observations: Observation[], detector: CompiledCatalog, productOfTechnology: Int32Array): DerivedInstall[] {
  const acc = new Map<number, { first: number; last: number; traces: Set<string>; sources: Set<string>; rules: Map<string, number> }>();
  for (const o of observations) {
    const day = new Date(o.seenAt).toISOString().slice(0, 10);
    for (const d of o.detections) {
      const tech = detector.byName.get(d.name);
      if (tech === undefined) continue;
      const product = productOfTechnology[tech]!;
      if (product < 0 || d.evidence.length === 0) continue;
      let a = acc.get(product);
      if (!a) acc.set(product, (a = { first: o.seenAt, last: o.seenAt, traces: new Set(), sources: new Set(), rules: new Map() }));
      a.first = Math.min(a.first, o.seenAt);
      a.last = Math.max(a.last, o.seenAt);
      for (const e of d.evidence) {
        a.traces.add(`${day}|${traceHash(e)}`);
        a.sources.add(e.source);
        a.rules.set(e.ruleId, Math.max(a.rules.get(e.ruleId) ?? 0, Math.fround(e.weight)));
      }
    }
  }
  return [...acc.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([product, a]) => {
      const strength = 1 - Math.exp([...a.rules.values()].reduce((sum, w) => sum + Math.log(1 - Math.min(w, 0.999)), 0));
      return {
        product, firstVerified: a.first, lastVerified: a.last, hitCount: a.traces.size,
        intensity: Math.max(1, Math.min(100, Math.round(100 * strength))),
        sources: [...a.sources].sort(),
      };
    });
}

/** The observation-log rows of one company's observations (one per evidence item, as `recordDetections` writes them). */
export function observationRows(companyId: string, observations: Observation[], detector: CompiledCatalog, productIds: readonly string[], productOfTechnology: Int32Array): ObservationRow[] {
  const rows: ObservationRow[] = [];
  const seen = new Set<string>();
  for (const o of observations) {
    const seenAt = new Date(o.seenAt);
    const day = seenAt.toISOString().slice(0, 10);
    for (const d of o.detections) {
      const tech = detector.byName.get(d.name);
      if (tech === undefined || productOfTechnology[tech]! < 0) continue;
      const productId = productIds[productOfTechnology[tech]!]!;
      for (const e of d.evidence) {
        const hash = traceHash(e);
        const key = `${productId}|${day}|${hash}`;
        if (seen.has(key)) continue; // the log keeps one per trace per day
        seen.add(key);
        rows.push({
          companyId, productId, seenAt, evidenceHash: hash, source: e.source, ruleId: e.ruleId,
          evidence: { ...(e.url ? { url: e.url } : {}), ruleId: e.ruleId, excerpt: e.excerpt, ...(e.version ? { version: e.version } : {}), weight: e.weight, input: 'demo' },
          weight: e.weight, runId: 'demo-seed',
        });
      }
    }
  }
  return rows;
}
