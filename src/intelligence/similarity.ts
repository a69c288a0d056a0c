// Pairwise similarity between two companies of a Population, each part in [0, 1]:
// firmographics (industry, size and revenue bands, geography), stack (IDF-weighted
// Jaccard of in-use products, cosine of category profiles) and description terms.
// The cohort kinds mix the parts with their own weights (WEIGHTS below).
import type { Population } from './features.ts';

/** Same industry 1, same sector 0.5, unknown on either side 0.25 (no evidence either way). */
export function industrySimilarity(pop: Population, a: number, b: number): number {
  const ia = pop.industry[a]!, ib = pop.industry[b]!;
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

export function countrySimilarity(pop: Population, a: number, b: number): number {
  if (pop.country[a]! < 0 || pop.country[b]! < 0) return 0.3;
  return pop.country[a] === pop.country[b] ? 1 : 0;
}

/** IDF-weighted Jaccard of the two in-use product sets (sorted index arrays). */
export function productSimilarity(pop: Population, a: number, b: number): number {
  const sa = pop.stacks[a]!, sb = pop.stacks[b]!;
  if (sa.length === 0 || sb.length === 0) return 0;
  let i = 0, j = 0, inter = 0;
  while (i < sa.length && j < sb.length) {
    const x = sa[i]!, y = sb[j]!;
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
export function productCosine(pop: Population, a: number, b: number): number {
  const sa = pop.stacks[a]!, sb = pop.stacks[b]!;
  const norm = pop.stackNorm[a]! * pop.stackNorm[b]!;
  if (norm === 0) return 0;
  let i = 0, j = 0, dot = 0;
  while (i < sa.length && j < sb.length) {
    const x = sa[i]!, y = sb[j]!;
    if (x === y) {
      dot += pop.productIdf[x]! ** 2;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return dot / norm;
}

/** Cosine of category-count profiles: alike needs, even with different vendors. */
export function categorySimilarity(pop: Population, a: number, b: number): number {
  const ia = pop.catIdx[a]!, ib = pop.catIdx[b]!, va = pop.catVal[a]!, vb = pop.catVal[b]!;
  const norm = pop.catNorm[a]! * pop.catNorm[b]!;
  if (norm === 0) return 0;
  let i = 0, j = 0, dot = 0;
  while (i < ia.length && j < ib.length) {
    if (ia[i] === ib[j]) dot += va[i++]! * vb[j++]!;
    else if (ia[i]! < ib[j]!) i++;
    else j++;
  }
  return dot / norm;
}

/** Cosine of IDF-weighted binary description-term vectors: what the company does. */
export function termSimilarity(pop: Population, a: number, b: number): number {
  const ta = pop.terms[a]!, tb = pop.terms[b]!;
  const norm = pop.termNorm[a]! * pop.termNorm[b]!;
  if (norm === 0) return 0;
  let i = 0, j = 0, dot = 0;
  while (i < ta.length && j < tb.length) {
    const x = ta[i]!, y = tb[j]!;
    if (x === y) {
      dot += pop.termIdf[x]! ** 2;
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
}

/**
 * Weights per cohort kind (each set sums to 1). Default balances who a company is with
 * what it runs; competitors lean on what it does (industry, description, size);
 * aspirational peers are scored on market and stack here, their larger size and more
 * mature stack being enforced by the candidate rules in cohorts.ts.
 */
export const WEIGHTS: Record<'default' | 'competitors' | 'aspirational', Weights> = {
  default: { industry: 0.15, employees: 0.075, revenue: 0, region: 0.075, country: 0, products: 0.7, productsCosine: 0, categories: 0, terms: 0 },
  competitors: { industry: 0.4, employees: 0.25, revenue: 0, region: 0.05, country: 0, products: 0.1, productsCosine: 0, categories: 0.05, terms: 0.15 },
  aspirational: { industry: 0.3, employees: 0, revenue: 0, region: 0.15, country: 0, products: 0.35, productsCosine: 0, categories: 0.2, terms: 0 },
};

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
