// Builds the catalog of the demo world: categories from the outline, then vendors and
// products. Suite vendors sell across many categories, specialists in one or two;
// categories get crowded or stay niche in proportion to how widely they are adopted.
import { CATEGORY_OUTLINE } from './catalog-data.ts';
import { FEATURES, GENERIC_FEATURES } from './catalog-text.ts';
import { rngFor, slugify, type Rng } from './rng.ts';
import type { ScalePreset } from './scale.ts';

export interface Category {
  id: string;
  name: string;
  parentId: string | null;
  level: number;
  topId: string;
  leaf: boolean;
  /** Base adoption rate (leaves only). */
  rate: number;
  modern: boolean;
  legacy: boolean;
  enterprise: boolean;
  small: boolean;
  /** Industry-specific: only these industry ids adopt it. */
  only: Set<string> | null;
  boosted: Set<string>;
  sources: string[];
  nouns: string[];
}

export type VendorKind = 'suite' | 'multi' | 'specialist';

export interface Vendor {
  id: string;
  domain: string;
  name: string;
  website: string;
  logoUrl: string;
  description: string;
  kind: VendorKind;
}

export interface Product {
  id: string;
  vendorId: string;
  categoryId: string;
  name: string;
  shortName: string;
  description: string;
  features: string[];
  reviewCount: number;
  starRating: number;
  avgRating: number;
  imageUrl: string;
  productUrl: string;
  publicDetailUrl: string;
  /** Relative popularity inside its category (drives segment preferences). */
  popularity: number;
}

export interface Catalog {
  categories: Category[];
  leaves: Category[];
  vendors: Vendor[];
  products: Product[];
  productsByLeaf: Map<string, Product[]>;
  categoryById: Map<string, Category>;
  vendorById: Map<string, Vendor>;
}

export function parseOutline(outline = CATEGORY_OUTLINE): Category[] {
  const out: Category[] = [];
  const stack: Category[] = [];
  const used = new Set<string>();
  for (const raw of outline.split('\n')) {
    if (!raw.trim()) continue;
    const level = (raw.length - raw.trimStart().length) / 2;
    const [name, ...parts] = raw.trim().split(';').map((s) => s.trim());
    let id = `cat_${slugify(name, '_')}`;
    for (let n = 2; used.has(id); n++) id = `cat_${slugify(name, '_')}_${n}`;
    used.add(id);
    const parent = level > 0 ? stack[level - 1] : undefined;
    const cat: Category = {
      id, name, parentId: parent?.id ?? null, level, topId: parent?.topId ?? id, leaf: true, rate: 0,
      modern: false, legacy: false, enterprise: false, small: false, only: null, boosted: new Set(),
      sources: parent?.sources ?? [], nouns: [name],
    };
    for (const part of parts) {
      if (/^[\d.]+$/.test(part)) cat.rate = Number(part);
      else if (part.startsWith('i=')) cat.only = new Set(part.slice(2).split('/').map((s) => `ind_${s}`));
      else if (part.startsWith('x=')) cat.boosted = new Set(part.slice(2).split('/').map((s) => `ind_${s}`));
      else if (part.startsWith('src=')) cat.sources = part.slice(4).split('/');
      else if (part.startsWith('n=')) cat.nouns = part.slice(2).split('/');
      else for (const flag of part.split(/\s+/)) {
        if (flag === 'm') cat.modern = true;
        else if (flag === 'l') cat.legacy = true;
        else if (flag === 'E') cat.enterprise = true;
        else if (flag === 'S') cat.small = true;
      }
    }
    if (parent) parent.leaf = false;
    stack[level] = cat;
    stack.length = level + 1;
    out.push(cat);
  }
  return out;
}

const VENDOR_HEADS = 'Bright Clear Blue Zen Nova Apex Core Flux Lumen Vertex Quant Hyper Omni Pulse Signal Stack Swift True Iron Silver North Sky Peak Orbit Helix Vector Cobalt Ember Harbor Meridian Nimbus Onyx Pioneer Quartz Rapid Sage Summit Tidal Urban Vivid Willow Zephyr Atlas Beacon Cedar Delta Echo Falcon Granite Juniper Kinetic Lattice Maple Nexus Opal Prism Radiant Sierra Terra Velvet'.split(' ');
const VENDOR_TAILS = 'ly io ify wave path point base forge flow desk hub loop scale stream works sight mint grid spark shift logic bit sphere nest yard field craft line gate ware cast lane mark dock pilot'.split(' ');
const VENDOR_SUFFIX = ['', '', '', '', ' Software', ' Technologies', ' Labs', ' Systems', ' Inc.', ' Cloud'];
const VENDOR_TLDS = ['com', 'com', 'com', 'com', 'com', 'com', 'io', 'io', 'ai', 'co'];
const EDITIONS = ['Pro', 'Enterprise', 'Essentials', 'Plus', 'Express', 'Cloud'];

