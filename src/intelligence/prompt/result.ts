// Turns what the parser collected into a ParsedQuery: one entry per entity (its first
// mention, best score), stable orders (position in the prompt, then id; bands and levels in
// their canonical order), leftover words as terms.
import type { CatalogIndex } from './catalog-index.ts';
import type { LexEntry } from './lexicon.ts';
import type { TitleFinding } from './titles.ts';
import { sortSeniority } from './titles.ts';
import { QUERY_WORDS, STOP_WORDS, type Token } from './text.ts';
import {
  EMPLOYEE_BANDS,
  FUNCTIONS,
  REVENUE_BANDS,
  type CatalogCompany,
  type CompanyRef,
  type CountryMatch,
  type EntityMatch,
  type ParsedQuery,
  type PromptMode,
  type Seniority,
  type PeopleFunction,
  type TimeWindow,
} from './schema.ts';

export interface Collected {
  /** `prev`: the word before the match ("using HubSpot" vs "at HubSpot"). */
  matches: { entry: LexEntry; text: string; kind: EntityMatch['kind']; score: number; pos: number; prev: string }[];
  employees: string[];
  revenue: string[];
  titles: TitleFinding[];
  companies: { ref: CompanyRef; pos: number }[];
  time: TimeWindow | null;
}

const MAX_TERMS = 20;
const TECH_USE_CUES = new Set(['use', 'uses', 'using', 'used', 'run', 'runs', 'running', 'on', 'with', 'adopted', 'adopting', 'deploy', 'deployed']);

function clip(s: string, n = 200): string {
  return s.length > n ? s.slice(0, n) : s;
}

export function assemble(mode: PromptMode, c: Collected, tokens: Token[], index: CatalogIndex, companies: readonly CatalogCompany[]): ParsedQuery {
  const byType = { product: new Map<string, EntityMatch & { pos: number }>(), vendor: new Map(), category: new Map(), industry: new Map() } as Record<
    'product' | 'vendor' | 'category' | 'industry',
    Map<string, EntityMatch & { pos: number }>
  >;
  const countries = new Map<string, CountryMatch & { pos: number }>();
  const seniority = new Set<Seniority>();
  const functions = new Set<PeopleFunction>();
  const employees = new Set(c.employees);
  const companyIdByDomain = new Map(companies.map((x) => [x.domain, x.id ?? null]));
  const companyRefs = [...c.companies];

  for (const m of [...c.matches].sort((a, b) => a.pos - b.pos)) {
    const e = m.entry;
    const text = clip(m.text);
    switch (e.type) {
      case 'product':
      case 'vendor':
      case 'category':
      case 'industry': {
        // In people prompts a vendor is an employer ("engineers at HubSpot") unless it follows a
        // verb of use ("managers at companies using HubSpot"): then it stays a vendor.
        if (mode === 'people' && e.type === 'vendor' && !TECH_USE_CUES.has(m.prev)) {
          const domain = index.vendorDomains.get(e.id) ?? null;
          companyRefs.push({ ref: { domain, name: e.name, id: domain ? (companyIdByDomain.get(domain) ?? null) : null, text, kind: 'vendor' }, pos: m.pos });
          break;
        }
        const map = byType[e.type];
        const prior = map.get(e.id);
        if (!prior) map.set(e.id, { id: e.id, name: e.name, text, kind: m.kind, score: m.score, pos: m.pos });
        else if (m.score > prior.score) Object.assign(prior, { text, kind: m.kind, score: m.score });
        break;
      }
      case 'country': {
        const region = e.data?.[0] === 'region';
        const codes = region ? e.data!.slice(1) : [e.id];
        const kind = region ? 'region' : m.kind === 'fuzzy' ? 'name' : ((e.data?.[0] ?? 'name') as CountryMatch['kind']);
        for (const code of codes) if (!countries.has(code)) countries.set(code, { code, text, kind, pos: m.pos });
        break;
      }
      case 'employees':
        for (const b of e.data ?? []) employees.add(b);
        break;
      case 'seniority':
        for (const s of e.data ?? []) seniority.add(s as Seniority);
        break;
      case 'function':
        for (const f of e.data ?? []) functions.add(f as PeopleFunction);
        break;
      case 'company':
        companyRefs.push({ ref: { domain: e.id, name: e.name, id: companyIdByDomain.get(e.id) ?? null, text, kind: 'name' }, pos: m.pos });
        break;
      default:
        break;
    }
  }

  const titles: string[] = [];
  for (const t of c.titles) {
    for (const s of t.seniority) seniority.add(s);
    for (const f of t.functions) functions.add(f);
    if (t.title && !titles.some((x) => x.toLowerCase() === t.title!.toLowerCase())) titles.push(clip(t.title));
  }

  const seenCompany = new Set<string>();
  const companyOut: CompanyRef[] = [];
  for (const { ref } of companyRefs.sort((a, b) => a.pos - b.pos)) {
    const key = ref.domain ?? `name:${ref.name}`;
    if (seenCompany.has(key)) continue;
    seenCompany.add(key);
    companyOut.push(ref.domain && !ref.id ? { ...ref, id: companyIdByDomain.get(ref.domain) ?? null } : ref);
  }

  const ordered = <T extends { pos: number; id?: string; code?: string }>(m: Map<string, T>) =>
    [...m.values()].sort((a, b) => a.pos - b.pos || String(a.id ?? a.code).localeCompare(String(b.id ?? b.code))).map(({ pos: _pos, ...rest }) => rest);

  return {
    mode,
    products: ordered(byType.product) as EntityMatch[],
    vendors: ordered(byType.vendor) as EntityMatch[],
    categories: ordered(byType.category) as EntityMatch[],
    industries: ordered(byType.industry) as EntityMatch[],
    countries: ordered(countries) as CountryMatch[],
    employeeRanges: EMPLOYEE_BANDS.filter((b) => employees.has(b)),
    revenueRanges: REVENUE_BANDS.filter((b) => c.revenue.includes(b)),
    timeWindow: c.time,
    titles,
    seniority: sortSeniority(seniority),
    functions: FUNCTIONS.filter((f) => functions.has(f)),
    companies: companyOut,
    terms: leftoverTerms(tokens),
  };
}

/** Unrecognized content words, lowercased, in prompt order, without repeats. */
function leftoverTerms(tokens: Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (t.used || t.compact.length < 2 || /^[0-9]+$/.test(t.compact)) continue;
    if (STOP_WORDS.has(t.compact) || QUERY_WORDS.has(t.compact)) continue;
    const term = clip(t.key, 100);
    if (!out.includes(term)) out.push(term);
    if (out.length >= MAX_TERMS) break;
  }
  return out;
}
