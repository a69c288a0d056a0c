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
] as const;

/**
 * The feature vector of one install, relative to `asOf` (ms). Logs tame the long tails
 * of age and hit counts; the squares let the model bend (evidence a few weeks old is as
 * good as fresh, then it decays fast); a single sighting is its own signal (a passing
 * mention); sources are capped at 5 because a sixth source adds nothing.
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
  ];
}

/**
 * Coefficients in FEATURE_NAMES order. Fitted with `stacklens eval --fit` on a 5,000-company
 * demo world of seed 'calibration-fit' (ECE 0.011 there) and checked on the default seed
 * 'stacklens' (docs/intelligence.md); refit when the evidence model changes. Refitted on
 * 2026-11-25 when installs began to come from the detector's observations (intensity is
 * now the noisy-OR of the traces' weights, so one strong trace already reads high: the
 * intensity terms turned negative against hits and age, which carry the signal).
 */
export const CONFIDENCE_COEFFICIENTS: readonly number[] = [5.3839, -0.2316, -0.4799, 1.0709, -0.2192, -0.7663, -1.3976, 0.004, -0.457];

/** In use when the calibrated probability reaches one half. */
export const IN_USE_THRESHOLD = 0.5;

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** Probability (0-1, 3 decimals) that the evidenced product is still in use at `asOf`. */
export function inUseConfidence(e: InstallSignal, asOf: number, coefficients: readonly number[] = CONFIDENCE_COEFFICIENTS): number {
  const x = evidenceFeatures(e, asOf);
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (coefficients[i] ?? 0) * x[i]!;
  return Math.round(sigmoid(z) * 1000) / 1000;
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
