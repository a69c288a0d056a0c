// The metrics every evaluation in this folder reports against a known truth (the demo
// world's hidden segments and true in-use flags): reliability tables and expected
// calibration error of probabilities, accuracy, mean shares of good peers. Pure functions.

export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  observedRate: number;
}

/** Equal-width confidence bins with the observed share of true labels in each. */
export function reliabilityTable(probs: number[], labels: boolean[], bins = 10): ReliabilityBin[] {
  const count = new Array<number>(bins).fill(0),
    conf = new Array<number>(bins).fill(0),
    pos = new Array<number>(bins).fill(0);
  probs.forEach((p, i) => {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
    count[b]!++;
    conf[b]! += p;
    if (labels[i]) pos[b]!++;
  });
  return count.map((n, b) => ({
    from: b / bins,
    to: (b + 1) / bins,
    count: n,
    meanConfidence: n ? conf[b]! / n : 0,
    observedRate: n ? pos[b]! / n : 0,
  }));
}

/** How well probabilities match the truth: items, ECE and the reliability table. */
export interface Calibration {
  n: number;
  ece: number;
  table: ReliabilityBin[];
}

export function calibration(probs: number[], labels: boolean[]): Calibration {
  return { n: probs.length, ece: expectedCalibrationError(probs, labels), table: reliabilityTable(probs, labels) };
}

/** ECE: the count-weighted mean gap between confidence and observed rate over the bins. */
export function expectedCalibrationError(probs: number[], labels: boolean[], bins = 10): number {
  const n = probs.length;
  if (n === 0) return 0;
  return reliabilityTable(probs, labels, bins).reduce((s, b) => s + (b.count / n) * Math.abs(b.meanConfidence - b.observedRate), 0);
}

export function accuracy(probs: number[], labels: boolean[], threshold = 0.5): number {
  if (probs.length === 0) return 0;
  let right = 0;
  probs.forEach((p, i) => {
    if (p >= threshold === labels[i]) right++;
  });
  return right / probs.length;
}

/** Mean over companies of the share of their peers that pass `good` (companies without peers skipped). */
export function meanShare(
  groups: Iterable<{ self: string; peers: string[] }>,
  good: (self: string, peer: string) => boolean,
): { mean: number; companies: number } {
  let total = 0,
    companies = 0;
  for (const { self, peers } of groups) {
    if (peers.length === 0) continue;
    companies++;
    total += peers.filter((p) => good(self, p)).length / peers.length;
  }
  return { mean: companies ? total / companies : 0, companies };
}

export function mean(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
}

/** The companies of each hidden segment, in the order the segments list them. */
export function membersBySegment(segments: readonly { segmentId: string; companyId: string }[]): Map<string, string[]> {
  const members = new Map<string, string[]>();
  for (const s of segments) {
    const list = members.get(s.segmentId);
    if (list) list.push(s.companyId);
    else members.set(s.segmentId, [s.companyId]);
  }
  return members;
}
