// Products in use: a calibrated probability that an install is still in use, from its
// evidence. A small logistic model over five evidence features; the coefficients are
// fitted offline on a generated demo world against its hidden truth (`stacklens eval
// --fit` prints a fresh set) and then fixed here, so every answer is deterministic. Its input,
// an install's InstallSignal, is what the observation log folds into (technographics/installs.ts).
import type { InstallSignal } from '../technographics/installs.ts';

const DAY_MS = 86_400_000;

export const FEATURE_NAMES = [
  'bias',
  'logMonthsSinceVerified',
  'logMonthsSinceVerified^2',
  'logHits',
  'singleHit',
  'intensity',
  'intensity^2',
  'sources',
  'logSpanMonths',
  'age>=12m',
  'age>=24m',
  'age>=50m',
  'logMonthsSinceVerified*strongTrace',
] as const;

/** Evidence ages (days) past which verdicts fall in steps rather than smoothly (see evidenceFeatures). */
const AGE_STEPS_DAYS = [360, 720, 1500] as const;
/** A trace heavier than a single weak one (intensity above 60): its absence says more as it ages. */
const STRONG_TRACE_INTENSITY = 60;

/**
 * The feature vector of one install, relative to `asOf` (ms). Logs tame the long tails
 * of age and hit counts; the squares let the model bend (evidence a few weeks old is as
 * good as fresh, then it decays fast); a single sighting is its own signal (a passing
 * mention); sources are capped at 5 because a sixth source adds nothing.
 * Evidence is collected on a cycle (monthly visits over a two-year window, yearly
 * re-checks), so the chance that an unconfirmed install is still in use falls in steps at
 * 12, 24 and 50 months, which a smooth curve in age cannot follow: one indicator per step.
 * A strong trace (a product that shows heavily) that has not been seen again ages faster
 * than a single weak one: the interaction of age with a strong trace.
 */
export function evidenceFeatures(e: InstallSignal, asOf: number): number[] {
  const ageDays = Math.max(0, (asOf - e.lastVerified) / DAY_MS);
  const spanDays = Math.max(0, (e.lastVerified - e.firstVerified) / DAY_MS);
  const age = Math.log1p(ageDays / 30);
  const intensity = Math.min(100, Math.max(0, e.intensity)) / 100;
  return [
    1,
    age,
    age * age,
    Math.log1p(Math.max(0, e.hitCount)),
    e.hitCount <= 1 ? 1 : 0,
    intensity,
    intensity * intensity,
    Math.min(5, Math.max(0, e.sourceCount)),
    Math.log1p(spanDays / 30),
    ...AGE_STEPS_DAYS.map((d) => (ageDays >= d ? 1 : 0)),
    e.intensity > STRONG_TRACE_INTENSITY ? age : 0,
  ];
}

/**
 * Coefficients in FEATURE_NAMES order. Fitted with `stacklens eval --fit` on a 5,000-company
 * demo world of seed 'calibration-fit' and checked on the default seed 'stacklens'
 * (docs/intelligence.md); refit when the evidence model changes. The logistic score ranks
 * installs; CONFIDENCE_CALIBRATION turns the score into the probability.
 */
export const CONFIDENCE_COEFFICIENTS: readonly number[] = [
  4.9111, 0.2131, -0.5418, 1.5544, -1.036, -0.4686, -0.9613, -0.1089, -0.7349, -0.5874, -0.2465, -0.0832, -0.6149,
];

/**
 * Isotonic calibration of the logistic score, fitted with the coefficients on the same
 * world (`stacklens eval --fit`): [lowest score of a step, probability of the step], in
 * ascending order. The logistic fit is calibrated on the whole but not bin by bin (the
 * low bins were over-confident: 0.246 promised where 9.9% were in use); the isotonic map
 * (pool-adjacent-violators, every step holding at least MIN_CALIBRATION_STEP installs)
 * is the observed in-use rate of each score range (with half a pseudo-install each way,
 * and at most 0.999: no step promises certainty), and keeps the ranking.
 */
export const CONFIDENCE_CALIBRATION: readonly (readonly [number, number])[] = [
  [-8.2912, 0.011],
  [-4.4784, 0.038],
  [-3.4905, 0.052],
  [-2.6907, 0.053],
  [-1.7372, 0.233],
  [-0.5255, 0.311],
  [-0.1082, 0.554],
  [0.4288, 0.633],
  [1.2125, 0.863],
  [2.5813, 0.871],
  [2.6306, 0.899],
  [2.7575, 0.922],
  [3.2682, 0.958],
  [3.3494, 0.965],
  [3.3611, 0.967],
  [3.4104, 0.987],
  [4.3174, 0.993],
  [4.3456, 0.995],
  [4.3709, 0.996],
  [4.5005, 0.997],
];

/** Fewest installs behind one step of the calibration map (smaller steps are noise). */
const MIN_CALIBRATION_STEP = 400;

