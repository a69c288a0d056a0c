// Related products: what is co-used with an anchor product inside a cohort. The cohort's
// rate of each product is read over its members, those running the anchor (and the asking
// company, which runs it) weighing more, and shrunk toward the population's rate
// P(p | anchor) (a Bayesian prior worth PRIOR_STRENGTH members), so a small cohort falls back
// smoothly on the whole population and a large one speaks for itself. Products are ranked by
// lift over the population base rate, among those with enough support; never the anchor.

interface CoUsageCounts {
  /** Companies in the population with any in-use product. */
  population: number;
  /** Of those, companies using the anchor. */
  anchorUsers: number;
  /** Per product: companies using both it and the anchor. */
  together: Map<string, number>;
  /** Per product: companies using it. */
  users: Map<string, number>;
}

/** What a cohort says about the products co-used with one anchor (`cohortCounts`). */
interface CohortCounts {
  /** Total weight of the members (a peer 1, a peer running the anchor and the company itself `anchorUserWeight`). */
  weight: number;
  /** Per product: the weight of the members running it. */
  weighted: Map<string, number>;
  /** Per product: peers running both it and the anchor (unweighted: the support rule counts companies). */
  together: Map<string, number>;
}

interface RelatedOptions {
  /** Pseudo-members of population evidence blended into the cohort's rates. */
  priorStrength: number;
  /** Weight of a peer running the anchor, and of the asking company, against 1 for any other peer. */
  anchorUserWeight: number;
  /** Minimum blended rate for a product to count as co-adopted. */
  minConfidence: number;
  /** Minimum companies (cohort peers + population) seen using both. */
  minSupport: number;
}

/**
 * Tuned on the demo world (seed `calibration-fit`, checked on `stacklens`; docs/intelligence.md).
 * Why every member counts, not only the anchor's users: inside one segment the products a
 * company runs depend little on each other, so the whole cohort estimates what the anchor's
 * users run with a sample several times larger (top-5 co-adoption 0.585 → 0.780 there);
 * anchor users weighing double 0.789, and the company itself counted as one of them 0.831. A related
 * product must be co-used by at least 30% (blended); below that, lift mostly ranks rare noise.
 */
const RELATED_OPTIONS: RelatedOptions = { priorStrength: 10, anchorUserWeight: 2, minConfidence: 0.3, minSupport: 2 };

export interface RelatedScore {
  productId: string;
  /** Blended rate of the product among the cohort's members (anchor users weighing more). */
  confidence: number;
  /** confidence / population base rate. */
  lift: number;
  cohortTogether: number;
  globalTogether: number;
}

/** A co-adopted partner of the anchor: enough support and a blended rate of at least minConfidence. */
interface Partner {
  productId: string;
  confidence: number;
  cohortTogether: number;
  globalTogether: number;
}

/**
 * Counts a cohort's in-use stacks for one anchor: every peer weighs 1, a peer running the
 * anchor `anchorUserWeight`; the asking company's own stack (null when not known) weighs as
 * an anchor user, since the question is asked of its anchor.
 */
export function cohortCounts(
  anchorId: string,
  peerStacks: Iterable<readonly string[]>,
  ownStack: readonly string[] | null,
  options: RelatedOptions = RELATED_OPTIONS,
): CohortCounts {
  const counts: CohortCounts = { weight: 0, weighted: new Map(), together: new Map() };
  const add = (stack: readonly string[], w: number, peer: boolean) => {
    counts.weight += w;
    for (const p of stack) {
      if (p === anchorId) continue;
      counts.weighted.set(p, (counts.weighted.get(p) ?? 0) + w);
      if (peer) counts.together.set(p, (counts.together.get(p) ?? 0) + 1);
    }
  };
  for (const stack of peerStacks) {
    const usesAnchor = stack.includes(anchorId);
    add(stack, usesAnchor ? options.anchorUserWeight : 1, usesAnchor);
  }
  if (ownStack) add(ownStack, options.anchorUserWeight, false);
  return counts;
}

/**
 * The products co-adopted with the anchor: supported by enough companies and at a blended
 * rate of at least minConfidence. Needs no per-product user counts, so a caller can read
 * those for the few partners only.
 */
export function coAdoptedPartners(
  anchorId: string,
  cohort: CohortCounts,
  global: Pick<CoUsageCounts, 'anchorUsers' | 'together'>,
  options: RelatedOptions = RELATED_OPTIONS,
): Partner[] {
  // Candidates are co-used with the anchor somewhere: by a peer or in the population.
  const ids = new Set<string>([...cohort.together.keys(), ...global.together.keys()]);
  ids.delete(anchorId);
  const a = options.priorStrength;
  const out: Partner[] = [];
  for (const p of ids) {
    const t = cohort.together.get(p) ?? 0;
    const gt = global.together.get(p) ?? 0;
    if (t + gt < options.minSupport) continue;
    const globalRate = global.anchorUsers > 0 ? gt / global.anchorUsers : 0;
    const confidence = ((cohort.weighted.get(p) ?? 0) + a * globalRate) / (cohort.weight + a);
    if (confidence >= options.minConfidence) out.push({ productId: p, confidence, cohortTogether: t, globalTogether: gt });
  }
  return out;
}

/** The partners ranked by lift over the population base rate (`global.users` needs only the partners). */
export function rankRelated(anchorId: string, cohort: CohortCounts, global: CoUsageCounts, options: RelatedOptions = RELATED_OPTIONS): RelatedScore[] {
  return rankPartners(coAdoptedPartners(anchorId, cohort, global, options), global);
}

export function rankPartners(partners: Partner[], global: Pick<CoUsageCounts, 'population' | 'users'>): RelatedScore[] {
  const out = partners.map(({ productId, confidence, cohortTogether, globalTogether }) => {
    // Base rate over the population, with one pseudo-user so an unseen product is not ∞.
    const gu = Math.max(global.users.get(productId) ?? 0, globalTogether, 1);
    const base = gu / Math.max(global.population, gu);
    return { productId, confidence: round(confidence), lift: round(confidence / base), cohortTogether, globalTogether };
  });
  return out.sort((x, y) => y.lift - x.lift || y.confidence - x.confidence || (x.productId < y.productId ? -1 : 1));
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
