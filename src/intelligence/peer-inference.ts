// Peer inference for the AI helpers: the probability that a company uses a product it shows
// no evidence of, from what its nearest peers run. A small logistic model over peer
// signals (share of the Default cohort using the product, the product's population share,
// whether the company already runs a rival product of the same category, co-usage with the
// company's own stack). Coefficients are fitted offline on a demo world with held-out
// evidence (`stacklens eval ai --fit`) and fixed here, so answers are deterministic.
import { sigmoid } from './confidence.ts';

export interface PeerSignal {
  /** Members of the company's Default cohort. */
  cohortSize: number;
  /** Of them, members with the product in use. */
  peerUsers: number;
  /** Share of the population with the product in use (0-1). */
  populationShare: number;
  /** Members with any in-use product of the product's main category. */
  categoryPeerUsers: number;
  /** Share of the population with a product of that category in use (0-1, approximate). */
  categoryPopulationShare: number;
  /** The company already runs another in-use product of the same main category. */
  categoryCovered: boolean;
  /** Highest P(product | q) over the company's in-use products q (population co-usage), 0 when none. */
  coUsage: number;
}

/** Pseudo-members of population evidence blended into a cohort's share (a small cohort says little). */
const PEER_PRIOR = 2;

export const INFERENCE_FEATURE_NAMES = [
  'bias',
  'peerShare',
  'logitPeerShare',
  'categoryShare',
  'logitCategoryShare',
  'logShareInCategory',
  'categoryCovered',
  'categoryCovered*peerShare',
  'coUsage',
] as const;

/** Cohort share shrunk towards the population share with the weight of PEER_PRIOR members. */
export function smoothedPeerShare(s: Pick<PeerSignal, 'cohortSize' | 'peerUsers' | 'populationShare'>): number {
  return (s.peerUsers + PEER_PRIOR * s.populationShare) / (s.cohortSize + PEER_PRIOR);
}

const logit = (p: number) => {
  const c = Math.min(0.99, Math.max(0.01, p));
  return Math.log(c / (1 - c));
};

/**
 * Features in INFERENCE_FEATURE_NAMES order. Two questions decide: does the company run
 * something in this category at all (how many peers do: the category share), and if so is
 * it this product (the product's share among the peers' picks in the category). Logits let
 * the model treat 95% and 99% differently from 45% and 49%; a covered category (the
 * company already runs a rival product) is the strongest negative signal, so it also bends
 * the slope; co-usage with the company's own stack adds what the cohort misses.
 */
export function inferenceFeatures(s: PeerSignal): number[] {
  const share = smoothedPeerShare(s);
  const catShare = (s.categoryPeerUsers + PEER_PRIOR * s.categoryPopulationShare) / (s.cohortSize + PEER_PRIOR);
  const inCategory = (s.peerUsers + 0.5) / (Math.max(s.categoryPeerUsers, s.peerUsers) + 1);
  const covered = s.categoryCovered ? 1 : 0;
  return [1, share, logit(share), catShare, logit(catShare), Math.log(inCategory), covered, covered * share, Math.min(1, Math.max(0, s.coUsage))];
}

/**
 * Fitted with `stacklens eval ai --fit` on a 5,000-company demo world of seed
 * 'calibration-fit' with 20% of every company's true installs hidden; checked on seed
 * 'stacklens' (docs/intelligence.md, "AI helpers"). Refit when the inference features,
 * the cohorts or the demo generator change.
 */
export const INFERENCE_COEFFICIENTS: readonly number[] = [-1.5027, 0.0557, 0.8157, 0.0879, 0.3491, 0.3233, -0.8716, -0.1606, 0.4419];

/** Probability (0-1, 3 decimals) that the company uses the product, from its peers. */
export function inferredProbability(s: PeerSignal, coefficients: readonly number[] = INFERENCE_COEFFICIENTS): number {
  const x = inferenceFeatures(s);
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (coefficients[i] ?? 0) * x[i]!;
  return Math.round(sigmoid(z) * 1000) / 1000;
}

const LOGIT_BOUND = Math.log(0.99 / 0.01);

/** The range of each feature of inferenceFeatures, in INFERENCE_FEATURE_NAMES order (log of a share below 1: no lower bound). */
const FEATURE_RANGES: readonly (readonly [number, number])[] = [
  [1, 1],
  [0, 1],
  [-LOGIT_BOUND, LOGIT_BOUND],
  [0, 1],
  [-LOGIT_BOUND, LOGIT_BOUND],
  [-Infinity, 0],
  [0, 1],
  [0, 1],
  [0, 1],
];

/**
 * The highest probability inferredProbability can give any signal (rounded as it rounds):
 * each feature at the end of its range its coefficient favours. A company with evidence more
 * probable than this cannot be outranked by an inferred one, so the AI helper skips the peer
 * inference when its evidence alone fills the answer above it.
 */
export function maxInferredProbability(coefficients: readonly number[] = INFERENCE_COEFFICIENTS): number {
  let z = 0;
  FEATURE_RANGES.forEach(([lo, hi], i) => {
    const c = coefficients[i] ?? 0;
    if (c !== 0) z += Math.max(c * lo, c * hi);
  });
  return Math.round(sigmoid(z) * 1000) / 1000;
}

/**
 * The highest probability a company's peer signal can reach before its own stack is read:
 * the most favourable of "category covered or not" and "co-usage 0 or 1" (the model is
 * linear in each, so an end of its range gives the maximum). A candidate whose ceiling is
 * below what the answer already holds needs no stack read.
 */
export function inferredProbabilityCeiling(
  s: Omit<PeerSignal, 'categoryCovered' | 'coUsage'>,
  coefficients: readonly number[] = INFERENCE_COEFFICIENTS,
): number {
  let top = 0;
  for (const categoryCovered of [false, true]) {
    for (const coUsage of [0, 1]) top = Math.max(top, inferredProbability({ ...s, categoryCovered, coUsage }, coefficients));
  }
  return top;
}

/** 0-100 integer, as the AI items carry it. */
export function toPercent(p: number): number {
  return Math.max(0, Math.min(100, Math.round(p * 100)));
}
