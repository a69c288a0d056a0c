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
import type { CatalogCompany, EntityMatch, ParsedQuery, PromptCatalog, PromptMode } from './schema.ts';

export { companyCandidates };

/** Longest prompt the parser reads (the endpoints reject longer ones). */
export const MAX_PROMPT_CHARS = 2000;

interface ParseOptions {
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
  const ctx: Pass = { tokens, sources, text, out, keys: spanKeys(tokens, maxLen) };
  for (let len = maxLen; len >= 1; len--) {
    exactPass(ctx, len);
    if (len <= 5) typoPass(ctx, len);
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
    const key = tokens
      .slice(at, at + len + extra)
      .map((t) => t.compact)
      .join('');
    if (lexicon.lookup(key).some((e) => e.type === 'product')) return true;
  }
  return false;
}

interface Pass {
  tokens: Token[];
  sources: Source[];
  text: string;
  out: Collected;
  /** keys[i][len]: the compact key of the `len` tokens starting at i, built once. */
  keys: string[][];
}

function spanKeys(tokens: Token[], maxLen: number): string[][] {
  return tokens.map((_, i) => {
    const row = [''];
    for (let len = 1; len <= maxLen && i + len <= tokens.length; len++) row.push(row[len - 1]! + tokens[i + len - 1]!.compact);
    return row;
  });
}

function anyUsed(tokens: Token[], i: number, len: number): boolean {
  for (let k = i; k < i + len; k++) if (tokens[k]!.used) return true;
  return false;
}

/** Whether a lexicon entry may be read from the `len` tokens at `at`. */
function allowed(entry: LexEntry, tokens: Token[], at: number, len: number): boolean {
  const span = tokens.slice(at, at + len);
  // Punctuation inside the span only where the name itself has some ("Governance, Risk & Compliance").
  if (!entry.breaks && span.some((t, k) => k > 0 && t.breakBefore)) return false;
  if (entry.upperOnly) return len === 1 && span[0]!.upper;
  if (span.every((t) => STOP_WORDS.has(t.compact))) return false;
  const first = span[0]!;
  const last = span[len - 1]!;
  if (len !== entry.words && (STOP_WORDS.has(first.compact) || STOP_WORDS.has(last.compact))) return false;
  const writtenAsName = span.some((t) => t.capitalized || t.upper);
  // Two-letter product or company names ("GA", "HP") only as written in capitals.
  const short = span.reduce((n, t) => n + t.compact.length, 0) <= 2;
  if (short && !writtenAsName && (entry.type === 'product' || entry.type === 'vendor' || entry.type === 'company')) return false;
  if (entry.guarded && !writtenAsName) {
    const prev = tokens[at - 1]?.compact ?? '';
    const next = tokens[at + len]?.compact ?? '';
    if (!USAGE_CUES.has(prev) && !NEXT_CUES.has(next)) return false;
  }
  return true;
}

function record(ctx: Pass, entries: { entry: LexEntry; kind: EntityMatch['kind']; score: number }[], i: number, len: number): void {
  const { tokens } = ctx;
  for (let k = i; k < i + len; k++) tokens[k]!.used = true;
  const text = ctx.text.slice(tokens[i]!.start, tokens[i + len - 1]!.end);
  const prev = tokens[i - 1]?.compact ?? '';
  for (const e of entries) ctx.out.matches.push({ entry: e.entry, text, kind: e.kind, score: e.score, pos: tokens[i]!.start, prev });
}

function exactPass(ctx: Pass, len: number): void {
  const { tokens, sources } = ctx;
  for (let i = 0; i + len <= tokens.length; i++) {
    if (anyUsed(tokens, i, len)) continue;
    const key = ctx.keys[i]![len]!;
    let candidates: { entry: LexEntry; rank: number }[] = [];
    for (const source of sources) {
      for (const entry of source.lexicon.lookup(key)) {
        if (source.types && !source.types.has(entry.type)) continue;
        if (allowed(entry, tokens, i, len)) candidates.push({ entry, rank: KIND_RANK[entry.kind] });
      }
    }
    if (candidates.length === 0) {
      // Plurals of category and industry names ("CRMs", "Banks").
      const last = tokens[i + len - 1]!.compact;
      const sing = singular(last);
      if (sing !== last) {
        const pkey = key.slice(0, key.length - last.length) + sing;
        for (const source of sources) {
          for (const entry of source.lexicon.lookup(pkey)) {
            if (entry.type !== 'category' && entry.type !== 'industry') continue;
            if (source.types && !source.types.has(entry.type)) continue;
            if (allowed(entry, tokens, i, len)) candidates.push({ entry, rank: 2 });
          }
        }
      }
    }
    if (candidates.length === 0) continue;
    const best = Math.min(...candidates.map((c) => c.rank));
    candidates = candidates.filter((c) => c.rank === best);
    const score = best === 0 ? 1 : best === 1 ? 0.95 : 0.9;
    record(
      ctx,
      candidates.map((c) => ({ entry: c.entry, kind: best === 0 ? 'exact' : 'alias', score })),
      i,
      len,
    );
  }
}

/** Typos: up to five words, never only common words. */
function typoPass(ctx: Pass, len: number): void {
  const { tokens, sources } = ctx;
  for (let i = 0; i + len <= tokens.length; i++) {
    const key = ctx.keys[i]![len]!;
    if (key.length < 5 || anyUsed(tokens, i, len)) continue;
    if (STOP_WORDS.has(tokens[i]!.compact) || STOP_WORDS.has(tokens[i + len - 1]!.compact)) continue;
    // Plain English is never "corrected" into a name; numbers only inside a name ("Micrsoft 365").
    let plain = true;
    for (let k = i; k < i + len && plain; k++) plain = COMMON_WORDS.has(tokens[k]!.compact) || /^[0-9]+$/.test(tokens[k]!.compact);
    if (plain) continue;
    let hits: { entry: LexEntry; distance: number; weighted: number; score: number }[] = [];
    for (const source of sources) {
      for (const hit of source.lexicon.fuzzy(key, len)) {
        for (const entry of hit.entries) {
          if (!TYPO_TYPES.has(entry.type) || (source.types && !source.types.has(entry.type))) continue;
          // A typo changes letters, not the number of words: "New Relic in DE" is not "New Relic One".
          if (entry.words !== len) continue;
          if (!allowed(entry, tokens, i, len)) continue;
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
    if (new Set(hits.map((h) => `${h.entry.type}:${h.entry.id}`)).size > 3) continue;
    record(
      ctx,
      hits.map((h) => ({ entry: h.entry, kind: 'fuzzy' as const, score: h.score })),
      i,
      len,
    );
  }
}
