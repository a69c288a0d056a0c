// The catalog compiled for the parser: every product, vendor, category and industry under
// its names and aliases in one Lexicon, plus lookups by id. Compiling costs a few
// milliseconds for thousands of products, so each catalog object is compiled once
// (WeakMap): callers keep the same object while the catalog does not change.
import { Lexicon } from './lexicon.ts';
import { compactOf, GENERIC_WORDS } from './text.ts';
import { INDUSTRY_SYNONYMS } from './vocab.ts';
import type { CatalogCompany, PromptCatalog } from './schema.ts';

export interface CatalogIndex {
  lexicon: Lexicon;
  names: Map<string, string>; // `${type}:${id}` → display name
  vendorDomains: Map<string, string>; // vendor id → domain
}

const cache = new WeakMap<PromptCatalog, CatalogIndex>();

/**
 * Category names without a trailing generic word ("Help Desk Software" → "Help Desk",
 * "CRM Software" → "CRM"). A single remaining word must be an acronym: "Developer Tools"
 * does not make every "developer" a category.
 */
function categoryAliases(name: string): string[] {
  const words = name.split(/\s+/);
  const out: string[] = [];
  while (words.length > 1 && GENERIC_WORDS.has(compactOf(words[words.length - 1]!))) {
    words.pop();
    if (words.length > 1 || /^[A-Z0-9&]{2,}$/.test(words[0]!)) out.push(words.join(' '));
  }
  return out;
}

export function compileCatalog(catalog: PromptCatalog): CatalogIndex {
  const hit = cache.get(catalog);
  if (hit) return hit;
  const lexicon = new Lexicon();
  const names = new Map<string, string>();
  const vendorDomains = new Map<string, string>();
  // A short name or alias stands for a product only when it is unique to it and names no
  // category or industry: catalogs where short names are nouns ("Email", "Booking Engine")
  // would otherwise read every such word as a dozen products. A one-word alias is read only
  // when capitalized or after a usage cue.
  const reserved = new Set([...catalog.categories, ...catalog.industries].map((x) => compactOf(x.name)));
  const aliasOwners = new Map<string, Set<string>>();
  for (const p of catalog.products) {
    for (const a of [p.shortName, ...p.aliases]) {
      if (!a) continue;
      const key = compactOf(a);
      const owners = aliasOwners.get(key) ?? new Set<string>();
      owners.add(p.id);
      aliasOwners.set(key, owners);
    }
  }
  const usableAlias = (a: string) => aliasOwners.get(compactOf(a))!.size === 1 && !reserved.has(compactOf(a));
  for (const p of catalog.products) {
    names.set(`product:${p.id}`, p.name);
    lexicon.add(p.name, 'product', p.id, p.name, { fuzzy: true });
    for (const a of [p.shortName, ...p.aliases]) {
      if (!a || a === p.name || !usableAlias(a)) continue;
      const oneWord = !/\s/.test(a.trim());
      lexicon.add(a, 'product', p.id, p.name, { kind: 'alias', fuzzy: a.length >= 6, guarded: oneWord ? true : undefined });
    }
  }
  for (const v of catalog.vendors) {
    names.set(`vendor:${v.id}`, v.name);
    vendorDomains.set(v.id, v.domain);
    lexicon.add(v.name, 'vendor', v.id, v.name, { fuzzy: true });
    lexicon.add(v.domain, 'vendor', v.id, v.name, { kind: 'alias' });
    const label = v.domain.split('.')[0]!;
    if (compactOf(label) !== compactOf(v.name)) lexicon.add(label, 'vendor', v.id, v.name, { kind: 'alias' });
  }
  for (const c of catalog.categories) {
    names.set(`category:${c.id}`, c.name);
    lexicon.add(c.name, 'category', c.id, c.name, { fuzzy: true, guarded: false });
    for (const a of categoryAliases(c.name)) lexicon.add(a, 'category', c.id, c.name, { kind: 'alias', guarded: false });
  }
  const industryByKey = new Map<string, { id: string; name: string }>();
  for (const i of catalog.industries) {
    names.set(`industry:${i.id}`, i.name);
    industryByKey.set(compactOf(i.name), i);
    lexicon.add(i.name, 'industry', i.id, i.name, { fuzzy: true, guarded: false });
  }
  for (const [surfaces, targets] of INDUSTRY_SYNONYMS) {
    const target = targets.map((t) => industryByKey.get(compactOf(t))).find(Boolean);
    if (!target) continue;
    for (const s of surfaces) lexicon.add(s, 'industry', target.id, target.name, { kind: 'alias', guarded: false });
  }
  const index = { lexicon, names, vendorDomains };
  cache.set(catalog, index);
  return index;
}

const LEGAL_SUFFIX =
  /[\s,]+(?:inc|incorporated|llc|l\.l\.c|ltd|limited|gmbh|ag|corp|corporation|co|company|plc|sa|s\.a|sas|bv|b\.v|nv|srl|spa|oy|ab|as|pty|kk|group|holdings)\.?$/i;

/** Companies the prompt may name, as a small lexicon of their names (legal suffixes dropped). */
export function companyLexicon(companies: readonly CatalogCompany[]): Lexicon {
  const lex = new Lexicon();
  for (const c of companies) {
    if (!c.name) continue;
    const name = c.name.trim();
    const id = c.domain;
    lex.add(name, 'company', id, name);
    const bare = name.replace(LEGAL_SUFFIX, '').trim();
    if (bare && bare !== name && bare.length >= 3) lex.add(bare, 'company', id, name, { kind: 'alias' });
  }
  return lex;
}
