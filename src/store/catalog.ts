// SQL for prompt understanding: the catalog the parser reads (products, vendors, categories,
// industries), cached in process per database, and the companies a prompt may name; and the
// product labels (name, category, vendor) that usage and comparison answers show and the
// category chains (parent, top category) of a company's products, cached alike.
// The cache is checked against the reference version (bumped by triggers on the four tables)
// at most every `maxAgeMs`, so an import shows up without a restart while
// requests do not reload thousands of products each time. Writers may also call
// invalidatePromptCatalog(db) to drop it at once.
import type { Db } from '../db/db.ts';
import { Params } from '../db/sql.ts';
import { now } from '../clock.ts';
import { readReferenceVersion } from './reference-version.ts';
import type { CatalogCompany, PromptCatalog } from '../intelligence/prompt/schema.ts';

interface CacheEntry {
  /** The reference version (migration 015) the value was read at. */
  version: number;
  checkedAt: number;
  value: unknown;
}

/** Per database, per cached reference read (its name): the value and the read in flight. */
const cache = new WeakMap<Db, Map<string, CacheEntry>>();
const inflight = new WeakMap<Db, Map<string, Promise<unknown>>>();

function perDb<V>(map: WeakMap<Db, Map<string, V>>, db: Db): Map<string, V> {
  let m = map.get(db);
  if (!m) map.set(db, (m = new Map()));
  return m;
}

/**
 * A read of reference data kept in process: returns the same object while the reference
 * version is unchanged, probing the version when the value is older than `maxAgeMs` (0:
 * on every call). Concurrent callers share one probe and one read. The version is read
 * before the data, so data newer than its label only causes one more read later, never a
 * stale answer kept as current.
 */
async function byReferenceVersion<T>(db: Db, name: string, read: (db: Db) => Promise<T>, maxAgeMs: number): Promise<T> {
  const entries = perDb(cache, db);
  const hit = entries.get(name);
  if (hit && maxAgeMs > 0 && now() - hit.checkedAt < maxAgeMs) return hit.value as T;
  const pending = perDb(inflight, db);
  const running = pending.get(name);
  if (running) return running as Promise<T>;
  const load = (async () => {
    const version = await readReferenceVersion(db);
    const current = entries.get(name);
    if (current && current.version === version) {
      current.checkedAt = now();
      return current.value as T;
    }
    const value = await read(db);
    entries.set(name, { version, checkedAt: now(), value });
    return value;
  })();
  pending.set(name, load);
  try {
    return await load;
  } finally {
    pending.delete(name);
  }
}

/** How long a loaded prompt catalog is trusted before the reference version is checked again. */
const CATALOG_MAX_AGE_MS = 2000;

async function readCatalog(db: Db): Promise<PromptCatalog> {
  return {
    products: await db.query<PromptCatalog['products'][number]>(
      'SELECT id, name, short_name AS "shortName", aliases, vendor_id AS "vendorId", category_id AS "categoryId" FROM products ORDER BY id',
    ),
    vendors: await db.query<PromptCatalog['vendors'][number]>('SELECT id, domain, name FROM vendors ORDER BY id'),
    categories: await db.query<PromptCatalog['categories'][number]>('SELECT id, name, parent_id AS "parentId" FROM categories ORDER BY id'),
    industries: await db.query<PromptCatalog['industries'][number]>('SELECT id, name FROM industries ORDER BY id'),
  };
}

/**
 * The catalog for the prompt parser. Returns the same object while the data is unchanged,
 * which also keeps the parser's compiled index (cached per catalog object) warm.
 */
export function loadPromptCatalog(db: Db, options: { maxAgeMs?: number } = {}): Promise<PromptCatalog> {
  return byReferenceVersion(db, 'prompt-catalog', readCatalog, options.maxAgeMs ?? CATALOG_MAX_AGE_MS);
}

/** What an in-use stack shows of each product: its name, category and vendor. */
export interface ProductLabel {
  productId: string;
  productName: string;
  categoryId: string;
  categoryName: string;
  vendorId: string;
  vendorDomain: string;
}

async function readProductLabels(db: Db): Promise<Map<string, ProductLabel>> {
  const rows = await db.queryArrays<[string, string, string, string, string, string]>(
    `SELECT p.id, p.name, p.category_id, c.name, v.id, v.domain
       FROM products p JOIN categories c ON c.id = p.category_id JOIN vendors v ON v.id = p.vendor_id`,
  );
  const labels = new Map<string, ProductLabel>();
  for (const [productId, productName, categoryId, categoryName, vendorId, vendorDomain] of rows) {
    labels.set(productId, { productId, productName, categoryId, categoryName, vendorId, vendorDomain });
  }
  return labels;
}

