// SQL for people profiles: filtered search (count, page, keyset batches for exports), one
// profile. Contact details are NOT read here:
// search never touches the contacts table (store/purchases.ts owns contact reads).
import { companiesByIds } from './companies.ts';
import type { Db } from '../db/db.ts';
import { containsPattern, Params, phrasesCondition } from '../db/sql.ts';

/** Resolved search filters: every list is ANDed with the others, values inside a list ORed. */
export interface ProfileFilter {
  /** Free-text words; each must be contained in full name, title or company name. */
  terms: string[];
  /** Whole words or phrases of the title (case-insensitive), any of (acronyms already expanded). */
  titles: string[];
  /** Lowercased; exact, any of. */
  seniority: string[];
  /** Lowercased; exact, any of. */
  functions: string[];
  /** ISO-2 codes, upper case. */
  countries: string[];
  companyIds: string[];
  industryIds: string[];
}

export interface ProfileRow {
  id: string;
  fullName: string;
  title: string | null;
  seniority: string | null;
  function: string | null;
  companyName: string | null;
  companyDomain: string | null;
  country: string | null;
  city: string | null;
  linkedinUrl: string | null;
}

// People and companies are sharded apart on Citus (people by id: a person may have no company),
// where a join of the two is refused. So the conditions on a person's company are subqueries
// of company ids, which Citus runs first and hands to the people shards, and a page's company
// names and domains are read by id afterwards (withCompanies); the same SQL on every engine.
const SUMMARY_COLUMNS = `
  p.id, p.full_name AS "fullName", p.title, p.seniority, p.function,
  p.company_id AS "companyId", p.country::text AS country, p.city,
  p.linkedin_url AS "linkedinUrl"`;

const FROM = 'FROM people p';

/** WHERE condition (at least "true"), its parameters added to `p`. */
function whereOf(f: ProfileFilter, p: Params): string {
  const conds: string[] = [];
  for (const term of f.terms) {
    const x = p.add(containsPattern(term));
    // Written as a union of index-friendly parts (trigram indexes on people.full_name,
    // people.title and companies.name) rather than one OR across the join, which forces a
    // scan of every person.
    conds.push(`p.id IN (
      SELECT id FROM people WHERE full_name ILIKE ${x} OR title ILIKE ${x}
      UNION ALL
      SELECT id FROM people WHERE company_id IN (SELECT id FROM companies WHERE name ILIKE ${x}))`);
  }
  if (f.titles.length > 0) conds.push(phrasesCondition('p.title', f.titles, p));
  if (f.seniority.length > 0) conds.push(`lower(p.seniority) = ANY(${p.add(f.seniority, 'text[]')})`);
  if (f.functions.length > 0) conds.push(`lower(p.function) = ANY(${p.add(f.functions, 'text[]')})`);
  // Compared as char(2) (no cast on the column, so its statistics and indexes apply); one
  // country is an equality, so the (country, id) index also yields the id order.
  if (f.countries.length === 1) conds.push(`p.country = ${p.add(f.countries[0], 'bpchar')}`);
  else if (f.countries.length > 1) conds.push(`p.country = ANY(${p.add(f.countries, 'bpchar[]')})`);
  if (f.companyIds.length > 0) conds.push(`p.company_id = ANY(${p.add(f.companyIds, 'text[]')})`);
  if (f.industryIds.length > 0) conds.push(`p.company_id IN (SELECT id FROM companies WHERE industry_id = ANY(${p.add(f.industryIds, 'text[]')}))`);
  return conds.length > 0 ? conds.join(' AND ') : 'true';
}

/**
 * Rows of people with their company's name and domain, read in one statement by the ids the
 * rows name (a router query per shard on Citus); a person without a company keeps nulls.
 */
export async function withCompanies<R extends { companyId: string | null }>(
  db: Db,
  rows: R[],
): Promise<(Omit<R, 'companyId'> & { companyName: string | null; companyDomain: string | null })[]> {
  const companies = await companiesByIds(
    db,
    rows.map((r) => r.companyId),
  );
  return rows.map(({ companyId, ...rest }) => {
    const c = companyId === null ? undefined : companies.get(companyId);
    return { ...rest, companyName: c?.name ?? null, companyDomain: c?.domain ?? null };
  });
}

type StoredProfile = Omit<ProfileRow, 'companyName' | 'companyDomain'> & { companyId: string | null };

export async function countProfiles(db: Db, filter: ProfileFilter): Promise<number> {
  const p = new Params();
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${FROM} WHERE ${whereOf(filter, p)}`, p.values);
  return row?.n ?? 0;
}

/** One page, ordered by id (unique, so pages never repeat or skip). */
export async function findProfilePage(db: Db, filter: ProfileFilter, offset: number, limit: number): Promise<ProfileRow[]> {
  const p = new Params();
  const rows = await db.query<StoredProfile>(
    `SELECT ${SUMMARY_COLUMNS} ${FROM} WHERE ${whereOf(filter, p)} ORDER BY p.id LIMIT ${p.add(limit, 'int')} OFFSET ${p.add(offset, 'int8')}`,
    p.values,
  );
  return withCompanies(db, rows);
}

/** The next batch after `afterId` (keyset), for streaming exports without OFFSET. */
export async function findProfileBatch(db: Db, filter: ProfileFilter, afterId: string | null, limit: number): Promise<ProfileRow[]> {
  const p = new Params();
  const where = whereOf(filter, p);
  // Only a real lower bound: `$n IS NULL OR p.id > $n` is no index condition in a generic plan.
  const keyset = afterId === null ? '' : ` AND p.id > ${p.add(afterId, 'text')}`;
  const rows = await db.query<StoredProfile>(`SELECT ${SUMMARY_COLUMNS} ${FROM} WHERE ${where}${keyset} ORDER BY p.id LIMIT ${p.add(limit, 'int')}`, p.values);
  return withCompanies(db, rows);
}

export async function findProfile(db: Db, id: string): Promise<ProfileRow | undefined> {
  const rows = await db.query<StoredProfile>(`SELECT ${SUMMARY_COLUMNS} ${FROM} WHERE p.id = $1`, [id]);
  return (await withCompanies(db, rows))[0];
}
