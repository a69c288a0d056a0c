// Match quality of a people profile against an understood prompt, and the confidence that
// the profile is what the prompt asked for. Hard criteria (companies, countries,
// industries) are enforced by the search; the soft ones (titles, seniority, functions) are
// scored here. A logistic model over the match features gives the confidence; its
// coefficients are fitted on generated prompts with known intent (`stacklens eval ai --fit`).
import { sigmoid } from './confidence.ts';

export interface PeopleAsk {
  /** Titles as understood (any case); a profile matches when its title contains one. */
  titles: string[];
  /** Lowercase seniority labels. */
  seniority: string[];
  /** Lowercase function labels. */
  functions: string[];
  /** Hard filters present in the search (companies, countries, industries, product users). */
  hardFilters: number;
  /** The prompt needed a typo correction to be understood. */
  fuzzy: boolean;
  /** Words of the prompt that matched nothing. */
  unrecognizedTerms: number;
}

interface ProfileFacts {
  title: string | null;
  seniority: string | null;
  function: string | null;
}

interface ProfileMatch {
  titleMatch: boolean;
  titleExact: boolean;
  seniorityMatch: boolean;
  functionMatch: boolean;
  /** Soft criteria kinds asked (0-3) and matched. */
  asked: number;
  matched: number;
}

const lower = (s: string | null) => (s ?? '').trim().toLowerCase();

/** C-level acronyms spelled out, as titles are usually written ("CTO" → "Chief Technology Officer"). */
const SPELLED_OUT = new Map<string, string>(
  Object.entries({
    ceo: 'chief executive officer',
    cto: 'chief technology officer',
    cio: 'chief information officer',
    ciso: 'chief information security officer',
    cfo: 'chief financial officer',
    cmo: 'chief marketing officer',
    coo: 'chief operating officer',
    cro: 'chief revenue officer',
    chro: 'chief human resources officer',
    cpo: 'chief product officer',
    cdo: 'chief data officer',
    cco: 'chief customer officer',
    clo: 'chief legal officer',
  }),
);

/** Lowercase title fragments to look for: each asked title and, for an acronym, its spelled-out form. */
export function expandTitles(titles: string[]): string[] {
  const out = new Set<string>();
  for (const t of titles) {
    const l = t.trim().toLowerCase();
    if (!l) continue;
    out.add(l);
    // "CTOs" asks for CTOs: the acronym and its spelled-out form.
    const acronym = l.replace(/s$/, '');
    const full = SPELLED_OUT.get(acronym);
    if (full) out.add(acronym).add(full);
  }
  return [...out];
}

/** `phrase` appears in `text` as whole words (both lowercase): "cto" is in "deputy cto", not in "director". */
export function containsWords(text: string, phrase: string): boolean {
  const words = phrase
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(^|[^\\p{L}\\p{N}])${words.join('\\s+')}($|[^\\p{L}\\p{N}])`, 'u').test(text);
}

export function matchProfile(ask: PeopleAsk, p: ProfileFacts): ProfileMatch {
  const title = lower(p.title);
  const titles = expandTitles(ask.titles);
  const titleMatch = titles.length > 0 && titles.some((t) => containsWords(title, t));
  const titleExact = titles.length > 0 && titles.some((t) => title === t);
  const seniorityMatch = ask.seniority.length > 0 && ask.seniority.includes(lower(p.seniority));
  const functionMatch = ask.functions.length > 0 && ask.functions.includes(lower(p.function));
  const asked = (titles.length > 0 ? 1 : 0) + (ask.seniority.length > 0 ? 1 : 0) + (ask.functions.length > 0 ? 1 : 0);
  const matched = (titleMatch ? 1 : 0) + (seniorityMatch ? 1 : 0) + (functionMatch ? 1 : 0);
  return { titleMatch, titleExact, seniorityMatch, functionMatch, asked, matched };
}

export const PEOPLE_FEATURE_NAMES = ['bias', 'softShare', 'allSoft', 'titleMatch', 'titleExact', 'onlyHard', 'fuzzy', 'logTerms'] as const;

/**
 * Features in PEOPLE_FEATURE_NAMES order: the share of asked soft criteria met (and
 * whether all were), the title evidence, whether only hard filters were asked (any
 * profile at the company or place matches), and how uncertain the understanding was.
 */
export function peopleFeatures(ask: PeopleAsk, m: ProfileMatch): number[] {
  const softShare = m.asked > 0 ? m.matched / m.asked : 1;
  return [
    1,
    softShare,
    m.asked > 0 && m.matched === m.asked ? 1 : 0,
    m.titleMatch ? 1 : 0,
    m.titleExact ? 1 : 0,
    m.asked === 0 ? 1 : 0,
    ask.fuzzy ? 1 : 0,
    Math.log1p(ask.unrecognizedTerms),
  ];
}

/**
 * Fitted with `stacklens eval ai --fit` on seed 'calibration-fit' (5,000 companies, 300
 * generated prompts; docs/intelligence.md, "AI helpers"), checked on seed 'stacklens'. The
 * generated prompts never need a typo correction, so `fuzzy` keeps a hand-set -0.5.
 */
const PEOPLE_COEFFICIENTS: readonly number[] = [-4.1347, 4.4044, 2.1971, -0.2831, 1.8797, 3.9356, -0.5, -2.9608];

/** Confidence 0-1 (3 decimals) that the profile is what the prompt asked for. */
export function profileConfidence(ask: PeopleAsk, m: ProfileMatch, coefficients: readonly number[] = PEOPLE_COEFFICIENTS): number {
  const x = peopleFeatures(ask, m);
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (coefficients[i] ?? 0) * x[i]!;
  return Math.round(sigmoid(z) * 1000) / 1000;
}
