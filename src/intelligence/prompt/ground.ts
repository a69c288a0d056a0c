// Grounding a model's answer: the names an external model returned are mapped onto catalog
// ids with the same lexicons the embedded parser uses (exact, alias, plural, typo), and what
// does not resolve is dropped. Titles and terms survive only when their words are in the
// prompt, so a model cannot add a filter the user never wrote.
import { normalizeDomain } from '../../domain.ts';
import { compileCatalog, companyLexicon } from './catalog-index.ts';
import { buildCountryLexicon, isCountryCode } from './countries.ts';
import type { EntryType, LexEntry, Lexicon } from './lexicon.ts';
import { compactOf, QUERY_WORDS, singular, STOP_WORDS, tokenize } from './text.ts';
import {
  parsedQuerySchema,
  type CatalogCompany,
  type CompanyRef,
  type CountryMatch,
  type EntityMatch,
  type ModelQuery,
  type ParsedQuery,
  type PromptCatalog,
  type PromptMode,
} from './schema.ts';

const countries = buildCountryLexicon();

interface Resolved {
  entry: LexEntry;
  kind: EntityMatch['kind'];
  score: number;
}

/** The best entry of one type for a whole name, or undefined. */
function resolveName(lexicon: Lexicon, name: string, type: EntryType): Resolved | undefined {
  const key = compactOf(name);
  if (key === '') return undefined;
  const exact = lexicon.lookup(key).filter((e) => e.type === type);
  const best = exact.find((e) => e.kind === 'exact') ?? exact[0];
  if (best) return { entry: best, kind: best.kind, score: best.kind === 'exact' ? 1 : 0.95 };
  const words = tokenize(name).map((t) => t.compact);
  const last = words[words.length - 1] ?? '';
  if (type === 'category' || type === 'industry') {
    const plural = lexicon.lookup(key.slice(0, key.length - last.length) + singular(last)).filter((e) => e.type === type);
    if (plural[0]) return { entry: plural[0], kind: 'alias', score: 0.9 };
  }
  const hits = lexicon.fuzzy(key, words.length).flatMap((h) => h.entries.filter((e) => e.type === type).map((entry) => ({ entry, score: h.score })));
  if (hits.length === 0 || new Set(hits.map((h) => h.entry.id)).size > 1) return undefined;
  return { entry: hits[0]!.entry, kind: 'fuzzy', score: hits[0]!.score };
}

function entities(lexicon: Lexicon, names: string[], type: EntryType): EntityMatch[] {
  const out = new Map<string, EntityMatch>();
  for (const name of names) {
    const r = resolveName(lexicon, name, type);
    if (r && !out.has(r.entry.id)) {
      out.set(r.entry.id, { id: r.entry.id, name: r.entry.name, text: name.slice(0, 200) || r.entry.name, kind: r.kind, score: r.score });
    }
  }
  return [...out.values()];
}

function groundCountries(names: string[]): CountryMatch[] {
  const out = new Map<string, CountryMatch>();
  for (const raw of names) {
    const text = raw.trim().slice(0, 200);
    if (/^[A-Za-z]{2}$/.test(text) && isCountryCode(text.toUpperCase())) {
      if (!out.has(text.toUpperCase())) out.set(text.toUpperCase(), { code: text.toUpperCase(), text, kind: 'code' });
      continue;
    }
    const entry = countries.lookup(compactOf(text))[0];
    if (!entry) continue;
    const region = entry.data?.[0] === 'region';
    for (const code of region ? entry.data!.slice(1) : [entry.id]) {
      if (!out.has(code)) out.set(code, { code, text, kind: region ? 'region' : ((entry.data?.[0] ?? 'name') as CountryMatch['kind']) });
    }
  }
  return [...out.values()];
}

/** Content words of a phrase, singular, for the "is it in the prompt" check. */
function contentWords(s: string): string[] {
  return tokenize(s)
    .map((t) => singular(t.compact))
    .filter((w) => w && !STOP_WORDS.has(w));
}

export function groundModelQuery(
  model: ModelQuery,
  prompt: string,
  catalog: PromptCatalog,
  mode: PromptMode,
  companies: readonly CatalogCompany[] = [],
): ParsedQuery {
  const { lexicon, vendorDomains } = compileCatalog(catalog);
  const promptWords = new Set(contentWords(prompt));
  const inPrompt = (s: string) => {
    const words = contentWords(s);
    return words.length > 0 && words.every((w) => promptWords.has(w));
  };
  const byDomain = new Map(companies.map((c) => [c.domain, c]));
  const companyLex = companyLexicon(companies);
  const refs: CompanyRef[] = [];
  const addRef = (ref: CompanyRef) => {
    if (!refs.some((r) => (r.domain ?? r.name) === (ref.domain ?? ref.name))) refs.push(ref);
  };
  for (const raw of model.companies) {
    const text = raw.trim().slice(0, 200);
    const domain = text.includes('.') ? normalizeDomain(text) : null;
    if (domain) {
      addRef({ domain, name: byDomain.get(domain)?.name ?? null, id: byDomain.get(domain)?.id ?? null, text, kind: 'domain' });
      continue;
    }
    const hit = companyLex.lookup(compactOf(text))[0];
    if (hit) {
      addRef({ domain: hit.id, name: hit.name, id: byDomain.get(hit.id)?.id ?? null, text, kind: 'name' });
      continue;
    }
    // An employer that is a vendor of the catalog ("engineers at HubSpot").
    const vendor = resolveName(lexicon, text, 'vendor');
    const domain2 = vendor ? vendorDomains.get(vendor.entry.id) : undefined;
    if (vendor && domain2) addRef({ domain: domain2, name: vendor.entry.name, id: byDomain.get(domain2)?.id ?? null, text, kind: 'vendor' });
  }
  const vendors = entities(lexicon, model.vendors, 'vendor');
  const query: ParsedQuery = {
    mode,
    products: mode === 'people' ? [] : entities(lexicon, model.products, 'product'),
    vendors,
    categories: mode === 'people' ? [] : entities(lexicon, model.categories, 'category'),
    industries: entities(lexicon, model.industries, 'industry'),
    countries: groundCountries(model.countries),
    employeeRanges: [...new Set(model.employeeRanges)],
    revenueRanges: [...new Set(model.revenueRanges)],
    timeWindow: model.timeWindow,
    titles: mode === 'people' ? [...new Set(model.titles.map((t) => t.trim().slice(0, 200)).filter((t) => t && inPrompt(t)))] : [],
    seniority: mode === 'people' ? [...new Set(model.seniority)] : [],
    functions: mode === 'people' ? [...new Set(model.functions)] : [],
    companies: mode === 'customers' ? refs.filter((r) => r.kind === 'domain') : refs,
    terms: [...new Set(model.terms.map((t) => t.trim().toLowerCase().slice(0, 100)))]
      .filter((t) => t && !QUERY_WORDS.has(compactOf(t)) && inPrompt(t))
      .slice(0, 20),
  };
  return parsedQuerySchema.parse(query);
}