/**
 * Every product's label, by id, checked against the reference version on every call (one
 * one-row read): usage and comparison answers name ~300 products, which cost 1 ms of
 * PostgreSQL per request when read with the stacks.
 */
export function loadProductLabels(db: Db): Promise<Map<string, ProductLabel>> {
  return byReferenceVersion(db, 'product-labels', readProductLabels, 0);
}

/** A category with its place in the tree: its parent, and the top category above it (itself at the top). */
export interface CategoryChain {
  id: string;
  name: string;
  parentId: string | null;
  parentName: string | null;
  /** The top ancestor; the category itself when it is a top category or is not under one (a parent cycle). */
  rootId: string;
  rootName: string;
}

async function readCategoryChains(db: Db): Promise<Map<string, CategoryChain>> {
  const rows = await db.queryArrays<[string, string, string | null]>('SELECT id, name, parent_id FROM categories');
  const byId = new Map(rows.map(([id, name, parentId]) => [id, { name, parentId }]));
  const chains = new Map<string, CategoryChain>();
  for (const [id, name, parentId] of rows) {
    // Walk up to the top; a walk that comes back to a category it passed is a cycle: no top.
    let top: string | null = id;
    const seen = new Set<string>();
    for (let at: string | null = id; at !== null; at = byId.get(at)?.parentId ?? null) {
      if (seen.has(at)) {
        top = null;
        break;
      }
      seen.add(at);
      top = at;
    }
    const root = top ?? id;
    chains.set(id, { id, name, parentId, parentName: parentId ? (byId.get(parentId)?.name ?? null) : null, rootId: root, rootName: byId.get(root)!.name });
  }
  return chains;
}

/**
 * Every category's chain (parent and top category), by id, checked against the reference
 * version on every call (one one-row read, shared by concurrent callers): a company's
 * products name the three levels of each product's category, which the page query would
 * otherwise recompute over the whole tree for every page.
 */
export function loadCategoryChains(db: Db): Promise<Map<string, CategoryChain>> {
  return byReferenceVersion(db, 'category-chains', readCategoryChains, 0);
}

/** Drops the cached reference reads of a database (after an import or a catalog edit). */
export function invalidatePromptCatalog(db: Db): void {
  cache.delete(db);
}

const LEGAL_SUFFIX = String.raw`(,?\s+(inc|incorporated|llc|ltd|limited|gmbh|ag|corp|corporation|co|company|plc|sa|sas|bv|nv|srl|spa|oy|ab|pty|group|holdings)\.?)?`;

/** A case-insensitive anchored regex matching a company name as written, legal suffix optional. */
export function companyNamePattern(phrase: string): string {
  const escaped = phrase
    .trim()
    .replace(/[\\.^$|?*+()[\]{}]/g, (c) => `\\${c}`)
    .replace(/\s+/g, String.raw`\s+`);
  return `^${escaped}${LEGAL_SUFFIX}$`;
}

/**
 * Companies a prompt may name: those whose domain is one of `domains`, or whose name equals
 * one of `phrases` (any case, legal suffix optional). At most 5 per phrase and 100 in all.
 * One sub-select per phrase, each with its pattern as a parameter: planned with the value,
 * PostgreSQL then uses the trigram index on companies.name (a pattern taken from an
 * unnest() inside a LATERAL join was planned as a sequential scan).
 */
export async function findPromptCompanies(db: Db, candidates: { domains: string[]; phrases: string[] }): Promise<CatalogCompany[]> {
  const domains = [...new Set(candidates.domains)].slice(0, 50);
  const patterns = [...new Set(candidates.phrases.filter((p) => p.trim().length >= 3).map(companyNamePattern))].slice(0, 60);
  if (domains.length === 0 && patterns.length === 0) return [];
  const p = new Params();
  const parts = [
    `(SELECT id, domain, name FROM companies WHERE domain = ANY(${p.add(domains, 'text[]')}))`,
    ...patterns.map((pattern) => `(SELECT id, domain, name FROM companies WHERE name ~* ${p.add(pattern, 'text')} LIMIT 5)`),
  ];
  const rows = await db.query<{ id: string; domain: string; name: string | null }>(
    `SELECT DISTINCT ON (c.id) c.id, c.domain, c.name FROM (${parts.join(' UNION ALL ')}) c ORDER BY c.id LIMIT 100`,
    p.values,
  );
  return rows.map((r) => ({ id: r.id, domain: r.domain, name: r.name }));
}
