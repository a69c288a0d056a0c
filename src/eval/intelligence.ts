// `stacklens eval`: measures the intelligence against the demo world's hidden truth.
// Cohort purity (Default peers from the company's segment), competitor precision (same
// true industry and size tier), calibration of products-in-use confidence (reliability
// table, ECE, accuracy), and related-product co-adoption precision in the top 5.
import type { Db } from '../db/db.ts';
import { labelledEvidence, peersOfKind, truthInUse, truthSegments } from '../store/truth.ts';
import { calibrate, evidenceFeatures, fitIsotonic, fitLogistic, inUseConfidence } from '../intelligence/confidence.ts';
import { accuracy, expectedCalibrationError, meanShare, membersBySegment, reliabilityTable, type ReliabilityBin } from './metrics.ts';
import { relatedScores } from '../services/related.ts';
import { currentAsOf } from '../services/stacks.ts';

interface IntelligenceEvalOptions {
  /** Also fit fresh confidence coefficients on this world and report their calibration. */
  fit?: boolean;
  /** Companies sampled for the related-products measure. */
  relatedSample?: number;
  /** A product counts as truly co-adopted when at least this share of the segment's anchor users use it. */
  coAdoptionThreshold?: number;
}

export interface CalibrationReport {
  installs: number;
  ece: number;
  accuracy: number;
  table: ReliabilityBin[];
}

export interface IntelligenceEvalReport {
  companies: number;
  segments: number;
  purity: { mean: number; companies: number; randomBaseline: number };
  competitorPrecision: { mean: number; companies: number };
  calibration: CalibrationReport;
  fitted?: { coefficients: number[]; calibrationMap: [number, number][]; calibration: CalibrationReport };
  related: { precisionAt5: number; meanCoAdoption: number; anchors: number; threshold: number };
}

export class NoTruthError extends Error {}

export async function evaluateIntelligence(db: Db, options: IntelligenceEvalOptions = {}): Promise<IntelligenceEvalReport> {
  const segments = await truthSegments(db);
  if (segments.length === 0)
    throw new NoTruthError('No ground truth in this database (truth_segments is empty): evaluate a generated demo world (stacklens seed).');
  const seg = new Map(segments.map((s) => [s.companyId, s]));
  const segSize = new Map<string, number>();
  for (const s of segments) segSize.set(s.segmentId, (segSize.get(s.segmentId) ?? 0) + 1);

  const purity = meanShare(toGroups(await peersOfKind(db, 'default')), (a, b) => seg.get(a)?.segmentId === seg.get(b)?.segmentId);
  const randomBaseline = [...segSize.values()].reduce((s, n) => s + (n * (n - 1)) / Math.max(1, segments.length - 1), 0) / segments.length;
  const competitorPrecision = meanShare(toGroups(await peersOfKind(db, 'competitors')), (a, b) => {
    const x = seg.get(a),
      y = seg.get(b);
    return !!x && !!y && x.industryId === y.industryId && x.sizeTier === y.sizeTier;
  });

  const { asOf } = await currentAsOf(db);
  const labelled = await labelledEvidence(db);
  const labels = labelled.map((l) => l.inUse);
  const rows = labelled.map(({ evidence: [, , lastVerified, firstVerified, hitCount, intensity, sourceCount] }) => ({
    lastVerified,
    firstVerified,
    hitCount,
    intensity,
    sourceCount,
  }));
  const probs = rows.map((e) => inUseConfidence(e, asOf.getTime()));
  const calibration = calibrationReport(probs, labels);
  let fitted: IntelligenceEvalReport['fitted'];
  if (options.fit) {
    const features = rows.map((e) => evidenceFeatures(e, asOf.getTime()));
    const coefficients = fitLogistic(features, labels);
    // The logistic score ranks; the isotonic map on the same world turns it into a probability.
    const scores = features.map((x) => x.reduce((s, v, j) => s + v * coefficients[j]!, 0));
    const calibrationMap = fitIsotonic(scores, labels);
    const p = scores.map((z) => Math.round(calibrate(z, calibrationMap) * 1000) / 1000);
    fitted = { coefficients, calibrationMap, calibration: calibrationReport(p, labels) };
  }

  const related = await relatedPrecision(db, segments, options.relatedSample ?? 300, options.coAdoptionThreshold ?? 0.3);
  return { companies: segments.length, segments: segSize.size, purity: { ...purity, randomBaseline }, competitorPrecision, calibration, fitted, related };
}

function calibrationReport(probs: number[], labels: boolean[]): CalibrationReport {
  return { installs: probs.length, ece: expectedCalibrationError(probs, labels), accuracy: accuracy(probs, labels), table: reliabilityTable(probs, labels) };
}

function toGroups(peers: Map<string, string[]>) {
  return [...peers].map(([self, list]) => ({ self, peers: list }));
}

/**
 * For a deterministic sample of companies, one truly used anchor each: the share of the
 * top 5 related products (Default cohort) that the company's segment truly co-adopts,
 * i.e. that at least `threshold` of the segment's anchor users truly use.
 */
async function relatedPrecision(db: Db, segments: Awaited<ReturnType<typeof truthSegments>>, sample: number, threshold: number) {
  const stacks = new Map<string, Set<string>>();
  for (const [c, p] of await truthInUse(db)) {
    const s = stacks.get(c);
    if (s) s.add(p);
    else stacks.set(c, new Set([p]));
  }
  const members = membersBySegment(segments);
  const sorted = [...segments].sort((a, b) => (a.companyId < b.companyId ? -1 : 1));
  const step = Math.max(1, Math.floor(sorted.length / sample));
  let hits = 0,
    shown = 0,
    anchors = 0,
    coAdoption = 0;
  for (let i = 0; i < sorted.length && anchors < sample; i += step) {
    const { companyId, segmentId } = sorted[i]!;
    const own = [...(stacks.get(companyId) ?? [])].sort();
    if (own.length === 0) continue;
    const anchor = own[i % own.length]!;
    const top = (await relatedScores(db, { id: companyId, domain: companyId, name: null, logo: null }, anchor, 'default')).slice(0, 5);
    if (top.length === 0) continue;
    anchors++;
    const users = members.get(segmentId)!.filter((m) => stacks.get(m)?.has(anchor));
    for (const r of top) {
      const rate = users.length ? users.filter((m) => stacks.get(m)!.has(r.productId)).length / users.length : 0;
      coAdoption += rate;
      shown++;
      if (rate >= threshold) hits++;
    }
  }
  return { precisionAt5: shown ? hits / shown : 0, meanCoAdoption: shown ? coAdoption / shown : 0, anchors, threshold };
}
