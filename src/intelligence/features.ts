// Compact per-company feature vectors for the whole population, built once per refresh:
// firmographic codes as small integers, the in-use stack as a sorted array of product
// indices with IDF weights, a category profile, and IDF-weighted description terms.
import { employeeBandIndex, regionOf, revenueBandIndex } from './bands.ts';

export interface CompanyInput {
  id: string;
  industryId: string | null;
  sector: string | null;
  employeeBand: string | null;
  revenueBand: string | null;
  country: string | null;
  description: string | null;
  /** Display name: companies that share one (folded) are never each other's competitors. */
  name?: string | null;
  /** Product ids the company uses (installs whose evidence says in use). */
  products: string[];
}

interface ProductInput {
  id: string;
  categoryId: string;
}

export interface Population {
  size: number;
  ids: string[];
  indexOf: Map<string, number>;
  /** Dictionary codes; -1 = unknown. */
  industry: Int32Array;
  sector: Int32Array;
  emp: Int8Array;
  rev: Int8Array;
  country: Int32Array;
  region: Int32Array;
  /** Dictionary code of the folded name (lowercase letters and digits); -1 = unknown. */
  name: Int32Array;
  productIds: string[];
  productIndex: Map<string, number>;
  /** Per product: IDF weight and number of companies using it. */
  productIdf: Float64Array;
  productDf: Int32Array;
  productCategory: Int32Array;
  /** Per company: sorted product indices, their IDF sum (stack weight) and count. */
  stacks: Int32Array[];
  stackWeight: Float64Array;
  /** Per company: L2 norm of the IDF weights of its stack (for the cosine). */
  stackNorm: Float64Array;
  /** Per company: sorted category indices with counts, and the L2 norm of the counts. */
  catIdx: Int32Array[];
  catVal: Float64Array[];
  catNorm: Float64Array;
  /** Per company: sorted term indices and the L2 norm of their IDF weights. */
  terms: Int32Array[];
  termIdf: Float64Array;
  termNorm: Float64Array;
}

const STOPWORDS = new Set(
  (
    'the and for with that this from are was were has have had its our your their they them you not but all any can will ' +
    'into over more most such than then also into about across which while where when what who whom how each other ' +
    'company companies inc llc ltd corp group based offers provides provider leading global world solutions services ' +
    'products service product solution customers customer business businesses help helps helping since founded one new'
  ).split(' '),
);

/** Lowercase word tokens of at least 3 letters, without stopwords, de-duplicated. */
export function descriptionTerms(text: string | null | undefined): string[] {
  if (!text) return [];
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 3 || STOPWORDS.has(raw) || /^\d+$/.test(raw)) continue;
    // Crude plural folding so "clinics" meets "clinic".
    out.add(raw.length > 4 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return [...out];
}

/** A name compared the way a reader would: case, spaces and punctuation do not count. */
export function foldName(name: string | null | undefined): string {
  return (name ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

class Dict {
  readonly map = new Map<string, number>();
  code(value: string | null | undefined): number {
    if (value === null || value === undefined || value === '') return -1;
    let c = this.map.get(value);
    if (c === undefined) {
      c = this.map.size;
      this.map.set(value, c);
    }
    return c;
  }
}

export function buildPopulation(companies: CompanyInput[], products: ProductInput[]): Population {
  const n = companies.length;
  const productIds = products.map((p) => p.id);
  const productIndex = new Map(productIds.map((id, i) => [id, i]));
  const cats = new Dict();
  const productCategory = Int32Array.from(products, (p) => cats.code(p.categoryId));
  const industries = new Dict();
  const sectors = new Dict();
  const countries = new Dict();
  const regions = new Dict();
  const names = new Dict();
  const pop: Population = {
    size: n,
    ids: companies.map((c) => c.id),
    indexOf: new Map(companies.map((c, i) => [c.id, i])),
    industry: new Int32Array(n),
    sector: new Int32Array(n),
    emp: new Int8Array(n),
    rev: new Int8Array(n),
    country: new Int32Array(n),
    region: new Int32Array(n),
    name: new Int32Array(n),
    productIds,
    productIndex,
    productIdf: new Float64Array(products.length),
    productDf: new Int32Array(products.length),
    productCategory,
    stacks: new Array(n),
    stackWeight: new Float64Array(n),
    stackNorm: new Float64Array(n),
    catIdx: new Array(n),
    catVal: new Array(n),
    catNorm: new Float64Array(n),
    terms: new Array(n),
    termIdf: new Float64Array(0),
    termNorm: new Float64Array(n),
  };
  const termDict = new Dict();
  const termLists: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const c = companies[i]!;
    pop.industry[i] = industries.code(c.industryId);
    pop.sector[i] = sectors.code(c.sector);
    pop.emp[i] = employeeBandIndex(c.employeeBand);
    pop.rev[i] = revenueBandIndex(c.revenueBand);
    pop.country[i] = countries.code(c.country?.toUpperCase());
    pop.region[i] = regions.code(regionOf(c.country));
    pop.name[i] = names.code(foldName(c.name));
    const idx = [...new Set(c.products.map((id) => productIndex.get(id)).filter((x): x is number => x !== undefined))].sort((a, b) => a - b);
    pop.stacks[i] = Int32Array.from(idx);
    for (const p of idx) pop.productDf[p]!++;
    termLists[i] = descriptionTerms(c.description).map((t) => termDict.code(t));
  }
  // IDF: ln((N+1)/(df+1)); a product everyone runs says nothing about who is alike.
  for (let p = 0; p < products.length; p++) pop.productIdf[p] = Math.log((n + 1) / (pop.productDf[p]! + 1));
  const termDf = new Int32Array(termDict.map.size);
  for (const list of termLists) for (const t of list) termDf[t]!++;
  // Terms seen once cannot match anyone; terms in over a third of descriptions (of a
  // population big enough to say so) are boilerplate.
  pop.termIdf = Float64Array.from(termDf, (df) => (df < 2 || df > Math.max(n / 3, 10) ? 0 : Math.log((n + 1) / (df + 1))));
  for (let i = 0; i < n; i++) {
    const stack = pop.stacks[i]!;
    let w = 0,
      w2 = 0;
    const catCount = new Map<number, number>();
    for (const p of stack) {
      w += pop.productIdf[p]!;
      w2 += pop.productIdf[p]! ** 2;
      const c = productCategory[p]!;
      catCount.set(c, (catCount.get(c) ?? 0) + 1);
    }
    pop.stackWeight[i] = w;
    pop.stackNorm[i] = Math.sqrt(w2);
    const ci = [...catCount.keys()].sort((a, b) => a - b);
    pop.catIdx[i] = Int32Array.from(ci);
    pop.catVal[i] = Float64Array.from(ci, (c) => catCount.get(c)!);
    pop.catNorm[i] = Math.sqrt(ci.reduce((s, c) => s + catCount.get(c)! ** 2, 0));
    const ts = termLists[i]!.filter((t) => pop.termIdf[t]! > 0).sort((a, b) => a - b);
    pop.terms[i] = Int32Array.from(ts);
    pop.termNorm[i] = Math.sqrt(ts.reduce((s, t) => s + pop.termIdf[t]! ** 2, 0));
  }
  return pop;
}
