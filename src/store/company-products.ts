// SQL for a company's installed products, joined with product, vendor and company.
// Pages: by product name then id; streams: by product id.
import type { Db } from '../db/db.ts';
import { inBatches, Params } from '../db/sql.ts';
import { installsAsOf, type AsOf } from './installs-as-of.ts';

export interface CompanyProductRow {
  company_id: string;
  company_name: string | null;
  company_domain: string;
  industry: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  revenue_band: string | null;
  employee_band: string | null;
  vendor_id: string;
  vendor_domain: string;
  vendor_name: string;
  product_id: string;
  product_name: string;
  short_name: string | null;
  image_url: string | null;
  product_url: string | null;
  public_detail_url: string | null;
  review_count: number;
  star_rating: number | null;
  avg_rating: number | null;
  /** The product's category; its name, parent and top category come from the cached chains (catalog.ts). */
  main_category_id: string;
  first_verified: Date;
  last_verified: Date;
  hit_count: number;
  intensity: number;
}

// The columns of a record, joined onto `picked` (the installs of one page or batch,
// already limited): joins run for the rows returned only, whatever the planner knows.
// The category's names and tree (parent, top) are not joined here: the service takes them
// from the cached category chains, which a recursive walk of the whole tree per page cost.
const COLUMNS = `c.id AS company_id, c.name AS company_name, c.domain AS company_domain, ind.name AS industry,
    c.city, c.state, c.postal_code, c.country::text AS country, c.phone, c.revenue_band, c.employee_band,
    v.id AS vendor_id, v.domain AS vendor_domain, v.name AS vendor_name,
    p.id AS product_id, p.name AS product_name, p.short_name, p.image_url, p.product_url, p.public_detail_url,
    p.review_count, p.star_rating, p.avg_rating, p.category_id AS main_category_id,
    i.first_verified, i.last_verified, i.hit_count, i.intensity`;
const FROM_PICKED = `FROM picked i
  JOIN companies c ON c.id = i.company_id
  LEFT JOIN industries ind ON ind.id = c.industry_id
  JOIN products p ON p.id = i.product_id
  JOIN vendors v ON v.id = p.vendor_id`;

/** The installs to read, as `i`: the table, or those of a past moment (installs-as-of.ts). */
function installsOf(companyId: string, asOf: AsOf | null, p: Params): string {
  return asOf ? `${installsAsOf(p.add(companyId), asOf, p)} i` : 'installs i';
}

/** null categoryIds = every install; otherwise only products in these categories. */
function where(companyId: string, categoryIds: string[] | null, p: Params): string {
  let w = `WHERE i.company_id = ${p.add(companyId)}`;
  if (categoryIds) w += ` AND p.category_id = ANY(${p.add(categoryIds, 'text[]')})`;
  return w;
}

async function countCompanyProducts(db: Db, companyId: string, categoryIds: string[] | null, asOf: AsOf | null): Promise<number> {
  const p = new Params();
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int8 AS n FROM ${installsOf(companyId, asOf, p)} JOIN products p ON p.id = i.product_id ${where(companyId, categoryIds, p)}`,
    p.values,
  );
  return row!.n;
}

/**
 * One page of records by product name, and how many records there are in all (counted in the
 * same statement; a page past the end has no row to carry the count, so it is counted apart).
 */
export async function companyProductsPage(
  db: Db,
  companyId: string,
  categoryIds: string[] | null,
  limit: number,
  offset: number,
  asOf: AsOf | null = null,
): Promise<{ rows: CompanyProductRow[]; total: number }> {
  const p = new Params();
  const picked = `WITH picked AS (SELECT i.*, p.name AS sort_name, count(*) OVER () AS total FROM ${installsOf(companyId, asOf, p)} JOIN products p ON p.id = i.product_id
    ${where(companyId, categoryIds, p)} ORDER BY p.name, p.id LIMIT ${p.add(limit, 'int')} OFFSET ${p.add(offset, 'int8')})`;
  const rows = await db.query<CompanyProductRow & { total: number }>(
    `${picked} SELECT i.total, ${COLUMNS} ${FROM_PICKED} ORDER BY i.sort_name, i.product_id`,
    p.values,
  );
  if (rows.length === 0) return { rows: [], total: offset === 0 ? 0 : await countCompanyProducts(db, companyId, categoryIds, asOf) };
  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]!.total };
}

/**
 * Every record, read in keyset batches on the installs primary key (company_id,
 * product_id), so each batch is an index range scan and memory stays at one batch.
 * Sorted by product id (pages are sorted by name for people; exports favour speed).
 */
export function streamCompanyProducts(
  db: Db,
  companyId: string,
  categoryIds: string[] | null,
  asOf: AsOf | null = null,
  batchSize = 1000,
): AsyncGenerator<CompanyProductRow> {
  return inBatches<CompanyProductRow>(async (after) => {
    const p = new Params();
    const installs = installsOf(companyId, asOf, p);
    let w = where(companyId, categoryIds, p);
    if (after) w += ` AND i.product_id > ${p.add(after.product_id)}`;
    // Without a category filter, no join: the batch is a plain range scan of installs' primary key.
    const join = categoryIds ? 'JOIN products p ON p.id = i.product_id' : '';
    const picked = `picked AS (SELECT i.* FROM ${installs} ${join} ${w}
      ORDER BY i.product_id LIMIT ${p.add(batchSize, 'int')})`;
    return db.query<CompanyProductRow>(`WITH ${picked} SELECT ${COLUMNS} ${FROM_PICKED} ORDER BY i.product_id`, p.values);
  }, batchSize);
}
