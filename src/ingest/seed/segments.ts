// Hidden segments: industry × size tier × region × tech maturity. Several segments per
// industry, each with its own category adoption rates and product favourites, so a
// company's stack says which segment it is in, but only statistically.
import { COUNTRIES, REGIONS, type Region } from './geo.ts';
import { INDUSTRIES, MATURITIES, SIZE_TIERS, type Industry, type Maturity, type SizeTier } from './industries.ts';
import type { Catalog, Category } from './catalog.ts';
import { rngFor, type Rng } from './rng.ts';
import type { ScalePreset } from './scale.ts';

export interface Segment {
  index: number;
  id: string;
  industry: Industry;
  tier: SizeTier;
  region: Region;
  maturity: Maturity;
  /** Share of all companies in this segment (sums to 1 over segments). */
  share: number;
  /** Adoption probability per leaf category (index into catalog.leaves). */
  rates: Float64Array;
  /** Per leaf: product indexes (into catalog.products) and their cumulative shares. */
  choices: Array<{ products: Int32Array; cumulative: Float64Array }>;
  /** Suite vendor whose products many companies of the segment standardize on. */
  ecosystemVendorId: string | null;
}

/** Share of companies per size tier across the world: most companies are small. */
const TIER_SHARE: Record<SizeTier, number> = { small: 0.5, mid: 0.3, large: 0.14, enterprise: 0.06 };
const TIER_FACTOR: Record<SizeTier, number> = { small: 0.6, mid: 1, large: 1.35, enterprise: 1.8 };
const TIER_FACTOR_ENTERPRISE: Record<SizeTier, number> = { small: 0.15, mid: 0.6, large: 1.4, enterprise: 2 };
const TIER_FACTOR_SMALL: Record<SizeTier, number> = { small: 1.3, mid: 1, large: 0.7, enterprise: 0.5 };
const MATURITY_FACTOR: Record<Maturity, number> = { laggard: 0.8, mainstream: 1, leading: 1.2 };
/** Calibrates the world to about 30 installs per company at scale M. */
const BASE_DENSITY = 1.08;
const MATURITY_MODERN: Record<Maturity, number> = { laggard: 0.35, mainstream: 1, leading: 1.8 };
const MATURITY_LEGACY: Record<Maturity, number> = { laggard: 1.4, mainstream: 1, leading: 0.55 };

/** Country weight of each region, in REGIONS order. */
const REGION_WEIGHT = REGIONS.map((r) => COUNTRIES.filter((c) => c.region === r).reduce((s, c) => s + c.weight, 0));

/** The rate of one category in one segment, before per-segment jitter. */
function categoryRate(cat: Category, industry: Industry, tier: SizeTier, maturity: Maturity): number {
  let q = cat.rate;
  if (cat.only) q *= cat.only.has(industry.id) ? 1 : 0.002;
  else if (cat.boosted.has(industry.id)) q *= 2.5;
  q *= cat.enterprise ? TIER_FACTOR_ENTERPRISE[tier] : cat.small ? TIER_FACTOR_SMALL[tier] : TIER_FACTOR[tier];
  q *= cat.modern ? MATURITY_MODERN[maturity] : cat.legacy ? MATURITY_LEGACY[maturity] : MATURITY_FACTOR[maturity];
  return q;
}

export function buildSegments(seed: string, catalog: Catalog, scale: ScalePreset): Segment[] {
  const segments: Segment[] = [];
  const productIndex = new Map(catalog.products.map((p, i) => [p.id, i]));
  const suites = catalog.vendors.filter((v) => v.kind === 'suite');
  const industryTotal = INDUSTRIES.reduce((s, i) => s + i.weight, 0);
  for (const industry of INDUSTRIES) {
    const rng = rngFor(seed, 'segments', industry.id);
    const k = Math.min(7, Math.max(3, Math.round(2 + industry.weight * 0.8)));
    const combos = new Set<string>();
    const raw: Array<{ tier: SizeTier; region: Region; maturity: Maturity; w: number }> = [];
    for (let tries = 0; raw.length < k && tries < 200; tries++) {
      const tier = rng.pickWeighted(SIZE_TIERS, industry.sizes);
      const region = rng.pickWeighted(REGIONS, REGION_WEIGHT);
      const maturity = rng.pickWeighted(MATURITIES, industry.maturity);
      const key = `${tier}|${region}|${maturity}`;
      if (combos.has(key)) continue;
      combos.add(key);
      raw.push({ tier, region, maturity, w: TIER_SHARE[tier] * REGION_WEIGHT[REGIONS.indexOf(region)]! * rng.uniform(0.5, 1.5) });
    }
    const sum = raw.reduce((s, r) => s + r.w, 0);
    for (const r of raw) {
      const index = segments.length;
      const slug = industry.id.slice(4);
      segments.push({
        index,
        id: `seg_${slug}_${r.tier}_${r.region.toLowerCase()}_${r.maturity}`,
        industry,
        tier: r.tier,
        region: r.region,
        maturity: r.maturity,
        share: (r.w / sum) * (industry.weight / industryTotal),
        ...stackModel(rng, catalog, productIndex, industry, r.tier, r.maturity, scale),
        ecosystemVendorId: suites.length && rng.chance(r.maturity === 'laggard' ? 0.8 : 0.6) ? rng.pick(suites).id : null,
      });
    }
  }
  return segments;
}

function stackModel(
  rng: Rng,
  catalog: Catalog,
  productIndex: Map<string, number>,
  industry: Industry,
  tier: SizeTier,
  maturity: Maturity,
  scale: ScalePreset,
): Pick<Segment, 'rates' | 'choices'> {
  const rates = new Float64Array(catalog.leaves.length);
  const choices: Segment['choices'] = [];
  catalog.leaves.forEach((leaf, li) => {
    const jitter = Math.exp(0.35 * rng.normal());
    rates[li] = Math.min(0.95, categoryRate(leaf, industry, tier, maturity) * jitter * BASE_DENSITY * scale.stackDensity);
    // Favourites: popularity × a segment-specific taste, then the top two are boosted.
    const list = catalog.productsByLeaf.get(leaf.id)!;
    const scored = list.map((p) => ({ i: productIndex.get(p.id)!, w: p.popularity * Math.exp(rng.normal()) }));
    scored.sort((a, b) => b.w - a.w || a.i - b.i);
    if (scored[0]) scored[0].w *= 4;
    if (scored[1]) scored[1].w *= 2;
    const total = scored.reduce((s, x) => s + x.w, 0);
    const products = new Int32Array(scored.length);
    const cumulative = new Float64Array(scored.length);
    let acc = 0;
    scored.forEach((x, j) => {
      acc += x.w / total;
      products[j] = x.i;
      cumulative[j] = acc;
    });
    choices.push({ products, cumulative });
  });
  return { rates, choices };
}

/** Draws the segment of company `index` (its own stream, so cohorts can recompute it). */
export function drawSegment(seed: string, index: number, cumulativeShares: Float64Array): number {
  const total = cumulativeShares[cumulativeShares.length - 1];
  // Without segments the search below would answer 0, an index into nothing.
  if (total === undefined) throw new Error('drawSegment: the world has no segments to draw from');
  const u = rngFor(seed, 'segment-of', index).next() * total;
  let lo = 0;
  let hi = cumulativeShares.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulativeShares[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function cumulativeShares(segments: Segment[]): Float64Array {
  const out = new Float64Array(segments.length);
  let acc = 0;
  segments.forEach((s, i) => (out[i] = acc += s.share));
  return out;
}
