// Pairwise similarity between two companies of a Population, each part in [0, 1]:
// firmographics (industry, size and revenue bands, geography), stack (IDF-weighted
// Jaccard of in-use products, cosine of category profiles) and description terms.
// The cohort kinds mix the parts with their own weights (WEIGHTS below).
import type { Population } from './features.ts';

/** Same industry 1, same sector 0.5, unknown on either side 0.25 (no evidence either way). */
export function industrySimilarity(pop: Population, a: number, b: number): number {
  const ia = pop.industry[a]!,
    ib = pop.industry[b]!;
  if (ia >= 0 && ia === ib) return 1;
  if (pop.sector[a]! >= 0 && pop.sector[a] === pop.sector[b]) return 0.5;
  return ia < 0 || ib < 0 ? 0.25 : 0;
}

/** Bands are ordinal: one band apart is half as alike, two or more apart not alike. */
export function bandSimilarity(x: number, y: number): number {
  if (x < 0 || y < 0) return 0.3;
  const d = Math.abs(x - y);
  return d === 0 ? 1 : d === 1 ? 0.5 : 0;
}

/** Same region 1, unknown 0.3. Markets are regional; the country is a separate, small term. */
export function regionSimilarity(pop: Population, a: number, b: number): number {
  if (pop.region[a]! < 0 || pop.region[b]! < 0) return 0.3;
  return pop.region[a] === pop.region[b] ? 1 : 0;
}

function countrySimilarity(pop: Population, a: number, b: number): number {
  if (pop.country[a]! < 0 || pop.country[b]! < 0) return 0.3;
  return pop.country[a] === pop.country[b] ? 1 : 0;
}

