// SQL for the AI helpers: install evidence with its sources (for `source` texts), the users
// of a few products, Default-cohort adoption counts over the population, co-usage pairs,
// company facts for suggestion items, and the candidate people of a people prompt.
// Contact details are never read here.
import type { Db } from './db.ts';
import { containsPattern } from './sql.ts';
import type { ProfileRow } from './profiles.ts';
import type { EvidenceTuple } from './intelligence.ts';

/** Firmographic restrictions a prompt may carry (empty lists restrict nothing). */
export interface CompanyFilter {
  industryIds: string[];
  countries: string[];
  employeeBands: string[];
  revenueBands: string[];
}

/** SQL conditions on companies alias `c`, parameters numbered after `offset`. */
function companyConditions(f: CompanyFilter, offset: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const conds: string[] = [];
  const add = (cond: (p: string) => string, v: unknown) => {
    params.push(v);
    conds.push(cond(`$${offset + params.length}`));
  };
  if (f.industryIds.length) add((p) => `c.industry_id = ANY(${p}::text[])`, f.industryIds);
  if (f.countries.length) add((p) => `c.country::text = ANY(${p}::text[])`, f.countries);
  if (f.employeeBands.length) add((p) => `c.employee_band = ANY(${p}::text[])`, f.employeeBands);
  if (f.revenueBands.length) add((p) => `c.revenue_band = ANY(${p}::text[])`, f.revenueBands);
  return { sql: conds.length ? conds.join(' AND ') : 'true', params };
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
export async function productEvidence(
  db: Db, productIds: string[], filter: CompanyFilter, time: TimeBounds | null, limit: number,
): Promise<EvidenceDetail[]> {
  const params: unknown[] = [productIds, limit];
  const where = companyConditions(filter, params.length);
  params.push(...where.params);
  let timeSql = 'true';
  if (time) {
    params.push(time.since, time.until);
    const n = params.length;
    timeSql = `i.${time.field} >= $${n - 1}::timestamptz AND ($${n}::timestamptz IS NULL OR i.${time.field} < $${n}::timestamptz)`;
  }
  return db.query<EvidenceDetail>(
    `SELECT ${EVIDENCE_COLUMNS} ${EVIDENCE_FROM} JOIN companies c ON c.id = i.company_id
      WHERE i.product_id = ANY($1::text[]) AND ${where.sql} AND ${timeSql}
      ORDER BY i.last_verified DESC, i.hit_count DESC, i.company_id, i.product_id
      LIMIT $2::int`,
    params,
  );
}

/** Evidence tuples of every install of the products (for counting in-use users). */
export async function productInstallTuples(db: Db, productIds: string[]): Promise<EvidenceTuple[]> {
  const res = await db.pool.query<EvidenceTuple>({
    text: `SELECT company_id, product_id, extract(epoch FROM last_verified)::float8 * 1000, extract(epoch FROM first_verified)::float8 * 1000,
                  hit_count, intensity::int, cardinality(sources)
             FROM installs WHERE product_id = ANY($1::text[]) ORDER BY company_id, product_id`,
    values: [productIds],
    rowMode: 'array',
  });
  return res.rows;
}

export interface CohortAdoption {
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
  const params: unknown[] = [userIds, limit];
  const where = companyConditions(filter, params.length);
  return db.query<CohortAdoption>(
    `WITH hits AS (
       SELECT company_id, count(*)::int AS users FROM cohorts
        WHERE kind = 'default' AND member_id = ANY($1::text[]) GROUP BY company_id)
     SELECT h.company_id AS "companyId", h.users,
            (SELECT count(*)::int FROM cohorts x WHERE x.company_id = h.company_id AND x.kind = 'default') AS size
       FROM hits h JOIN companies c ON c.id = h.company_id
      WHERE ${where.sql}
      ORDER BY h.users DESC, h.company_id
      LIMIT $2::int`,
    [...params, ...where.params],
  );
}

/** Stored population co-usage: how many companies use both the anchor and the product. */
export async function coUsagePairs(db: Db, anchorIds: string[], productIds: string[]): Promise<{ anchorId: string; productId: string; together: number }[]> {
  if (anchorIds.length === 0 || productIds.length === 0) return [];
  return db.query(
    `SELECT anchor_id AS "anchorId", product_id AS "productId", together FROM product_cousage
      WHERE anchor_id = ANY($1::text[]) AND product_id = ANY($2::text[])`,
    [anchorIds, productIds],
  );
}

/** In-use user counts of products, from the last refresh (absent = 0). */
export async function productUserCounts(db: Db, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.query<{ productId: string; companies: number }>(
    'SELECT product_id AS "productId", companies FROM product_usage_stats WHERE product_id = ANY($1::text[])',
    [productIds],
  );
  return new Map(rows.map((r) => [r.productId, r.companies]));
}

export interface CompanyFacts {
  id: string;
  domain: string;
  name: string | null;
  country: string | null;
  industry: string | null;
}

export async function companyFacts(db: Db, ids: string[]): Promise<CompanyFacts[]> {
  if (ids.length === 0) return [];
  return db.query<CompanyFacts>(
    `SELECT c.id, c.domain, c.name, trim(c.country)::text AS country, i.name AS industry
       FROM companies c LEFT JOIN industries i ON i.id = c.industry_id WHERE c.id = ANY($1::text[])`,
    [ids],
  );
}

/** Products of the given vendors, and of the given categories or any category below them. */
export async function productsOf(db: Db, vendorIds: string[], categoryIds: string[]): Promise<{ id: string; vendorId: string; categoryId: string }[]> {
  if (vendorIds.length === 0 && categoryIds.length === 0) return [];
  return db.query(
    `WITH RECURSIVE tree AS (
       SELECT id FROM categories WHERE id = ANY($2::text[])
       UNION SELECT k.id FROM categories k JOIN tree t ON k.parent_id = t.id)
     SELECT p.id, p.vendor_id AS "vendorId", p.category_id AS "categoryId" FROM products p
      WHERE p.vendor_id = ANY($1::text[]) OR p.category_id IN (SELECT id FROM tree)
      ORDER BY p.id`,
    [vendorIds, categoryIds],
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
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const hard: string[] = [];
  if (k.countries.length) hard.push(`p.country::text = ANY(${p(k.countries)}::text[])`);
  if (k.companyIds.length) hard.push(`p.company_id = ANY(${p(k.companyIds)}::text[])`);
  if (k.industryIds.length) hard.push(`c.industry_id = ANY(${p(k.industryIds)}::text[])`);
  if (k.employeeBands.length) hard.push(`c.employee_band = ANY(${p(k.employeeBands)}::text[])`);
  if (k.productIds.length) {
    hard.push(`EXISTS (SELECT 1 FROM installs i WHERE i.company_id = p.company_id AND i.product_id = ANY(${p(k.productIds)}::text[])
                 AND (${p(k.productSince)}::timestamptz IS NULL OR i.last_verified >= ${p(k.productSince)}::timestamptz))`);
  }
  const soft: string[] = [];
  if (k.titles.length) soft.push(`(p.title ILIKE ANY(${p(k.titles.map(containsPattern))}::text[]))`);
  if (k.seniority.length) soft.push(`(lower(p.seniority) = ANY(${p(k.seniority)}::text[]))`);
  if (k.functions.length) soft.push(`(lower(p.function) = ANY(${p(k.functions)}::text[]))`);
  const order = soft.length ? `${soft.map((s) => `coalesce(${s}, false)::int`).join(' + ')} DESC, p.id` : 'p.id';
  const where = [...hard, ...(soft.length ? [`(${soft.join(' OR ')})`] : [])];
  return db.query<PeopleCandidate>(
    `SELECT p.id, p.full_name AS "fullName", p.title, p.seniority, p.function, c.name AS "companyName", c.domain AS "companyDomain",
            trim(p.country)::text AS country, p.city
       FROM people p LEFT JOIN companies c ON c.id = p.company_id
      WHERE ${where.length ? where.join(' AND ') : 'true'}
      ORDER BY ${order}
      LIMIT ${p(limit)}::int`,
    params,
  );
}

/** In-use users per category, summed over its products from the last refresh (a company running two counts twice: approximate). */
export async function categoryUserCounts(db: Db, categoryIds: string[]): Promise<Map<string, number>> {
  if (categoryIds.length === 0) return new Map();
  const rows = await db.query<{ categoryId: string; companies: number }>(
    `SELECT p.category_id AS "categoryId", sum(s.companies)::int AS companies
       FROM product_usage_stats s JOIN products p ON p.id = s.product_id
      WHERE p.category_id = ANY($1::text[]) GROUP BY p.category_id`,
    [categoryIds],
  );
  return new Map(rows.map((r) => [r.categoryId, r.companies]));
}

/** Ids of the products in one main category (exactly that category). */
export async function productsInCategory(db: Db, categoryId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM products WHERE category_id = $1 ORDER BY id', [categoryId]);
  return rows.map((r) => r.id);
}
