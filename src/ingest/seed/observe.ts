// Installs from detections: the demo world's installs are what the detector finds in the
// rendered artifacts (artifacts.ts), never a copy of the hidden truth. Every capture (today's
// crawl, an archived copy, a dated job post) is one observation; an install's dates, hit count
// and sources are folded from its observations the way the observation log folds them.
//
// The seam: `installsFromDetections` is the one function the seed calls. With the append-only
// observation log (issue 17 item 4), the same observations are recorded and installs derived
// from the log instead; the fold below is the in-memory equivalent for a first-start seed.
import { detect } from '../../detect/detect.ts';
import type { CompiledCatalog } from '../../detect/catalog.ts';
import type { Detection, EvidenceSource } from '../../detect/types.ts';
import type { Capture } from './artifacts.ts';

/** Evidence source of the detector → the install source vocabulary of the API. */
export const INSTALL_SOURCE: Record<EvidenceSource, string> = {
  html: 'website', script: 'website', meta: 'website', header: 'website', cookie: 'website', dns: 'dns', job: 'job_posting',
};
const SOURCE_ORDER = ['website', 'job_posting', 'dns', 'partner_data', 'social', 'press'];

export interface Observation {
  seenAt: number;
  detections: Detection[];
}

export interface DerivedInstall {
  /** Index into the demo catalog's products. */
  product: number;
  firstVerified: number;
  lastVerified: number;
  hitCount: number;
  intensity: number;
  sources: string[];
}

/** Runs the detector over one company's captures. */
export function observe(captures: Capture[], detector: CompiledCatalog): Observation[] {
  return captures.map((c) => ({ seenAt: c.seenAt, detections: detect(c.site, detector) }));
}

/**
 * Folds observations into installs: first and last time seen, one hit per evidence item of each
 * observation, the sources that showed it, and an intensity from how strong and how repeated
 * the evidence is. Technologies without a demo product are left out.
 */
export function installsFromDetections(observations: Observation[], detector: CompiledCatalog, productOfTechnology: Int32Array): DerivedInstall[] {
  const acc = new Map<number, { first: number; last: number; hits: number; sources: Set<string>; confidence: number; seen: number }>();
  for (const o of observations) {
    for (const d of o.detections) {
      const tech = detector.byName.get(d.name);
      if (tech === undefined) continue;
      const product = productOfTechnology[tech]!;
      if (product < 0) continue;
      let a = acc.get(product);
      if (!a) acc.set(product, (a = { first: o.seenAt, last: o.seenAt, hits: 0, sources: new Set(), confidence: 0, seen: 0 }));
      a.first = Math.min(a.first, o.seenAt);
      a.last = Math.max(a.last, o.seenAt);
      a.hits += Math.max(1, d.evidence.length);
      a.seen++;
      a.confidence = Math.max(a.confidence, d.confidence);
      for (const e of d.evidence) a.sources.add(INSTALL_SOURCE[e.source]);
      if (d.impliedBy && d.evidence.length === 0) a.sources.add('website');
    }
  }
  return [...acc.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([product, a]) => ({
      product, firstVerified: a.first, lastVerified: a.last, hitCount: a.hits,
      intensity: Math.max(1, Math.min(100, Math.round(a.confidence * 60 + 10 * a.sources.size + 5 * (a.seen - 1)))),
      sources: SOURCE_ORDER.filter((s) => a.sources.has(s)),
    }));
}
