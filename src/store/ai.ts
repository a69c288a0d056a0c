// SQL for the AI helpers (their multi-table queries): install evidence with its sources
// (for `source` texts), Default-cohort adoption counts over the population, and the
// candidate people of a people prompt. Contact details are never read here. Lookups by
// table live in the table's module (products.ts, companies.ts, cousage.ts).
import type { Db } from '../db/db.ts';
import { Params, phrasesCondition } from '../db/sql.ts';
import { withCompanies, type ProfileRow } from './profiles.ts';
import type { InstallSignalTuple } from './intelligence.ts';

/** Firmographic restrictions a prompt may carry (empty lists restrict nothing). */
export interface CompanyFilter {
  industryIds: string[];
  countries: string[];
  employeeBands: string[];
  revenueBands: string[];
}

/** SQL condition on companies alias `c` (at least "true"), its parameters added to `p`. */
function companyConditions(f: CompanyFilter, p: Params): string {
  const conds: string[] = [];
  if (f.industryIds.length) conds.push(`c.industry_id = ANY(${p.add(f.industryIds, 'text[]')})`);
  if (f.countries.length) conds.push(`c.country::text = ANY(${p.add(f.countries, 'text[]')})`);
  if (f.employeeBands.length) conds.push(`c.employee_band = ANY(${p.add(f.employeeBands, 'text[]')})`);
  if (f.revenueBands.length) conds.push(`c.revenue_band = ANY(${p.add(f.revenueBands, 'text[]')})`);
  return conds.length ? conds.join(' AND ') : 'true';
}

export interface EvidenceDetail {
  companyId: string;
  productId: string;
  product: string;
  categoryId: string;
  category: string;
  vendorDomain: string;
  firstVerified: Date;
  lastVerified: Date;
  hitCount: number;
  intensity: number;
  sources: string[];
}

const EVIDENCE_COLUMNS = `
  i.company_id AS "companyId", i.product_id AS "productId", p.name AS product, p.category_id AS "categoryId",
  k.name AS category, v.domain AS "vendorDomain", i.first_verified AS "firstVerified", i.last_verified AS "lastVerified",
  i.hit_count AS "hitCount", i.intensity::int AS intensity, i.sources`;
const EVIDENCE_FROM = `FROM installs i JOIN products p ON p.id = i.product_id JOIN categories k ON k.id = p.category_id JOIN vendors v ON v.id = p.vendor_id`;

/** Every install of one company, with product, category and sources. */
export async function companyEvidence(db: Db, companyId: string): Promise<EvidenceDetail[]> {
  return db.query<EvidenceDetail>(`SELECT ${EVIDENCE_COLUMNS} ${EVIDENCE_FROM} WHERE i.company_id = $1 ORDER BY i.product_id`, [companyId]);
}

export interface TimeBounds {
  field: 'first_verified' | 'last_verified';
  since: Date;
  until: Date | null;
}

/**
 * Installs of the products at companies passing the filter, freshest and best-evidenced
 * first, at most `limit` (the caller ranks them by calibrated confidence).
 */
export async function productEvidence(db: Db, productIds: string[], filter: CompanyFilter, time: TimeBounds | null, limit: number): Promise<EvidenceDetail[]> {
  const p = new Params();
  const products = p.add(productIds, 'text[]');
  const where = companyConditions(filter, p);
  let timeSql = 'true';
  if (time) {
    const until = p.add(time.until, 'timestamptz');
    timeSql = `i.${time.field} >= ${p.add(time.since, 'timestamptz')} AND (${until} IS NULL OR i.${time.field} < ${until})`;
  }
  return db.query<EvidenceDetail>(
    `SELECT ${EVIDENCE_COLUMNS} ${EVIDENCE_FROM} JOIN companies c ON c.id = i.company_id
      WHERE i.product_id = ANY(${products}) AND ${where} AND ${timeSql}
      ORDER BY i.last_verified DESC, i.hit_count DESC, i.company_id, i.product_id
      LIMIT ${p.add(limit, 'int')}`,
    p.values,
  );
}

/** Evidence tuples of every install of the products (for counting in-use users). */
export async function productInstallTuples(db: Db, productIds: string[]): Promise<InstallSignalTuple[]> {
  return db.queryArrays<InstallSignalTuple>(
    `SELECT company_id, product_id, extract(epoch FROM last_verified)::float8 * 1000, extract(epoch FROM first_verified)::float8 * 1000,
            hit_count, intensity::int, cardinality(sources)
       FROM installs WHERE product_id = ANY($1::text[]) ORDER BY company_id, product_id`,
    [productIds],
  );
}

