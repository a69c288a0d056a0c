// Installs of one company with their evidence, and the truth behind each one.
// True stack: per category, adopt with the segment's rate × a company factor, pick the
// product from the segment's favourites (or the segment's suite ecosystem). Noise:
// churned tools (switched away; evidence stopped), weak single-hit mentions, and tools in
// use whose evidence is sparse. The evidence distributions of the classes overlap, so
// P(in use | evidence) is learnable but not trivial — see docs/demo-world.md.
import type { Catalog } from './catalog.ts';
import type { Company } from './companies.ts';
import { rngFor, type Rng } from './rng.ts';

export type InstallKind = 'active' | 'active_sparse' | 'churned' | 'weak_mention';

export interface Install {
  product: number;
  firstVerified: number;
  lastVerified: number;
  hitCount: number;
  intensity: number;
  sources: string[];
  inUse: boolean;
  kind: InstallKind;
}

export interface StackContext {
  seed: string;
  asOfMs: number;
  catalog: Catalog;
  /** leaf index of every product */
  productLeaf: Int32Array;
  /** vendor id → (leaf index → product index), for ecosystem picks */
  vendorLeafProduct: Map<string, Map<number, number>>;
}

const SOURCES = ['website', 'job_posting', 'dns', 'partner_data', 'social', 'press'] as const;
const DAY = 86_400_000;
const WINDOW_DAYS = 1826; // five years of evidence
const TIER_MEDIAN = { small: 11, mid: 170, large: 1500, enterprise: 22_000 } as const;

export function buildStackContext(seed: string, asOfMs: number, catalog: Catalog): StackContext {
  const leafIndex = new Map(catalog.leaves.map((l, i) => [l.id, i]));
  const productLeaf = new Int32Array(catalog.products.length);
  const vendorLeafProduct = new Map<string, Map<number, number>>();
  catalog.products.forEach((p, i) => {
    const li = leafIndex.get(p.categoryId)!;
    productLeaf[i] = li;
    let m = vendorLeafProduct.get(p.vendorId);
    if (!m) vendorLeafProduct.set(p.vendorId, (m = new Map()));
    if (!m.has(li)) m.set(li, i);
  });
  return { seed, asOfMs, catalog, productLeaf, vendorLeafProduct };
}

/** Leaf index of a product index of the catalog (productLeaf has one entry per product). */
function leafOf(ctx: StackContext, product: number): number {
  return ctx.productLeaf[product]!;
}

export function generateStack(ctx: StackContext, company: Company): Install[] {
  const rng = rngFor(ctx.seed, 'stack', company.index);
  const seg = company.segment;
  const leaves = ctx.catalog.leaves;
  const factor = Math.pow(company.employees / TIER_MEDIAN[seg.tier], 0.15) * rng.logNormal(1, 0.25);
  const eco = seg.ecosystemVendorId && rng.chance(0.45 + 0.2 * company.scale01) ? ctx.vendorLeafProduct.get(seg.ecosystemVendorId) : undefined;
  const sparseShare = 0.12 + 0.16 * (1 - company.scale01) + (seg.maturity === 'laggard' ? 0.05 : 0);
  const out = new Map<number, Install>();
  const put = (product: number, kind: InstallKind, inUse: boolean) => {
    if (!out.has(product)) out.set(product, evidence(rng, ctx, company, product, kind, inUse));
  };
  // The segment has one choice per leaf. A leaf without products draws nothing, but the
  // draw is still taken, so every later number of the stream stays where it was.
  const draw = (li: number): number | undefined => {
    const { products, cumulative } = seg.choices[li]!;
    const u = rng.next();
    let j = 0;
    while (j < cumulative.length - 1 && cumulative[j]! <= u) j++;
    return products[j];
  };
  // For a leaf known to have products (the loop below skips the others).
  const drawStocked = (li: number): number => {
    const product = draw(li);
    if (product === undefined) throw new Error(`generateStack: leaf ${li} of segment ${seg.id} has no products to draw`);
    return product;
  };
  for (let li = 0; li < leaves.length; li++) {
    if (seg.choices[li]!.products.length === 0) continue;
    const q = Math.min(0.97, seg.rates[li]! * factor);
    if (rng.next() < q) {
      const ecoProduct = eco?.get(li);
      const main = ecoProduct !== undefined && rng.chance(0.6) ? ecoProduct : drawStocked(li);
      put(main, rng.chance(sparseShare) ? 'active_sparse' : 'active', true);
      if (rng.chance(0.08)) {
        const second = drawStocked(li);
        if (second !== main) put(second, rng.chance(0.5) ? 'active_sparse' : 'active', true);
      }
      if (rng.chance(0.16)) {
        const previous = drawStocked(li);
        if (previous !== main) put(previous, 'churned', false);
      }
    } else if (rng.next() < q * 0.1) {
      put(drawStocked(li), 'churned', false); // dropped the whole category
    }
  }
  // Weak mentions: a job ad or a page names a product; sometimes a team really uses it.
  const mentions = rng.poisson(2.4 + 3 * company.scale01);
  for (let k = 0; k < mentions; k++) {
    // (A leaf without products draws nothing: the technology catalog does not cover every category.)
    const product = rng.chance(0.5) ? draw(rng.int(0, leaves.length - 1)) : rng.int(0, ctx.catalog.products.length - 1);
    if (product === undefined || seg.choices[leafOf(ctx, product)]!.products.length === 0) continue;
    put(product, 'weak_mention', rng.chance(0.2));
  }
  // A technology in use brings what it implies (a WordPress theme runs on WordPress): the truth is closed under `implies`.
  for (const inst of [...out.values()]) {
    if (!inst.inUse) continue;
    for (const implied of ctx.catalog.implies[inst.product] ?? []) put(implied, inst.kind, true);
  }
  return [...out.values()].sort((a, b) => a.product - b.product);
}