export function buildCatalog(seed: string, scale: ScalePreset): Catalog {
  const rng = rngFor(seed, 'catalog', 0);
  const categories = parseOutline();
  const leaves = categories.filter((c) => c.leaf);
  const tops = categories.filter((c) => c.level === 0);
  const categoryById = new Map(categories.map((c) => [c.id, c]));

  // Vendors: unique coined names and domains.
  const vendors: Vendor[] = [];
  const homeTop = new Map<string, string>();
  const usedSlugs = new Set<string>();
  const leafCountByTop = tops.map((t) => leaves.filter((l) => l.topId === t.id).length);
  while (vendors.length < scale.vendors) {
    const stem = rng.pick(VENDOR_HEADS) + rng.pick(VENDOR_TAILS);
    const slug = slugify(stem, '');
    if (usedSlugs.has(slug)) continue;
    usedSlugs.add(slug);
    const i = vendors.length;
    const kind: VendorKind = i < scale.vendors * 0.05 ? 'suite' : i < scale.vendors * 0.3 ? 'multi' : 'specialist';
    const name = stem + (kind === 'specialist' ? '' : rng.pick(VENDOR_SUFFIX));
    const domain = `${slug}.${rng.pick(VENDOR_TLDS)}`;
    const top = tops[rng.weighted(leafCountByTop)];
    homeTop.set(`ven_${slug}`, top.id);
    vendors.push({
      id: `ven_${slug}`, domain, name, website: `https://www.${domain}`, logoUrl: `https://logos.stacklens.example/${domain}.png`,
      description: kind === 'suite'
        ? `${name} builds business software used by companies of every size, from ${top.name.toLowerCase()} to collaboration and analytics.`
        : `${name} makes ${top.name.toLowerCase()} software for teams that want to move faster.`,
      kind,
    });
  }

  // Product slots: (vendor, leaf) pairs.
  const slots: Array<[Vendor, Category]> = [];
  const pairCount = new Map<string, number>();
  const perLeaf = new Map<string, number>();
  const add = (v: Vendor, leaf: Category) => {
    const key = `${v.id}|${leaf.id}`;
    const n = pairCount.get(key) ?? 0;
    if (n >= 2) return false;
    pairCount.set(key, n + 1);
    perLeaf.set(leaf.id, (perLeaf.get(leaf.id) ?? 0) + 1);
    slots.push([v, leaf]);
    return true;
  };
  const leafWeight = (l: Category) => Math.pow(l.rate + 0.02, 0.8);
  const leavesOf = (topId: string) => leaves.filter((l) => l.topId === topId);
  for (const v of vendors) {
    const home = leavesOf(homeTop.get(v.id)!);
    if (v.kind === 'suite') {
      for (const l of weightedSample(rng, leaves, leafWeight, rng.int(12, 30))) add(v, l);
    } else if (v.kind === 'multi') {
      for (const l of rng.sample(home, rng.int(3, 7))) add(v, l);
      if (rng.chance(0.4)) add(v, rng.pick(leaves));
    } else {
      for (const l of rng.sample(home, rng.chance(0.7) ? 1 : rng.int(2, 3))) add(v, l);
    }
  }
  // Every category gets at least two rivals, then fill to the target crowding.
  const vendorsByTop = new Map(tops.map((t) => [t.id, vendors.filter((v) => homeTop.get(v.id) === t.id && v.kind !== 'suite')]));
  const suites = vendors.filter((v) => v.kind === 'suite');
  const pickVendor = (leaf: Category) => {
    const local = vendorsByTop.get(leaf.topId)!;
    return rng.chance(0.15) || local.length === 0 ? rng.pick(suites) : rng.pick(local);
  };
  for (const leaf of leaves) for (let guard = 0; (perLeaf.get(leaf.id) ?? 0) < 2 && guard < 50; guard++) add(pickVendor(leaf), leaf);
  const weights = leaves.map((l) => leafWeight(l) * rng.uniform(0.5, 1.5));
  for (let guard = 0; slots.length < scale.products && guard < scale.products * 20; guard++) {
    const leaf = leaves[rng.weighted(weights)];
    add(pickVendor(leaf), leaf);
  }

  // Products from slots.
  const products: Product[] = [];
  const productsByLeaf = new Map<string, Product[]>(leaves.map((l) => [l.id, []]));
  const usedIds = new Set<string>();
  const seenNames = new Set<string>();
  for (const [v, leaf] of slots) {
    const noun = rng.pick(leaf.nouns);
    const vendorStem = v.name.replace(/ (Software|Technologies|Labs|Systems|Inc\.|Cloud)$/, '');
    let name = v.kind === 'specialist' && rng.chance(0.35) ? vendorStem : `${vendorStem} ${noun}`;
    while (seenNames.has(name.toLowerCase())) name = `${name} ${rng.pick(EDITIONS)}`;
    seenNames.add(name.toLowerCase());
    let id = `prd_${slugify(name, '_')}`;
    for (let n = 2; usedIds.has(id); n++) id = `prd_${slugify(name, '_')}_${n}`;
    usedIds.add(id);
    const avg = Math.round(Math.min(4.9, Math.max(2.8, rng.normal() * 0.35 + 4.25)) * 10) / 10;
    const product: Product = {
      id, vendorId: v.id, categoryId: leaf.id, name, shortName: name === vendorStem ? vendorStem : noun,
      description: describeProduct(rng, name, v.name, leaf),
      features: pickFeatures(rng, leaf, categoryById),
      reviewCount: 0, starRating: Math.round(avg * 2) / 2, avgRating: avg,
      imageUrl: `https://www.${v.domain}/assets/${slugify(name)}-logo.png`,
      productUrl: `https://www.${v.domain}/products/${slugify(noun)}`,
      publicDetailUrl: `https://stacklens.example/catalog/products/${id}`,
      popularity: 0,
    };
    products.push(product);
    productsByLeaf.get(leaf.id)!.push(product);
  }
  // Zipf-like popularity inside each category; suites get a head start.
  const vendorById = new Map(vendors.map((v) => [v.id, v]));
  for (const leaf of leaves) {
    const list = productsByLeaf.get(leaf.id)!;
    const order = rng.sample(list, list.length);
    order.forEach((p, rank) => {
      const suiteBoost = vendorById.get(p.vendorId)!.kind === 'suite' ? 1.6 : 1;
      p.popularity = suiteBoost / Math.pow(rank + 1, 1.1);
      p.reviewCount = Math.round(rng.logNormal(40 + 2500 * (leaf.rate + 0.02) * p.popularity, 0.6));
    });
  }
  return { categories, leaves, vendors, products, productsByLeaf, categoryById, vendorById };
}

