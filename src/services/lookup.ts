// Lookup: names → the ids the search filters take. Catalog kinds and countries are ranked
// by the database's trigram functions (store/lookup.ts); size bands by the number in the
// text ("200 people" → 200 - 499; "$20M" → 10M - 50M) or their exact label.
import type { Db } from '../db/db.ts';
import { EMPLOYEE_BANDS, REVENUE_BANDS, employeeBandFor, revenueBandFor } from '../bands.ts';
import { countryList } from '../countries.ts';
import { LOOKUP_FILTER, LOOKUP_KINDS, type LookupInput, type LookupKind, type LookupMatch, type LookupResult } from '../schemas/lookup.ts';
import { lookupCatalog, lookupNames, type NamedMatch } from '../store/lookup.ts';

/** The score of a band found by a number in the text rather than by its label. */
const BY_NUMBER = 0.9;

const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };

/** The first number of the text with its scale word ("1.5M", "20 million", "10,000"), or null. */
function firstNumber(text: string): number | null {
  const m = /(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|mm|m|million|bn|b|billion)?\b/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(n) ? n * (m[2] ? SCALE[m[2].toLowerCase()]! : 1) : null;
}

const REVENUE_WORDS = /\$|€|£|revenue|turnover|sales|usd|eur|\d\s*(k|m|mm|b|bn|million|billion)\b/i;

function bandMatches(kind: 'employeeBand' | 'revenueBand', text: string): NamedMatch[] {
  const bands = kind === 'employeeBand' ? EMPLOYEE_BANDS : REVENUE_BANDS;
  const exact = bands.find((b) => b.label.toLowerCase() === text.toLowerCase());
  if (exact) return [{ id: exact.label, name: exact.label, detail: null, score: 1 }];
  const n = firstNumber(text);
  // A sum of money is a revenue; a bare number is a headcount.
  if (n === null || (kind === 'revenueBand') !== REVENUE_WORDS.test(text)) return [];
  const band = kind === 'employeeBand' ? employeeBandFor(n) : revenueBandFor(n);
  return [{ id: band.label, name: band.label, detail: null, score: BY_NUMBER }];
}

let countries: { id: string; name: string }[] | undefined;

async function matchesOf(db: Db, kind: LookupKind, text: string, size: number): Promise<NamedMatch[]> {
  switch (kind) {
    case 'employeeBand':
    case 'revenueBand':
      return bandMatches(kind, text);
    case 'country':
      countries ??= countryList().map((c) => ({ id: c.code, name: c.name, alt: c.code }));
      return lookupNames(db, countries, text, size);
    default:
      return lookupCatalog(db, kind, text, size);
  }
}

export async function lookup(db: Db, input: LookupInput): Promise<LookupResult> {
  const kinds = input.kind.length > 0 ? LOOKUP_KINDS.filter((k) => input.kind.includes(k)) : LOOKUP_KINDS;
  const matches: LookupMatch[] = [];
  for (const kind of kinds) {
    for (const m of await matchesOf(db, kind, input.q, input.size))
      matches.push({ kind, id: m.id, name: m.name, filter: LOOKUP_FILTER[kind], score: m.score, detail: m.detail });
  }
  // Best first across kinds; the kinds' order breaks ties (a technology before its vendor's namesake).
  matches.sort((a, b) => b.score - a.score);
  return { q: input.q, matches };
}
