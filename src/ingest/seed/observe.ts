// Installs from detections: the demo world's installs are what the detector finds in the
// rendered artifacts (artifacts.ts), never a copy of the hidden truth. Every capture (today's
// crawl, an archived copy, a dated job post) is a detection run; each evidence item it finds
// is an observation, as `recordDetections` logs them.
//
// The seed appends every observation to the append-only observation log (`observationRows`),
// so the evidence API serves the demo world's evidence, and writes the installs folded from
// the same observations by technographics/installs.ts foldInstalls, the specification the log's
// SQL derivation follows, without a window (the world's old traces stay installs whose age
// says they are stale): in memory, because the derivation query would cost the first start
// ~1 s per 1,000 companies. test/ingest/seed.test.ts checks that deriving from the log
// changes nothing.
import { detect } from '../../detect/detect.ts';
import type { CompiledCatalog } from '../../detect/catalog.ts';
import type { Detection } from '../../detect/types.ts';
import type { Capture } from './artifacts.ts';
import { evidenceHash } from '../../technographics/evidence.ts';
import { dayOf, observationOf, type Observation } from '../../technographics/observations.ts';

/** The detections of one capture of a company's site, and when it was captured. */
interface CaptureDetections {
  seenAt: number;
  detections: Detection[];
}

/** Runs the detector over one company's captures. */
export function observe(captures: Capture[], detector: CompiledCatalog): CaptureDetections[] {
  return captures.map((c) => ({ seenAt: c.seenAt, detections: detect(c.site, detector) }));
}

/**
 * The observation-log rows of one company's detections, as the log keeps them: one per
 * evidence item and day, the first seen. Technologies without a demo product are left out.
 */
export function observationRows(
  companyId: string,
  captures: CaptureDetections[],
  detector: CompiledCatalog,
  productIds: readonly string[],
  productOfTechnology: Int32Array,
): Observation[] {
  const rows: Observation[] = [];
  const seen = new Set<string>();
  for (const c of captures) {
    const seenAt = new Date(c.seenAt);
    const day = dayOf(seenAt);
    for (const d of c.detections) {
      const tech = detector.byName.get(d.name);
      if (tech === undefined || productOfTechnology[tech]! < 0) continue;
      const productId = productIds[productOfTechnology[tech]!]!;
      for (const e of d.evidence) {
        const hash = evidenceHash(e);
        const key = `${productId}|${day}|${hash}`;
        if (seen.has(key)) continue; // the log keeps one per evidence item per day
        seen.add(key);
        rows.push(observationOf(e, { companyId, productId, seenAt, input: 'demo', runId: 'demo-seed' }, hash));
      }
    }
  }
  return rows;
}
