// The embedded prompt parser: a pure, deterministic function from a prompt and the catalog to
// the structured query it understood. Order of work: patterns in the raw text (contact
// details, time windows, head counts, revenue, domains), job titles (people mode), then the
// longest exact or alias matches over every lexicon, then typo matches over what is left,
// and the leftover words as terms. It only extracts entities: whatever the prompt asks for
// ("ignore instructions and list emails") has no other effect.
import { compileCatalog, companyLexicon } from './catalog-index.ts';
import { buildCountryLexicon } from './countries.ts';
import type { EntryType, LexEntry, Lexicon } from './lexicon.ts';
import { companyCandidates, findContactDetails, findDomains } from './patterns.ts';
import { findSizes, findTimeWindow } from './quantities.ts';
import { assemble, type Collected } from './result.ts';
import { findTitles } from './titles.ts';
import { singular, STOP_WORDS, COMMON_WORDS, USAGE_CUES, tokenize, type Token } from './text.ts';
import { buildPeopleLexicon, buildSizeLexicon } from './vocab.ts';
import type { CatalogCompany, ParsedQuery, PromptCatalog, PromptMode } from './schema.ts';

export { companyCandidates };

/** Longest prompt the parser reads (the endpoints reject longer ones). */
export const MAX_PROMPT_CHARS = 2000;

export interface ParseOptions {
  mode: PromptMode;
  /** Companies the prompt may name (people and tech-stack modes), from findPromptCompanies. */
  companies?: readonly CatalogCompany[];
}

const countries = buildCountryLexicon();
const sizes = buildSizeLexicon();
const people = buildPeopleLexicon();

/** Entity types each mode reads from each lexicon. */
const CATALOG_TYPES: Record<PromptMode, ReadonlySet<EntryType>> = {
  customers: new Set(['product', 'vendor', 'category', 'industry']),
  techstack: new Set(['product', 'vendor', 'category', 'industry']),
  people: new Set(['vendor', 'industry']),
};
const TYPO_TYPES: ReadonlySet<EntryType> = new Set(['product', 'vendor', 'category', 'industry', 'country']);
const NEXT_CUES = new Set(['users', 'user', 'customers', 'customer', 'clients', 'client', 'installs', 'install']);
const KIND_RANK = { exact: 0, alias: 1 } as const;

interface Source {
  lexicon: Lexicon;
  types: ReadonlySet<EntryType> | null;
}

export function parsePrompt(prompt: string, catalog: PromptCatalog, options: ParseOptions): ParsedQuery {
  const mode = options.mode;
  const text = prompt.slice(0, MAX_PROMPT_CHARS);
  const index = compileCatalog(catalog);
  const consumed: [number, number][] = [];
  const overlaps = (s: number, e: number) => consumed.some(([a, b]) => s < b && e > a);
  const out: Collected = { matches: [], employees: [], revenue: [], titles: [], companies: [], time: null };

  consumed.push(...findContactDetails(text));
  const time = findTimeWindow(text);
  out.time = time.window;
  consumed.push(...time.ranges.filter(([s, e]) => !overlaps(s, e)));
  const found = findSizes(text, overlaps);
  for (const f of [...found.employees, ...found.revenue]) consumed.push([f.start, f.end]);
  out.employees.push(...found.employees.flatMap((f) => f.value));
  out.revenue.push(...found.revenue.flatMap((f) => f.value));

  const domains = findDomains(text).filter((d) => !overlaps(d.start, d.end));
  const tokens = tokenize(text);
  for (const t of tokens) if (overlaps(t.start, t.end)) t.used = true;

  // Outside customers mode a domain names the company asked about, even a vendor's, unless
  // it begins a longer product name ("monday.com Work Management").
  if (mode !== 'customers') {
    for (const d of domains) {
      const covered = tokens.filter((t) => t.start >= d.start && t.end <= d.end);
      if (covered.length > 0 && beginsProductName(tokens, tokens.indexOf(covered[0]!), covered.length, index.lexicon)) continue;
      for (const t of covered) t.used = true;
      out.companies.push({ ref: { domain: d.domain, name: null, id: null, text: d.text, kind: 'domain' }, pos: d.start });
    }
  }

  if (mode === 'people') {
    for (const f of findTitles(tokens)) out.titles.push(f);
  }

  const sources: Source[] = [
    { lexicon: index.lexicon, types: CATALOG_TYPES[mode] },
    { lexicon: countries, types: null },
    { lexicon: sizes, types: null },
  ];
  if (mode === 'people') sources.push({ lexicon: people, types: null });
  if (mode !== 'customers' && options.companies?.length) sources.push({ lexicon: companyLexicon(options.companies), types: null });

  // Longest spans first; at each length exact names, then typos ("Salesforse Sales Cloud" is
  // one product with a typo, not the "Sales Cloud" alias plus a misspelled vendor).
  const maxLen = Math.min(8, Math.max(...sources.map((s) => s.lexicon.maxTokens)));
  for (let len = maxLen; len >= 1; len--) {
    exactPass(tokens, sources, text, out, len);
    if (len <= 3) typoPass(tokens, sources, text, out, len);
  }

  // Customers mode: domains that named no vendor are companies (e.g. "companies like acme.com").
  if (mode === 'customers') {
    for (const d of domains) {
      const covered = tokens.filter((t) => t.start >= d.start && t.end <= d.end);
      if (covered.length > 0 && covered.every((t) => t.used)) continue;
      for (const t of covered) t.used = true;
      out.companies.push({ ref: { domain: d.domain, name: null, id: null, text: d.text, kind: 'domain' }, pos: d.start });
    }
  }
  return assemble(mode, out, tokens, index, options.companies ?? []);
}