/** IDF-weighted Jaccard of the two in-use product sets (sorted index arrays). */
export function productSimilarity(pop: Population, a: number, b: number): number {
  const sa = pop.stacks[a]!,
    sb = pop.stacks[b]!;
  if (sa.length === 0 || sb.length === 0) return 0;
  let i = 0,
    j = 0,
    inter = 0;
  while (i < sa.length && j < sb.length) {
    const x = sa[i]!,
      y = sb[j]!;
    if (x === y) {
      inter += pop.productIdf[x]!;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  const union = pop.stackWeight[a]! + pop.stackWeight[b]! - inter;
  return union > 0 ? inter / union : 0;
}

/** Cosine of the IDF-weighted product vectors: like the Jaccard, but kinder to stacks of unequal size. */
function productCosine(pop: Population, a: number, b: number): number {
  const sa = pop.stacks[a]!,
    sb = pop.stacks[b]!;
  const norm = pop.stackNorm[a]! * pop.stackNorm[b]!;
  if (norm === 0) return 0;
  let i = 0,
    j = 0,
    dot = 0;
  while (i < sa.length && j < sb.length) {
    const x = sa[i]!,
      y = sb[j]!;
    if (x === y) {
      const w = pop.productIdf[x]!;
      dot += w * w;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return dot / norm;
}

/** Cosine of category-count profiles: alike needs, even with different vendors. */
function categorySimilarity(pop: Population, a: number, b: number): number {
  const ia = pop.catIdx[a]!,
    ib = pop.catIdx[b]!,
    va = pop.catVal[a]!,
    vb = pop.catVal[b]!;
  const norm = pop.catNorm[a]! * pop.catNorm[b]!;
  if (norm === 0) return 0;
  let i = 0,
    j = 0,
    dot = 0;
  while (i < ia.length && j < ib.length) {
    if (ia[i] === ib[j]) dot += va[i++]! * vb[j++]!;
    else if (ia[i]! < ib[j]!) i++;
    else j++;
  }
  return dot / norm;
}

/** Cosine of IDF-weighted binary description-term vectors: what the company does. */
export function termSimilarity(pop: Population, a: number, b: number): number {
  const ta = pop.terms[a]!,
    tb = pop.terms[b]!;
  const norm = pop.termNorm[a]! * pop.termNorm[b]!;
  if (norm === 0) return 0;
  let i = 0,
    j = 0,
    dot = 0;
  while (i < ta.length && j < tb.length) {
    const x = ta[i]!,
      y = tb[j]!;
    if (x === y) {
      const w = pop.termIdf[x]!;
      dot += w * w;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return dot / norm;
}

export interface Weights {
  industry: number;
  employees: number;
  revenue: number;
  region: number;
  country: number;
  products: number;
  productsCosine: number;
  categories: number;
  terms: number;
  /**
   * Shared nearest neighbours: of the company's first-stage nearest peers (and the candidate
   * itself), the share the candidate also counts among its own (cohorts.ts FirstStage). Not a
   * pairwise feature: it needs the population's first-stage peer lists, so cohorts.ts fills it
   * and the pairwise functions leave it at 0.
   */
  neighbours: number;
}

/**
 * Every consumer of "alike" in one table (each row sums to 1), over the one set of parts
 * above, so cohorts, competitors and lookalikes never grow notions of their own: Default
 * balances who a company is with what it runs; competitors lean on what it does (industry,
 * description, size); aspirational peers are scored on market and stack here, their larger
 * size and more mature stack being enforced by the candidate rules in cohorts.ts.
 * Default and competitors give 0.4 to shared nearest neighbours, the second stage of their
 * ranking (cohorts.ts): the first stage is the rest of the row. The firstStage row ranks the
 * nearest peers that part compares: the stack weighs more there than in Default's own
 * ranking (purity 0.888 against 0.875 with Default's row on the fitting seed). Lookalikes compare each
 * company with a seed set's shared values (lookalikes.ts); measured on the demo world's hidden
 * segments, the best row was Default's first stage. docs/intelligence.md holds the same table.
 */
// prettier-ignore
export const WEIGHTS: Record<'default' | 'competitors' | 'aspirational' | 'lookalikes' | 'firstStage', Weights> = {
  default:      { industry: 0.09, employees: 0.045, revenue: 0, region: 0.045, country: 0, products: 0.42, productsCosine: 0, categories: 0,    terms: 0,    neighbours: 0.4 },
  competitors:  { industry: 0.24, employees: 0.15,  revenue: 0, region: 0.03,  country: 0, products: 0.06, productsCosine: 0, categories: 0.03, terms: 0.09, neighbours: 0.4 },
  aspirational: { industry: 0.3,  employees: 0,     revenue: 0, region: 0.15,  country: 0, products: 0.35, productsCosine: 0, categories: 0.2,  terms: 0,    neighbours: 0 },
  lookalikes:   { industry: 0.15, employees: 0.075, revenue: 0, region: 0.075, country: 0, products: 0.7,  productsCosine: 0, categories: 0,    terms: 0,    neighbours: 0 },
  firstStage:   { industry: 0.09, employees: 0.045, revenue: 0, region: 0.045, country: 0, products: 0.82, productsCosine: 0, categories: 0,    terms: 0,    neighbours: 0 },
};

/** The pairwise score: every part but `neighbours`, which needs the first-stage peer lists (cohorts.ts). */
export function combinedSimilarity(pop: Population, a: number, b: number, w: Weights): number {
  let s = 0;
  if (w.industry) s += w.industry * industrySimilarity(pop, a, b);
  if (w.employees) s += w.employees * bandSimilarity(pop.emp[a]!, pop.emp[b]!);
  if (w.revenue) s += w.revenue * bandSimilarity(pop.rev[a]!, pop.rev[b]!);
  if (w.region) s += w.region * regionSimilarity(pop, a, b);
  if (w.country) s += w.country * countrySimilarity(pop, a, b);
  if (w.products) s += w.products * productSimilarity(pop, a, b);
  if (w.productsCosine) s += w.productsCosine * productCosine(pop, a, b);
  if (w.categories) s += w.categories * categorySimilarity(pop, a, b);
  if (w.terms) s += w.terms * termSimilarity(pop, a, b);
  return s;
}

/** The parts of one comparison, one per weight (each in [0, 1]). */
export type SimilarityParts = Record<keyof Weights, number>;

/**
 * One company compared with many (the refresh scores hundreds of candidates per company):
 * its stack, category profile and terms are spread once into dense arrays indexed by
 * product, category and term, so each comparison is one pass over the other company's
 * sorted lists instead of a branchy merge of two. The sums run in the same order as in the
 * pairwise functions above (a non-match adds an exact 0), so every part, and every score,
 * is bit-for-bit the same as combinedSimilarity's.
 */
export class SimilarityProbe {
  private self = -1;
  private readonly productWeight: Float64Array;
  private readonly categoryCount: Float64Array;
  private readonly termWeight: Float64Array;

  constructor(private readonly pop: Population) {
    this.productWeight = new Float64Array(pop.productIdf.length);
    this.categoryCount = new Float64Array(pop.productCategory.reduce((max, c) => Math.max(max, c + 1), 0));
    this.termWeight = new Float64Array(pop.termIdf.length);
  }

  /** Makes `a` the company every following comparison starts from. */
  from(a: number): this {
    if (a === this.self) return this;
    if (this.self >= 0) this.spread(this.self, true);
    this.self = a;
    this.spread(a, false);
    return this;
  }

  private spread(a: number, clear: boolean): void {
    const pop = this.pop;
    for (const p of pop.stacks[a]!) this.productWeight[p] = clear ? 0 : pop.productIdf[p]!;
    const ci = pop.catIdx[a]!,
      cv = pop.catVal[a]!;
    for (let i = 0; i < ci.length; i++) this.categoryCount[ci[i]!] = clear ? 0 : cv[i]!;
    for (const t of pop.terms[a]!) this.termWeight[t] = clear ? 0 : pop.termIdf[t]!;
  }

  /** Every part of the comparison of the current company with `b`, into `out`. */
  parts(b: number, out: SimilarityParts): SimilarityParts {
    const pop = this.pop,
      a = this.self;
    out.industry = industrySimilarity(pop, a, b);
    out.employees = bandSimilarity(pop.emp[a]!, pop.emp[b]!);
    out.revenue = bandSimilarity(pop.rev[a]!, pop.rev[b]!);
    out.region = regionSimilarity(pop, a, b);
    out.country = countrySimilarity(pop, a, b);

    const sb = pop.stacks[b]!,
      sa = pop.stacks[a]!;
    let inter = 0,
      dot = 0;
    for (let j = 0; j < sb.length; j++) {
      const w = this.productWeight[sb[j]!]!;
      inter += w;
      dot += w * w;
    }
    const union = pop.stackWeight[a]! + pop.stackWeight[b]! - inter;
    out.products = sa.length === 0 || sb.length === 0 ? 0 : union > 0 ? inter / union : 0;
    const stackNorm = pop.stackNorm[a]! * pop.stackNorm[b]!;
    out.productsCosine = stackNorm === 0 ? 0 : dot / stackNorm;

    const ib = pop.catIdx[b]!,
      vb = pop.catVal[b]!;
    const catNorm = pop.catNorm[a]! * pop.catNorm[b]!;
    let catDot = 0;
    for (let j = 0; j < ib.length; j++) catDot += this.categoryCount[ib[j]!]! * vb[j]!;
    out.categories = catNorm === 0 ? 0 : catDot / catNorm;

    const tb = pop.terms[b]!;
    const termNorm = pop.termNorm[a]! * pop.termNorm[b]!;
    let termDot = 0;
    for (let j = 0; j < tb.length; j++) {
      const w = this.termWeight[tb[j]!]!;
      termDot += w * w;
    }
    out.terms = termNorm === 0 ? 0 : termDot / termNorm;
    out.neighbours = 0; // filled by cohorts.ts, which holds the first-stage peer lists
    return out;
  }
}

export function emptyParts(): SimilarityParts {
  return { industry: 0, employees: 0, revenue: 0, region: 0, country: 0, products: 0, productsCosine: 0, categories: 0, terms: 0, neighbours: 0 };
}

/** The weighted sum of parts, added in combinedSimilarity's order (so the same double). */
export function combineParts(p: SimilarityParts, w: Weights): number {
  let s = 0;
  if (w.industry) s += w.industry * p.industry;
  if (w.employees) s += w.employees * p.employees;
  if (w.revenue) s += w.revenue * p.revenue;
  if (w.region) s += w.region * p.region;
  if (w.country) s += w.country * p.country;
  if (w.products) s += w.products * p.products;
  if (w.productsCosine) s += w.productsCosine * p.productsCosine;
  if (w.categories) s += w.categories * p.categories;
  if (w.terms) s += w.terms * p.terms;
  if (w.neighbours) s += w.neighbours * p.neighbours;
  return s;
}
