// People profiles for the AI helper: the profiles that pass the understood hard criteria
// (companies, places, industries, size, product users) and meet the most soft ones
// (titles, seniority, functions), each with a confidence from match quality. Profile
// fields only: contact details are never read.
import type { Db } from '../db/db.ts';
import { findPeopleCandidates, type PeopleCandidate, type PeopleCriteria } from '../store/ai.ts';
import { productsOf } from '../store/products.ts';
import { expandTitles, matchProfile, profileConfidence, type PeopleAsk } from '../intelligence/people-match.ts';
import type { ParsedQuery } from '../intelligence/prompt/index.ts';
import type { PeopleItem } from '../schemas/ai.ts';

/** How long ago product evidence may be for "people at companies using X" (days). */
const PRODUCT_EVIDENCE_DAYS = 365;

interface PeopleSearch {
  criteria: PeopleCriteria;
  ask: PeopleAsk;
}

/**
 * The search a parsed query stands for, or null when it names nothing people can be
 * found by (or only companies that are not in the database).
 */
export async function peopleSearchOf(db: Db, q: ParsedQuery, asOf: Date): Promise<PeopleSearch | null> {
  const companyIds = [...new Set(q.companies.flatMap((c) => (c.id ? [c.id] : [])))];
  if (q.companies.length > 0 && companyIds.length === 0) return null;
  const productIds = new Set(q.products.map((p) => p.id));
  if (q.vendors.length || q.categories.length) {
    for (const p of await productsOf(
      db,
      q.vendors.map((v) => v.id),
      q.categories.map((c) => c.id),
    ))
      productIds.add(p.id);
  }
  if ((q.products.length || q.vendors.length || q.categories.length) && productIds.size === 0) return null;
  const criteria: PeopleCriteria = {
    titles: expandTitles(q.titles),
    seniority: [...new Set(q.seniority.map((s) => s.toLowerCase()))],
    functions: [...new Set(q.functions.map((f) => f.toLowerCase()))],
    countries: [...new Set(q.countries.map((c) => c.code))],
    companyIds,
    industryIds: q.industries.map((i) => i.id),
    employeeBands: [...q.employeeRanges],
    productIds: [...productIds].sort(),
    productSince: productIds.size ? new Date(asOf.getTime() - PRODUCT_EVIDENCE_DAYS * 86_400_000) : null,
  };
  const hardFilters = [criteria.countries, criteria.companyIds, criteria.industryIds, criteria.employeeBands, criteria.productIds].filter(
    (l) => l.length > 0,
  ).length;
  const soft = criteria.titles.length + criteria.seniority.length + criteria.functions.length;
  if (hardFilters + soft === 0) return null;
  const fuzzy = [q.products, q.vendors, q.categories, q.industries].some((list) => list.some((m) => m.kind === 'fuzzy'));
  return {
    criteria,
    ask: { titles: criteria.titles, seniority: criteria.seniority, functions: criteria.functions, hardFilters, fuzzy, unrecognizedTerms: q.terms.length },
  };
}

interface ScoredProfile extends PeopleCandidate {
  confidence: number;
}

/** Ranked profiles (confidence desc, then id), at most `size`. */
export async function rankPeople(db: Db, search: PeopleSearch, size: number): Promise<ScoredProfile[]> {
  const candidates = await findPeopleCandidates(db, search.criteria, Math.max(200, size * 5));
  return candidates
    .map((c) => ({ ...c, confidence: profileConfidence(search.ask, matchProfile(search.ask, c)) }))
    .sort((a, b) => b.confidence - a.confidence || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, size);
}

/** The public item: profile fields and the confidence, nothing else (no seniority, no contacts). */
export function toPeopleItem(p: ScoredProfile): PeopleItem {
  return {
    id: p.id,
    fullName: p.fullName,
    title: p.title,
    companyName: p.companyName,
    companyDomain: p.companyDomain,
    country: p.country,
    city: p.city,
    confidence: p.confidence,
  };
}
