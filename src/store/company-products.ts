// SQL for a company's installed products, joined with product, vendor, company and the
// category chain (main → parent → top). Pages: by product name then id; streams: by product id.
import type { Db } from './db.ts';
import { inBatches, Params } from './sql.ts';

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
  main_category_id: string;
  main_category: string;
  parent_category_id: string | null;
  parent_category: string | null;
  level0_category_id: string;
  level0_category: string;
  first_verified: Date;
  last_verified: Date;
  hit_count: number;
  intensity: number;
}

// Each category's top ancestor, walked down from the roots (categories outside any
// tree, e.g. in a parent cycle, fall back to themselves below).
const TREE = `WITH RECURSIVE tree(id, root_id) AS (
  SELECT id, id FROM categories WHERE parent_id IS NULL
  UNION ALL
  SELECT c.id, t.root_id FROM categories c JOIN tree t ON c.parent_id = t.id
)`;

// The columns of a record, joined onto `picked` (the installs of one page or batch,
// already limited): joins run for the rows returned only, whatever the planner knows.
const SELECT = `SELECT c.id AS company_id, c.name AS company_name, c.domain AS company_domain, ind.name AS industry,
    c.city, c.state, c.postal_code, c.country::text AS country, c.phone, c.revenue_band, c.employee_band,
    v.id AS vendor_id, v.domain AS vendor_domain, v.name AS vendor_name,
    p.id AS product_id, p.name AS product_name, p.short_name, p.image_url, p.product_url, p.public_detail_url,
    p.review_count, p.star_rating, p.avg_rating,
    mc.id AS main_category_id, mc.name AS main_category, pc.id AS parent_category_id, pc.name AS parent_category,
    coalesce(rc.id, mc.id) AS level0_category_id, coalesce(rc.name, mc.name) AS level0_category,
    i.first_verified, i.last_verified, i.hit_count, i.intensity
  FROM picked i
  JOIN companies c ON c.id = i.company_id
  LEFT JOIN industries ind ON ind.id = c.industry_id
  JOIN products p ON p.id = i.product_id
  JOIN vendors v ON v.id = p.vendor_id
  JOIN categories mc ON mc.id = p.category_id
  LEFT JOIN categories pc ON pc.id = mc.parent_id
  LEFT JOIN tree t ON t.id = mc.id
  LEFT JOIN categories rc ON rc.id = t.root_id`;

/** null categoryIds = every install; otherwise only products in these categories. */
function where(companyId: string, categoryIds: string[] | null, p: Params): string {
  let w = `WHERE i.company_id = ${p.add(companyId)}`;
  if (categoryIds) w += ` AND p.category_id = ANY(${p.add(categoryIds, 'text[]')})`;
  return w;
}

export async function countCompanyProducts(db: Db, companyId: string, categoryIds: string[] | null): Promise<number> {
  const p = new Params();
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int8 AS n FROM installs i JOIN products p ON p.id = i.product_id ${where(companyId, categoryIds, p)}`,
    p.values,
  );
  return row!.n;
}

export async function companyProductsPage(db: Db, companyId: string, categoryIds: string[] | null, limit: number, offset: number): Promise<CompanyProductRow[]> {
  const p = new Params();
  const picked = `picked AS (SELECT i.*, p.name AS sort_name FROM installs i JOIN products p ON p.id = i.product_id
    ${where(companyId, categoryIds, p)} ORDER BY p.name, p.id LIMIT ${p.add(limit, 'int')} OFFSET ${p.add(offset, 'int8')})`;
  return db.query<CompanyProductRow>(`${TREE}, ${picked} ${SELECT} ORDER BY i.sort_name, i.product_id`, p.values);
}

/**
 * Every record, read in keyset batches on the installs primary key (company_id,
 * product_id), so each batch is an index range scan and memory stays at one batch.
 * Sorted by product id (pages are sorted by name for people; exports favour speed).
 */
export function streamCompanyProducts(db: Db, companyId: string, categoryIds: string[] | null, batchSize = 1000): AsyncGenerator<CompanyProductRow> {
  return inBatches<CompanyProductRow>(async (after) => {
    const p = new Params();
    let w = where(companyId, categoryIds, p);
    if (after) w += ` AND i.product_id > ${p.add(after.product_id)}`;
    // Without a category filter, no join: the batch is a plain range scan of installs' primary key.
    const join = categoryIds ? 'JOIN products p ON p.id = i.product_id' : '';
    const picked = `picked AS (SELECT i.* FROM installs i ${join} ${w}
      ORDER BY i.product_id LIMIT ${p.add(batchSize, 'int')})`;
    return db.query<CompanyProductRow>(`${TREE}, ${picked} ${SELECT} ORDER BY i.product_id`, p.values);
  }, batchSize);
}
