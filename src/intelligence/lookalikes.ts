// Lookalikes of a seed set: every company of a Population scored against the set as a whole,
// in the feature space cohorts and competitors use (features.ts) and with their part functions
// (similarity.ts), each part generalized from "one company" to "the seeds":
// - firmographics (industry, size and revenue bands, region): the mean over the seeds of the
//   pairwise part, e.g. industrySimilarity(seed, candidate);
// - products: the IDF-weighted Jaccard of productSimilarity, against a fuzzy "seed stack" where
//   product p weighs idf(p) × (seeds using p) / seeds;
// - categories, description terms: the cosine of categorySimilarity / termSimilarity against the
//   seeds' mean profile.
// A value (product, term, category, industry, band, region) held by fewer than `minSupport`
// seeds is left out of the seed profile: one seed's quirk never drives the ranking. With one
// seed and minSupport 1 every part equals its pairwise function (held by a test).
// The weights of the parts are the lookalikes row of WEIGHTS (similarity.ts), the one table of
// every consumer of "alike".
import type { Population } from './features.ts';
import { bandSimilarity, industrySimilarity, regionSimilarity, WEIGHTS, type Weights } from './similarity.ts';

/** The parts a seed set is compared by: the columns of WEIGHTS (similarity.ts) but country, productsCosine and neighbours, which lookalikes leave at 0. */
type LookalikeWeights = Omit<Weights, 'country' | 'productsCosine' | 'neighbours'>;
type LookalikeParts = Record<keyof LookalikeWeights, number>;
export type LookalikePart = keyof LookalikeWeights;

/**
 * The lookalikes row of the one weights table (similarity.ts WEIGHTS), chosen on the demo
 * world's hidden segments (`stacklens eval lookalikes`; the weights tried and their figures:
 * docs/intelligence.md). The in-use stack says most about which segment a company is in;
 * industry, size and region keep a company of another market from ranking on a shared suite
 * alone. Categories and description terms measured no gain there; their parts stay, at weight
 * 0, for other worlds.
 */
export const LOOKALIKE_WEIGHTS: LookalikeWeights = lookalikeRow(WEIGHTS.lookalikes);

function lookalikeRow(w: Weights): LookalikeWeights {
  if (w.country !== 0 || w.productsCosine !== 0 || w.neighbours !== 0)
    throw new Error('lookalikes compare no country, productsCosine or neighbours part: their weights must be 0');
  const { country: _country, productsCosine: _cosine, neighbours: _neighbours, ...parts } = w;
  return parts;
}

/** A value of a firmographic field held by some seeds: one of them stands for all in the pairwise function. */
interface SeedGroup {
  representative: number;
  seeds: number;
}

interface SeedProfile {
  /** Population indices of the seeds. */
  seeds: number[];
  minSupport: number;
  /** Per product: seeds using it (every product, supported or not: the explanations read it). */
  productSupport: Int32Array;
  /** Per product: its weight in the fuzzy seed stack (0 when below minSupport). */
  productWeight: Float64Array;
  productTotal: number;
  /** Per category: the seeds' mean count (0 when held by fewer than minSupport seeds). */
  categoryMean: Float64Array;
  categoryNorm: number;
  /** Per term: its weight in the seed profile (0 when below minSupport). */
  termWeight: Float64Array;
  termNorm: number;
  industry: SeedGroup[];
  employees: SeedGroup[];
  revenue: SeedGroup[];
  region: SeedGroup[];
}

function groupsOf(seeds: number[], code: (i: number) => number, minSupport: number): SeedGroup[] {
  const by = new Map<number, SeedGroup>();
  for (const s of seeds) {
    const g = by.get(code(s));
    if (g) g.seeds++;
    else by.set(code(s), { representative: s, seeds: 1 });
  }
  return [...by.values()].filter((g) => g.seeds >= minSupport);
}

export function seedProfile(pop: Population, seeds: number[], minSupport: number): SeedProfile {
  const n = seeds.length;
  const productSupport = new Int32Array(pop.productIdf.length);
  const categories = pop.productCategory.reduce((max, c) => Math.max(max, c + 1), 0);
  const categorySum = new Float64Array(categories);
  const categorySupport = new Int32Array(categories);
  const termSupport = new Int32Array(pop.termIdf.length);
  for (const s of seeds) {
    for (const p of pop.stacks[s]!) productSupport[p]!++;
    const ci = pop.catIdx[s]!,
      cv = pop.catVal[s]!;
    for (let i = 0; i < ci.length; i++) {
      categorySum[ci[i]!]! += cv[i]!;
      categorySupport[ci[i]!]!++;
    }
    for (const t of pop.terms[s]!) termSupport[t]!++;
  }
  const productWeight = Float64Array.from(productSupport, (k, p) => (k >= minSupport && k > 0 ? (pop.productIdf[p]! * k) / n : 0));
  const categoryMean = Float64Array.from(categorySum, (sum, c) => (categorySupport[c]! >= minSupport ? sum / n : 0));
  const termWeight = Float64Array.from(termSupport, (k, t) => (k >= minSupport && k > 0 ? (pop.termIdf[t]! * k) / n : 0));
  const norm = (xs: Float64Array) => Math.sqrt(xs.reduce((s, x) => s + x * x, 0));
  return {
    seeds,
    minSupport,
    productSupport,
    productWeight,
    productTotal: productWeight.reduce((s, w) => s + w, 0),
    categoryMean,
    categoryNorm: norm(categoryMean),
    termWeight,
    termNorm: norm(termWeight),
    industry: groupsOf(seeds, (i) => pop.industry[i]!, minSupport),
    employees: groupsOf(seeds, (i) => pop.emp[i]!, minSupport),
    revenue: groupsOf(seeds, (i) => pop.rev[i]!, minSupport),
    region: groupsOf(seeds, (i) => pop.region[i]!, minSupport),
  };
}

