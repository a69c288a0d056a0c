// Builds the catalog of the demo world from the real technology catalog
// (catalog/technologies/*.json, the detector's rules): categories from the outline, one demo
// product per technology in the leaf category its rule names, vendors grouped by the company
// that sells them. Vendors with many products are the suites whole segments standardise on;
// popularity inside a category stays a seeded Zipf draw, so the world's structure is the same
// for any catalog.
import { parseOutline, type Category } from './outline.ts';
import { FEATURES, GENERIC_FEATURES } from './catalog-text.ts';
import { rngFor, type Rng } from './rng.ts';
import { slugify } from '../../slug.ts';
import type { ScalePreset } from './scale.ts';
import type { TechnologyInfo } from '../../detect/catalog.ts';

export { parseOutline, type Category } from './outline.ts';

type VendorKind = 'suite' | 'multi' | 'specialist';

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
  /** Index of the technology (in the detector's catalog) this product is. */
  technology: number;
}

export interface Catalog {
  categories: Category[];
  leaves: Category[];
  vendors: Vendor[];
  products: Product[];
  productsByLeaf: Map<string, Product[]>;
  categoryById: Map<string, Category>;
  vendorById: Map<string, Vendor>;
  /** Technology index → product index (-1: the technology has no demo product). */
  productOfTechnology: Int32Array;
  /** Product index → the products its technology implies (a WordPress plugin implies WordPress). */
  implies: number[][];
}

/** The leaf category a technology's product sits in: its first leaf category, else the first leaf under its main one. */
function leafOf(tech: TechnologyInfo, categories: Category[]): Category | undefined {
  const byName = new Map(categories.map((c) => [c.name, c]));
  for (const name of tech.categories) {
    const c = byName.get(name);
    if (c?.leaf) return c;
  }
  const main = byName.get(tech.category);
  if (!main) return undefined;
  const under = (c: Category): boolean => c.parentId === main.id || (c.parentId !== null && under(categories.find((p) => p.id === c.parentId)!));
  return categories.find((c) => c.leaf && under(c));
}

/**
 * The demo catalog: every technology of `technologies` becomes a product (its name, vendor,
 * website and description). The scale preset no longer sizes the catalog (the technology
 * catalog does); it still sets the world's density (segments.ts, people, news).
 */
export function buildCatalog(seed: string, _scale: ScalePreset, technologies: readonly TechnologyInfo[]): Catalog {
  const rng = rngFor(seed, 'catalog', 0);
  const categories = parseOutline();
  const leaves = categories.filter((c) => c.leaf);
  const categoryById = new Map(categories.map((c) => [c.id, c]));

  // Vendors: the selling company (rule field `vendor`); its domain is the vendorDomain its
  // technologies name — the vendor's own, one per vendor in the built-in catalog
  // (test/detect/catalog-vendors.test.ts). The tally and the fallback only serve a catalog that
  // disagrees with itself (vendors.domain is unique, so a taken one falls to the next).
  const placed = technologies.map((t, i) => ({ t, i, leaf: leafOf(t, categories) })).filter((x) => x.leaf !== undefined);
  const groups = new Map<string, typeof placed>();
  for (const x of placed) {
    const list = groups.get(x.t.vendor);
    if (list) list.push(x);
    else groups.set(x.t.vendor, [x]);
  }
  const vendors: Vendor[] = [];
  const vendorOf = new Map<string, Vendor>();
  const usedDomains = new Set<string>();
  const usedVendorIds = new Set<string>();
  const order = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  for (const [name, list] of order) {
    const tally = new Map<string, number>();
    for (const x of list) if (x.t.vendorDomain) tally.set(x.t.vendorDomain, (tally.get(x.t.vendorDomain) ?? 0) + 1);
    const candidates = [...tally.entries()].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || a[0].localeCompare(b[0])).map(([d]) => d);
    let domain = candidates.find((d) => !usedDomains.has(d)) ?? `${slugify(name, '')}.vendors.stacklens.example`;
    for (let n = 2; usedDomains.has(domain); n++) domain = `${slugify(name, '')}-${n}.vendors.stacklens.example`;
    usedDomains.add(domain);
    let id = `ven_${slugify(name, '_')}`;
    for (let n = 2; usedVendorIds.has(id); n++) id = `ven_${slugify(name, '_')}_${n}`;
    usedVendorIds.add(id);
    const kind: VendorKind = list.length >= 5 ? 'suite' : list.length >= 2 ? 'multi' : 'specialist';
    const tops = [...new Set(list.map((x) => categoryById.get(x.leaf!.topId)!.name.toLowerCase()))];
    const vendor: Vendor = {
      id,
      domain,
      name,
      website: `https://www.${domain.replace(/^www\./, '')}`,
      logoUrl: `https://logos.stacklens.example/${domain}.png`,
      description:
        kind === 'specialist'
          ? `${name} makes ${list[0]!.t.name}: ${tops[0]} software.`
          : `${name} sells ${list.length} products in ${tops.slice(0, 3).join(', ')}${tops.length > 3 ? ' and more' : ''}.`,
      kind,
    };
    vendors.push(vendor);
    vendorOf.set(name, vendor);
  }

  // Products, in catalog order (a stable id per technology name).
  const products: Product[] = [];
  const productsByLeaf = new Map<string, Product[]>(leaves.map((l) => [l.id, []]));
  const productOfTechnology = new Int32Array(technologies.length).fill(-1);
  const usedIds = new Set<string>();
  for (const { t, i, leaf } of placed) {
    const v = vendorOf.get(t.vendor)!;
    let id = `prd_${slugify(t.name, '_')}`;
    for (let n = 2; usedIds.has(id); n++) id = `prd_${slugify(t.name, '_')}_${n}`;
    usedIds.add(id);
    const avg = Math.round(Math.min(4.9, Math.max(2.8, rng.normal() * 0.35 + 4.25)) * 10) / 10;
    const product: Product = {
      id,
      vendorId: v.id,
      categoryId: leaf!.id,
      name: t.name,
      shortName: t.name,
      description: t.description ?? describeProduct(rng, t.name, v.name, leaf!),
      features: pickFeatures(rng, leaf!, categoryById),
      reviewCount: 0,
      starRating: Math.round(avg * 2) / 2,
      avgRating: avg,
      imageUrl: `https://logos.stacklens.example/products/${slugify(t.name)}.png`,
      productUrl: t.website ?? v.website,
      publicDetailUrl: `https://stacklens.example/catalog/products/${id}`,
      popularity: 0,
      technology: i,
    };
    productOfTechnology[i] = products.length;
    products.push(product);
    productsByLeaf.get(leaf!.id)!.push(product);
  }
  // Zipf-like popularity inside each category; suites get a head start.
  const vendorById = new Map(vendors.map((v) => [v.id, v]));
  for (const leaf of leaves) {
    const list = productsByLeaf.get(leaf.id)!;
    const ranked = rng.sample(list, list.length);
    ranked.forEach((p, rank) => {
      const suiteBoost = vendorById.get(p.vendorId)!.kind === 'suite' ? 1.6 : 1;
      p.popularity = suiteBoost / Math.pow(rank + 1, 1.1);
      p.reviewCount = Math.round(rng.logNormal(40 + 2500 * (leaf.rate + 0.02) * p.popularity, 0.6));
    });
  }
  const implies = products.map((p) =>
    technologies[p.technology]!.implies.filter(([, weight]) => weight >= 0.5)
      .map(([t]) => productOfTechnology[t]!)
      .filter((i) => i >= 0),
  );
  return { categories, leaves, vendors, products, productsByLeaf, categoryById, vendorById, productOfTechnology, implies };
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