/** In use when the calibrated probability reaches one half. */
export const IN_USE_THRESHOLD = 0.5;

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** The logistic score of one install (before calibration). */
function evidenceScore(e: InstallSignal, asOf: number, coefficients: readonly number[] = CONFIDENCE_COEFFICIENTS): number {
  const x = evidenceFeatures(e, asOf);
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (coefficients[i] ?? 0) * x[i]!;
  return z;
}

/** The probability of a score under a calibration map (the sigmoid when the map is empty). */
export function calibrate(z: number, calibration: readonly (readonly [number, number])[] = CONFIDENCE_CALIBRATION): number {
  if (calibration.length === 0) return sigmoid(z);
  let lo = 0,
    hi = calibration.length - 1;
  // The last step whose lowest score is at most z (the first step below its range).
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (calibration[mid]![0] <= z) lo = mid;
    else hi = mid - 1;
  }
  return calibration[lo]![1];
}

/** Probability (0-1, 3 decimals) that the evidenced product is still in use at `asOf`. */
export function inUseConfidence(
  e: InstallSignal,
  asOf: number,
  coefficients: readonly number[] = CONFIDENCE_COEFFICIENTS,
  calibration: readonly (readonly [number, number])[] = coefficients === CONFIDENCE_COEFFICIENTS ? CONFIDENCE_CALIBRATION : [],
): number {
  return Math.round(calibrate(evidenceScore(e, asOf, coefficients), calibration) * 1000) / 1000;
}

/**
 * Isotonic regression of labels on scores (pool adjacent violators), then steps with
 * fewer than `minStep` rows merged into their neighbour: the calibration map of
 * CONFIDENCE_CALIBRATION, [lowest score of the step, in-use rate of the step].
 */
export function fitIsotonic(scores: number[], labels: boolean[], minStep = MIN_CALIBRATION_STEP): [number, number][] {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  const steps: { from: number; sum: number; n: number }[] = [];
  for (const i of order) {
    steps.push({ from: scores[i]!, sum: labels[i] ? 1 : 0, n: 1 });
    while (steps.length > 1 && steps.at(-2)!.sum / steps.at(-2)!.n >= steps.at(-1)!.sum / steps.at(-1)!.n) {
      const last = steps.pop()!;
      steps.at(-1)!.sum += last.sum;
      steps.at(-1)!.n += last.n;
    }
  }
  for (let i = 0; i < steps.length && steps.length > 1;) {
    if (steps[i]!.n >= minStep) {
      i++;
      continue;
    }
    const a = i + 1 < steps.length ? i : i - 1;
    const [x, y] = [steps[a]!, steps[a + 1]!];
    steps.splice(a, 2, { from: x.from, sum: x.sum + y.sum, n: x.n + y.n });
    i = a;
  }
  return steps.map((s) => [Math.floor(s.from * 10_000) / 10_000, Math.min(0.999, Math.round(((s.sum + 0.5) / (s.n + 1)) * 1000) / 1000)]);
}

export function isInUse(e: InstallSignal, asOf: number): boolean {
  return inUseConfidence(e, asOf) >= IN_USE_THRESHOLD;
}

/**
 * Fits logistic-regression coefficients by Newton's method (IRLS) with a light ridge
 * penalty (not on the bias) so separable data still converges. Rows are feature vectors
 * from evidenceFeatures; labels are the true in-use flags.
 */
export function fitLogistic(rows: number[][], labels: boolean[], options: { ridge?: number; iterations?: number } = {}): number[] {
  const k = rows[0]?.length ?? FEATURE_NAMES.length;
  const ridge = options.ridge ?? 1e-3;
  const w = new Array<number>(k).fill(0);
  for (let iter = 0; iter < (options.iterations ?? 50); iter++) {
    const grad = new Array<number>(k).fill(0);
    const hess = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (let r = 0; r < rows.length; r++) {
      const x = rows[r]!;
      let z = 0;
      for (let i = 0; i < k; i++) z += w[i]! * x[i]!;
      const p = sigmoid(z);
      const g = (labels[r] ? 1 : 0) - p;
      const s = Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i < k; i++) {
        grad[i]! += g * x[i]!;
        for (let j = 0; j <= i; j++) hess[i]![j]! += s * x[i]! * x[j]!;
      }
    }
    const n = Math.max(1, rows.length);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < i; j++) hess[j]![i] = hess[i]![j]!;
      if (i > 0) {
        grad[i]! -= ridge * n * w[i]!;
        hess[i]![i]! += ridge * n;
      }
    }
    const step = solve(hess, grad);
    let moved = 0;
    for (let i = 0; i < k; i++) {
      w[i]! += step[i]!;
      moved = Math.max(moved, Math.abs(step[i]!));
    }
    if (moved < 1e-8) break;
  }
  return w.map((v) => Math.round(v * 10_000) / 10_000);
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small, k × k). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    const d = m[c]![c]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / d;
      if (f === 0) continue;
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}
