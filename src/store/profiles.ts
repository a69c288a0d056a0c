// SQL for people profiles: filtered search (count, page, keyset batches for exports), one
// profile, and the lookups that resolve filter values. Contact details are NOT read here:
// search never touches the contacts table (store/purchases.ts owns contact reads).
import type { Db } from './db.ts';
import { containsPattern } from './sql.ts';

/** Resolved search filters: every list is ANDed with the others, values inside a list ORed. */
export interface ProfileFilter {
  /** Free-text words; each must be contained in full name, title or company name. */
  terms: string[];
  /** Contained in the title (case-insensitive), any of. */
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

const SUMMARY_COLUMNS = `
  p.id, p.full_name AS "fullName", p.title, p.seniority, p.function,
  c.name AS "companyName", c.domain AS "companyDomain", p.country::text AS country, p.city,
  p.linkedin_url AS "linkedinUrl"`;

const FROM = 'FROM people p LEFT JOIN companies c ON c.id = p.company_id';


/** WHERE clause (always at least "true") and its parameters, numbered from 1. */
function whereOf(f: ProfileFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const conds: string[] = [];
  for (const term of f.terms) {
    const x = p(containsPattern(term));
    // Written as a union of index-friendly parts (trigram indexes on people.full_name,
    // people.title and companies.name) rather than one OR across the join, which forces a
    // scan of every person.
    conds.push(`p.id IN (
      SELECT id FROM people WHERE full_name ILIKE ${x} OR title ILIKE ${x}
      UNION ALL
      SELECT pp.id FROM companies cc JOIN people pp ON pp.company_id = cc.id WHERE cc.name ILIKE ${x})`);
  }
  if (f.titles.length > 0) conds.push(`p.title ILIKE ANY(${p(f.titles.map(containsPattern))}::text[])`);
  if (f.seniority.length > 0) conds.push(`lower(p.seniority) = ANY(${p(f.seniority)}::text[])`);
  if (f.functions.length > 0) conds.push(`lower(p.function) = ANY(${p(f.functions)}::text[])`);
  if (f.countries.length > 0) conds.push(`p.country::text = ANY(${p(f.countries)}::text[])`);
  if (f.companyIds.length > 0) conds.push(`p.company_id = ANY(${p(f.companyIds)}::text[])`);
  if (f.industryIds.length > 0) conds.push(`c.industry_id = ANY(${p(f.industryIds)}::text[])`);
  return { sql: conds.length > 0 ? conds.join(' AND ') : 'true', params };
}

export async function countProfiles(db: Db, filter: ProfileFilter): Promise<number> {
  const w = whereOf(filter);
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${FROM} WHERE ${w.sql}`, w.params);
  return row?.n ?? 0;
}

/** One page, ordered by id (unique, so pages never repeat or skip). */
export async function findProfilePage(db: Db, filter: ProfileFilter, offset: number, limit: number): Promise<ProfileRow[]> {
  const w = whereOf(filter);
  const n = w.params.length;
  return db.query<ProfileRow>(
    `SELECT ${SUMMARY_COLUMNS} ${FROM} WHERE ${w.sql} ORDER BY p.id LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...w.params, limit, offset],
  );
}

/** The next batch after `afterId` (keyset), for streaming exports without OFFSET. */
export async function findProfileBatch(db: Db, filter: ProfileFilter, afterId: string | null, limit: number): Promise<ProfileRow[]> {
  const w = whereOf(filter);
  const n = w.params.length;
  return db.query<ProfileRow>(
    `SELECT ${SUMMARY_COLUMNS} ${FROM} WHERE ${w.sql} AND ($${n + 1}::text IS NULL OR p.id > $${n + 1}::text) ORDER BY p.id LIMIT $${n + 2}`,
    [...w.params, afterId, limit],
  );
}

export async function findProfile(db: Db, id: string): Promise<ProfileRow | undefined> {
  const [row] = await db.query<ProfileRow>(`SELECT ${SUMMARY_COLUMNS} ${FROM} WHERE p.id = $1`, [id]);
  return row;
}

/** Company ids of the given (normalized) domains; unknown domains are simply absent. */
export async function findCompanyIdsByDomain(db: Db, domains: string[]): Promise<{ id: string; domain: string }[]> {
  return db.query<{ id: string; domain: string }>('SELECT id, domain FROM companies WHERE domain = ANY($1::text[])', [domains]);
}

/** Industries matched by id or by name (case-insensitive). */
export async function findIndustries(db: Db, idsOrNames: string[]): Promise<{ id: string; name: string }[]> {
  return db.query<{ id: string; name: string }>(
    'SELECT id, name FROM industries WHERE id = ANY($1::text[]) OR lower(name) = ANY($2::text[])',
    [idsOrNames, idsOrNames.map((s) => s.toLowerCase())],
  );
}