function evidence(rng: Rng, ctx: StackContext, company: Company, product: number, kind: InstallKind, inUse: boolean): Install {
  const s = company.scale01;
  let lastAge: number;
  let span: number;
  let hits: number;
  let intensity: number;
  let nSources: number;
  switch (kind) {
    case 'active': {
      const r = rng.next();
      lastAge = r < 0.7 ? rng.exp(12) : r < 0.92 ? rng.uniform(30, 180) : rng.uniform(180, 540);
      span = rng.uniform(14, WINDOW_DAYS);
      hits = 2 + Math.round(rng.logNormal(8 + 40 * s * s, 0.7) * Math.sqrt(span / 365));
      intensity = 38 + 35 * s + 14 * rng.normal();
      nSources = 2 + (rng.chance(0.45) ? 1 : 0) + (rng.chance(0.15) ? 1 : 0);
      break;
    }
    case 'active_sparse': {
      const r = rng.next();
      lastAge = r < 0.4 ? rng.uniform(0, 90) : r < 0.8 ? rng.uniform(90, 365) : rng.uniform(365, 720);
      hits = 1;
      while (hits < 6 && rng.chance(0.55)) hits++;
      span = hits === 1 ? 0 : rng.uniform(7, 400);
      intensity = 18 + 8 * rng.normal();
      nSources = rng.chance(0.75) ? 1 : 2;
      break;
    }
    case 'churned': {
      lastAge = rng.chance(0.15) ? rng.uniform(60, 365) : rng.uniform(365, 1700);
      span = rng.uniform(90, 1200);
      hits = 1 + Math.round(rng.logNormal(8, 0.7));
      intensity = 30 + 14 * rng.normal();
      nSources = rng.int(1, 3);
      break;
    }
    case 'weak_mention': {
      lastAge = rng.uniform(0, 1500);
      hits = rng.chance(0.75) ? 1 : 2;
      span = hits === 1 ? 0 : rng.uniform(1, 200);
      intensity = rng.uniform(1, 15);
      nSources = 1;
      break;
    }
  }
  lastAge = Math.min(lastAge, WINDOW_DAYS - 1);
  const firstAge = Math.min(WINDOW_DAYS, lastAge + span);
  const lastVerified = ctx.asOfMs - Math.round(lastAge * DAY) - rng.int(0, 86_399) * 1000;
  let firstVerified = ctx.asOfMs - Math.round(firstAge * DAY) - rng.int(0, 86_399) * 1000;
  if (span === 0 || firstVerified > lastVerified) firstVerified = lastVerified;
  const leaf = ctx.catalog.leaves[leafOf(ctx, product)]!;
  const sources = pickSources(rng, leaf.sources, kind === 'weak_mention' ? ['job_posting', 'website', 'social', 'press'] : null, nSources);
  return {
    product,
    firstVerified,
    lastVerified,
    hitCount: Math.max(1, hits),
    intensity: Math.max(0, Math.min(100, Math.round(intensity))),
    sources,
    inUse,
    kind,
  };
}

function pickSources(rng: Rng, primary: string[], override: string[] | null, n: number): string[] {
  const first = override ? rng.pick(override) : rng.pick(primary.length ? primary : ['website']);
  const set = new Set([first]);
  for (let guard = 0; set.size < n && guard < 20; guard++) set.add(rng.chance(0.6) && primary.length ? rng.pick(primary) : rng.pick(SOURCES));
  return SOURCES.filter((s) => set.has(s));
}
