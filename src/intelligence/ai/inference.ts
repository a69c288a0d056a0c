// Peer inference for the AI helpers: the probability that a company uses a product it shows
// no evidence of, from what its nearest peers run. A small logistic model over peer
// signals (share of the Default cohort using the product, the product's population share,
// whether the company already runs a rival product of the same category, co-usage with the
// company's own stack). Coefficients are fitted offline on a demo world with held-out
// evidence (`stacklens eval ai --fit`) and fixed here, so answers are deterministic.
import { sigmoid } from '../confidence.ts';

export interface PeerSignal {
  /** Members of the company's Default cohort. */
  cohortSize: number;
  /** Of them, members with the product in use. */
  peerUsers: number;
  /** Share of the population with the product in use (0-1). */
  populationShare: number;
  /** The company already runs another in-use product of the same main category. */
  categoryCovered: boolean;
  /** Highest P(product | q) over the company's in-use products q (population co-usage), 0 when none. */
  coUsage: number;
}

/** Pseudo-members of population evidence blended into a cohort's share (a small cohort says little). */
export const PEER_PRIOR = 2;

export const INFERENCE_FEATURE_NAMES = [
  'bias', 'peerShare', 'logitPeerShare', 'populationShare', 'categoryCovered', 'categoryCovered*peerShare', 'coUsage',
] as const;

/** Cohort share shrunk towards the population share with the weight of PEER_PRIOR members. */
export function smoothedPeerShare(s: Pick<PeerSignal, 'cohortSize' | 'peerUsers' | 'populationShare'>): number {
  return (s.peerUsers + PEER_PRIOR * s.populationShare) / (s.cohortSize + PEER_PRIOR);
}

/**
 * Features in INFERENCE_FEATURE_NAMES order. The logit of the peer share lets the model
 * treat 95% and 99% of peers differently from 45% and 49%; a covered category is the
 * strongest negative signal (companies rarely run two CRMs), so it also bends the slope.
 */
export function inferenceFeatures(s: PeerSignal): number[] {
  const share = smoothedPeerShare(s);
  const clamped = Math.min(0.99, Math.max(0.01, share));
  const covered = s.categoryCovered ? 1 : 0;
  return [1, share, Math.log(clamped / (1 - clamped)), s.populationShare, covered, covered * share, Math.min(1, Math.max(0, s.coUsage))];
}

/**
 * Fitted with `stacklens eval ai --fit` on a 5,000-company demo world of seed
 * 'calibration-fit' with 20% of every company's true installs hidden; checked on seed
 * 'stacklens' (docs/intelligence.md, "AI helpers"). Refit when the inference features,
 * the cohorts or the demo generator change.
 */
export const INFERENCE_COEFFICIENTS: readonly number[] = [-2.2, 3.0, 0.6, 0, -2.0, -1.0, 1.0];

/** Probability (0-1, 3 decimals) that the company uses the product, from its peers. */
export function inferredProbability(s: PeerSignal, coefficients: readonly number[] = INFERENCE_COEFFICIENTS): number {
  const x = inferenceFeatures(s);
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (coefficients[i] ?? 0) * x[i]!;
  return Math.round(sigmoid(z) * 1000) / 1000;
}

/** 0-100 integer, as the AI items carry it. */
export function toPercent(p: number): number {
  return Math.max(0, Math.min(100, Math.round(p * 100)));
}