/**
 * Scores candidates against one seed profile. The firmographic parts depend only on the
 * candidate's value, so each is computed once per distinct value (memo), keeping a candidate's
 * cost at one pass over its stack, categories and terms whatever the number of seeds.
 */
export class LookalikeScorer {
  private readonly memo = {
    industry: new Map<number, number>(),
    employees: new Map<number, number>(),
    revenue: new Map<number, number>(),
    region: new Map<number, number>(),
  };

  constructor(
    private readonly pop: Population,
    readonly profile: SeedProfile,
    readonly weights: LookalikeWeights = LOOKALIKE_WEIGHTS,
  ) {}

  private firmographic(part: 'industry' | 'employees' | 'revenue' | 'region', c: number): number {
    const pop = this.pop;
    const key = part === 'industry' ? pop.industry[c]! : part === 'employees' ? pop.emp[c]! : part === 'revenue' ? pop.rev[c]! : pop.region[c]!;
    const known = this.memo[part].get(key);
    if (known !== undefined) return known;
    let sum = 0;
    for (const g of this.profile[part]) {
      const s = g.representative;
      const sim =
        part === 'industry'
          ? industrySimilarity(pop, s, c)
          : part === 'employees'
            ? bandSimilarity(pop.emp[s]!, pop.emp[c]!)
            : part === 'revenue'
              ? bandSimilarity(pop.rev[s]!, pop.rev[c]!)
              : regionSimilarity(pop, s, c);
      sum += g.seeds * sim;
    }
    const value = sum / this.profile.seeds.length;
    this.memo[part].set(key, value);
    return value;
  }

  /** Every part for candidate `c`, into `out`. */
  parts(c: number, out: LookalikeParts): LookalikeParts {
    const pop = this.pop,
      prof = this.profile;
    out.industry = this.firmographic('industry', c);
    out.employees = this.firmographic('employees', c);
    out.revenue = this.firmographic('revenue', c);
    out.region = this.firmographic('region', c);

    const stack = pop.stacks[c]!;
    let inter = 0;
    for (let j = 0; j < stack.length; j++) inter += prof.productWeight[stack[j]!]!;
    const union = pop.stackWeight[c]! + prof.productTotal - inter;
    out.products = stack.length === 0 || prof.productTotal === 0 ? 0 : union > 0 ? inter / union : 0;

    const ci = pop.catIdx[c]!,
      cv = pop.catVal[c]!;
    const catNorm = pop.catNorm[c]! * prof.categoryNorm;
    let catDot = 0;
    for (let j = 0; j < ci.length; j++) catDot += prof.categoryMean[ci[j]!]! * cv[j]!;
    out.categories = catNorm === 0 ? 0 : catDot / catNorm;

    const terms = pop.terms[c]!;
    const termNorm = pop.termNorm[c]! * prof.termNorm;
    let termDot = 0;
    for (let j = 0; j < terms.length; j++) termDot += pop.termIdf[terms[j]!]! * prof.termWeight[terms[j]!]!;
    out.terms = termNorm === 0 ? 0 : termDot / termNorm;
    return out;
  }

  score(c: number, scratch: LookalikeParts = emptyLookalikeParts()): number {
    const p = this.parts(c, scratch),
      w = this.weights;
    return (
      w.industry * p.industry +
      w.employees * p.employees +
      w.revenue * p.revenue +
      w.region * p.region +
      w.products * p.products +
      w.categories * p.categories +
      w.terms * p.terms
    );
  }

  /**
   * What made the score: each part's weighted value, and the products part split by product
   * (a product's share of the Jaccard's numerator is its share of the part).
   */
  contributions(c: number): { parts: LookalikeParts; products: { product: number; contribution: number }[]; score: number } {
    const parts = this.parts(c, emptyLookalikeParts());
    const weighted = emptyLookalikeParts();
    for (const k of Object.keys(weighted) as LookalikePart[]) weighted[k] = this.weights[k] * parts[k];
    const stack = this.pop.stacks[c]!;
    let inter = 0;
    for (const p of stack) inter += this.profile.productWeight[p]!;
    const products = [];
    if (inter > 0)
      for (const p of stack)
        if (this.profile.productWeight[p]! > 0) products.push({ product: p, contribution: (weighted.products * this.profile.productWeight[p]!) / inter });
    products.sort((a, b) => b.contribution - a.contribution || a.product - b.product);
    const score = Object.values(weighted).reduce((s, v) => s + v, 0);
    return { parts: weighted, products, score };
  }
}

export function emptyLookalikeParts(): LookalikeParts {
  return { industry: 0, employees: 0, revenue: 0, region: 0, products: 0, categories: 0, terms: 0 };
}

/** Seeds (of the profile) holding the same code as candidate `c` in a firmographic field. */
export function seedsAlike(pop: Population, seeds: number[], field: 'industry' | 'emp' | 'rev' | 'region', c: number): number {
  const v = pop[field][c]!;
  if (v < 0) return 0;
  let k = 0;
  for (const s of seeds) if (pop[field][s] === v) k++;
  return k;
}