interface CohortAdoption {
  companyId: string;
  /** Default-cohort members among the given users. */
  users: number;
  /** Default-cohort size. */
  size: number;
}

/**
 * Companies passing the filter whose Default cohort contains at least one of `userIds`,
 * most such members first, at most `limit`.
 */
export async function cohortAdoption(db: Db, userIds: string[], filter: CompanyFilter, limit: number): Promise<CohortAdoption[]> {
  if (userIds.length === 0) return [];
  const p = new Params();
  return db.query<CohortAdoption>(
    `WITH hits AS (
       SELECT company_id, count(*)::int AS users FROM cohorts
        WHERE kind = 'default' AND member_id = ANY(${p.add(userIds, 'text[]')}) GROUP BY company_id)
     SELECT h.company_id AS "companyId", h.users,
            (SELECT count(*)::int FROM cohorts x WHERE x.company_id = h.company_id AND x.kind = 'default') AS size
       FROM hits h JOIN companies c ON c.id = h.company_id
      WHERE ${companyConditions(filter, p)}
      ORDER BY h.users DESC, h.company_id
      LIMIT ${p.add(limit, 'int')}`,
    p.values,
  );
}

export interface PeopleCriteria {
  /** Title fragments, matched case-insensitively anywhere in the title. */
  titles: string[];
  /** Lowercase. */
  seniority: string[];
  /** Lowercase. */
  functions: string[];
  countries: string[];
  companyIds: string[];
  industryIds: string[];
  employeeBands: string[];
  /** People at companies with evidence of any of these products since `productSince`. */
  productIds: string[];
  productSince: Date | null;
}

/** A profile summary as the AI people helper ranks it (no LinkedIn URL in its answer). */
export type PeopleCandidate = Omit<ProfileRow, 'linkedinUrl'>;

/**
 * People passing every hard criterion (place, company, industry, size, product users) and,
 * when soft criteria (titles, seniority, functions) are given, at least one of them; those
 * meeting most soft criteria first, then by id. At most `limit`.
 */
export async function findPeopleCandidates(db: Db, k: PeopleCriteria, limit: number): Promise<PeopleCandidate[]> {
  const p = new Params();
  const hard: string[] = [];
  if (k.countries.length) hard.push(`p.country::text = ANY(${p.add(k.countries, 'text[]')})`);
  if (k.companyIds.length) hard.push(`p.company_id = ANY(${p.add(k.companyIds, 'text[]')})`);
  // The company's criteria as subqueries of company ids, not a join: people and companies are
  // sharded apart on Citus (store/profiles.ts), which refuses the join.
  const company: string[] = [];
  if (k.industryIds.length) company.push(`industry_id = ANY(${p.add(k.industryIds, 'text[]')})`);
  if (k.employeeBands.length) company.push(`employee_band = ANY(${p.add(k.employeeBands, 'text[]')})`);
  if (company.length) hard.push(`p.company_id IN (SELECT id FROM companies WHERE ${company.join(' AND ')})`);
  if (k.productIds.length) {
    const since = p.add(k.productSince, 'timestamptz');
    hard.push(`p.company_id IN (SELECT i.company_id FROM installs i WHERE i.product_id = ANY(${p.add(k.productIds, 'text[]')})
                 AND (${since} IS NULL OR i.last_verified >= ${since}))`);
  }
  const soft: string[] = [];
  if (k.titles.length) soft.push(phrasesCondition('p.title', k.titles, p));
  if (k.seniority.length) soft.push(`(lower(p.seniority) = ANY(${p.add(k.seniority, 'text[]')}))`);
  if (k.functions.length) soft.push(`(lower(p.function) = ANY(${p.add(k.functions, 'text[]')}))`);
  const order = soft.length ? `${soft.map((s) => `coalesce(${s}, false)::int`).join(' + ')} DESC, p.id` : 'p.id';
  const where = [...hard, ...(soft.length ? [`(${soft.join(' OR ')})`] : [])];
  const rows = await db.query<Omit<PeopleCandidate, 'companyName' | 'companyDomain'> & { companyId: string | null }>(
    `SELECT p.id, p.full_name AS "fullName", p.title, p.seniority, p.function, p.company_id AS "companyId",
            trim(p.country)::text AS country, p.city
       FROM people p
      WHERE ${where.length ? where.join(' AND ') : 'true'}
      ORDER BY ${order}
      LIMIT ${p.add(limit, 'int')}`,
    p.values,
  );
  return withCompanies(db, rows);
}