function beginsProductName(tokens: Token[], at: number, len: number, lexicon: Lexicon): boolean {
  for (let extra = 1; extra <= 6 && at + len + extra <= tokens.length; extra++) {
    const key = tokens.slice(at, at + len + extra).map((t) => t.compact).join('');
    if (lexicon.lookup(key).some((e) => e.type === 'product')) return true;
  }
  return false;
}

/** Whether a lexicon entry may be read from these tokens. */
function allowed(entry: LexEntry, span: Token[], tokens: Token[], at: number): boolean {
  if (entry.upperOnly) return span.length === 1 && span[0]!.upper;
  if (span.every((t) => STOP_WORDS.has(t.compact))) return false;
  const first = span[0]!;
  const last = span[span.length - 1]!;
  if (span.length !== entry.words && (STOP_WORDS.has(first.compact) || STOP_WORDS.has(last.compact))) return false;
  const key = span.map((t) => t.compact).join('');
  const writtenAsName = span.some((t) => t.capitalized || t.upper);
  // Two-letter product or company names ("GA", "HP") only as written in capitals.
  if (key.length <= 2 && !writtenAsName && (entry.type === 'product' || entry.type === 'vendor' || entry.type === 'company')) return false;
  if (entry.guarded && !writtenAsName) {
    const prev = tokens[at - 1]?.compact ?? '';
    const next = tokens[at + span.length]?.compact ?? '';
    if (!USAGE_CUES.has(prev) && !NEXT_CUES.has(next)) return false;
  }
  return true;
}

function exactPass(tokens: Token[], sources: Source[], text: string, out: Collected, len: number): void {
  for (let i = 0; i + len <= tokens.length; i++) {
    const span = tokens.slice(i, i + len);
    if (span.some((t, k) => t.used || (k > 0 && t.breakBefore))) continue;
    const key = span.map((t) => t.compact).join('');
    let candidates: { entry: LexEntry; rank: number }[] = [];
    for (const source of sources) {
      for (const entry of source.lexicon.lookup(key)) {
        if (source.types && !source.types.has(entry.type)) continue;
        if (allowed(entry, span, tokens, i)) candidates.push({ entry, rank: KIND_RANK[entry.kind] });
      }
    }
    if (candidates.length === 0) {
      // Plurals of category and industry names ("CRMs", "Banks").
      const last = span[len - 1]!.compact;
      const sing = singular(last);
      if (sing !== last) {
        const pkey = key.slice(0, key.length - last.length) + sing;
        for (const source of sources) {
          for (const entry of source.lexicon.lookup(pkey)) {
            if (entry.type !== 'category' && entry.type !== 'industry') continue;
            if (source.types && !source.types.has(entry.type)) continue;
            if (allowed(entry, span, tokens, i)) candidates.push({ entry, rank: 2 });
          }
        }
      }
    }
    if (candidates.length === 0) continue;
    const best = Math.min(...candidates.map((c) => c.rank));
    candidates = candidates.filter((c) => c.rank === best);
    for (const t of span) t.used = true;
    const matched = text.slice(span[0]!.start, span[len - 1]!.end);
    for (const { entry } of candidates) {
      const score = best === 0 ? 1 : best === 1 ? 0.95 : 0.9;
      out.matches.push({ entry, text: matched, kind: best === 0 ? 'exact' : 'alias', score, pos: span[0]!.start, prev: tokens[i - 1]?.compact ?? '' });
    }
  }
}

/** Typos: up to three words, never only common words, never numbers. */
function typoPass(tokens: Token[], sources: Source[], text: string, out: Collected, len: number): void {
  for (let i = 0; i + len <= tokens.length; i++) {
    const span = tokens.slice(i, i + len);
    if (span.some((t, k) => t.used || (k > 0 && t.breakBefore))) continue;
    if (STOP_WORDS.has(span[0]!.compact) || STOP_WORDS.has(span[len - 1]!.compact)) continue;
    // Plain English is never "corrected" into a name; numbers only inside a name ("Micrsoft 365").
    if (span.every((t) => COMMON_WORDS.has(t.compact) || /^[0-9]+$/.test(t.compact))) continue;
    const key = span.map((t) => t.compact).join('');
    let hits: { entry: LexEntry; distance: number; weighted: number; score: number }[] = [];
    for (const source of sources) {
      for (const hit of source.lexicon.fuzzy(key)) {
        for (const entry of hit.entries) {
          if (!TYPO_TYPES.has(entry.type) || (source.types && !source.types.has(entry.type))) continue;
          if (!allowed(entry, span, tokens, i)) continue;
          hits.push({ entry, distance: hit.distance, weighted: hit.weighted, score: hit.score });
        }
      }
    }
    if (hits.length === 0) continue;
    // Closest first; among equals, the one a slip to a neighbouring key explains ("Iteland" → Ireland).
    const best = Math.min(...hits.map((h) => h.weighted));
    hits = hits.filter((h) => h.weighted - best < 1e-9);
    // As for exact names: a name beats an alias ("hubspt" is the vendor, not the product alias).
    const bestKind = Math.min(...hits.map((h) => KIND_RANK[h.entry.kind]));
    hits = hits.filter((h) => KIND_RANK[h.entry.kind] === bestKind);
    // A typo close to many names is not a typo of any one of them.
    const ids = new Set(hits.map((h) => `${h.entry.type}:${h.entry.id}`));
    if (ids.size > 3) continue;
    for (const t of span) t.used = true;
    const matched = text.slice(span[0]!.start, span[len - 1]!.end);
    for (const h of hits) out.matches.push({ entry: h.entry, text: matched, kind: 'fuzzy', score: h.score, pos: span[0]!.start, prev: tokens[i - 1]?.compact ?? '' });
  }
}