function weightedSample<T>(rng: Rng, items: T[], weight: (t: T) => number, k: number): T[] {
  // Efraimidis-Spirakis: key = u^(1/w), keep the k largest.
  return items
    .map((t) => ({ t, key: Math.pow(rng.next(), 1 / Math.max(1e-6, weight(t))) }))
    .sort((a, b) => b.key - a.key)
    .slice(0, k)
    .map((x) => x.t);
}

function describeProduct(rng: Rng, name: string, vendor: string, leaf: Category): string {
  const what = leaf.name.toLowerCase();
  const lines = [
    `${name} is ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what} solution from ${vendor}.`,
    rng.pick([
      `It helps teams cut manual work and see what matters in one place.`,
      `Built for growing companies, it connects to the tools they already use.`,
      `It scales from a single team to global enterprises with strict security needs.`,
      `Customers use it to standardize processes and report on results in real time.`,
    ]),
  ];
  return lines.join(' ');
}

function pickFeatures(rng: Rng, leaf: Category, byId: Map<string, Category>): string[] {
  const top = byId.get(leaf.topId)!;
  const pool = [...(FEATURES[top.name] ?? []), `${leaf.nouns[0]} API`, `${leaf.name} reporting`];
  const n = rng.int(3, 8);
  const chosen = rng.sample(pool, Math.min(n - 1, pool.length));
  while (chosen.length < n) {
    const g = rng.pick(GENERIC_FEATURES);
    if (!chosen.includes(g)) chosen.push(g);
  }
  return chosen;
}
