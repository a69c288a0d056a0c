// SQL for products: lookups by id, a vendor's products (paged), the products of vendors or
// category subtrees, and products with their vendor and category names.
import type { Db } from '../db/db.ts';
import { containsPattern, Params } from '../db/sql.ts';

export interface ProductRef {
  id: string;
  categoryId: string;
  vendorId: string;
}

export async function findProducts(db: Db, ids: string[]): Promise<ProductRef[]> {
  return db.query<ProductRef>('SELECT id, category_id AS "categoryId", vendor_id AS "vendorId" FROM products WHERE id = ANY($1::text[])', [ids]);
}

export interface ProductRow {
  id: string;
  name: string;
  short_name: string | null;
  description: string;
  features: string[];
  review_count: number;
  star_rating: number | null;
  avg_rating: number | null;
  image_url: string | null;
  product_url: string | null;
  public_detail_url: string | null;
  category_id: string;
  category: string;
  vendor_id: string;
  vendor_domain: string;
  vendor_name: string;
  vendor_logo_url: string | null;
}

/**
 * A page of catalog products: a vendor's (sorted by name), or every vendor's whose name
 * contains `nameContains` (exact names first, then names starting with it, then by name).
 */
export async function catalogProducts(
  db: Db,
  q: { vendorId?: string; nameContains?: string },
  limit: number,
  offset: number,
): Promise<{ total: number; rows: ProductRow[] }> {
  const p = new Params();
  const where: string[] = [];
  if (q.vendorId) where.push(`p.vendor_id = ${p.add(q.vendorId)}`);
  if (q.nameContains) where.push(`p.name ILIKE ${p.add(containsPattern(q.nameContains))}`);
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM products p ${whereSql}`, [...p.values]);
  let rank = ''; // added after the count, whose statement must not carry an unused parameter
  if (q.nameContains && !q.vendorId) {
    const name = p.add(q.nameContains.toLowerCase());
    rank = `lower(p.name) = ${name} DESC, starts_with(lower(p.name), ${name}) DESC, `;
  }
  const rows = await db.query<ProductRow>(
    `SELECT p.id, p.name, p.short_name, p.description, p.features, p.review_count, p.star_rating, p.avg_rating,
            p.image_url, p.product_url, p.public_detail_url, p.category_id, cat.name AS category,
            v.id AS vendor_id, v.domain AS vendor_domain, v.name AS vendor_name, v.logo_url AS vendor_logo_url
     FROM products p JOIN vendors v ON v.id = p.vendor_id JOIN categories cat ON cat.id = p.category_id
     ${whereSql} ORDER BY ${rank}lower(p.name), p.id LIMIT ${p.add(limit, 'int')} OFFSET ${p.add(offset, 'int8')}`,
    p.values,
  );
  return { total: count!.n, rows };
}

interface ProductDetail {
  id: string;
  name: string;
  description: string;
  logo: string | null;
  category: string;
  categoryId: string;
  reviewCount: number;
  starRating: number | null;
  avgRating: number | null;
  vendorId: string;
  vendorDomain: string;
  vendorName: string;
  vendorLogo: string | null;
}

export async function productDetails(db: Db, ids: string[]): Promise<ProductDetail[]> {
  return db.query<ProductDetail>(
    `SELECT p.id, p.name, p.description, p.image_url AS logo, c.name AS category, p.category_id AS "categoryId",
            p.review_count AS "reviewCount", p.star_rating AS "starRating", p.avg_rating AS "avgRating",
            v.id AS "vendorId", v.domain AS "vendorDomain", v.name AS "vendorName", v.logo_url AS "vendorLogo"
       FROM products p JOIN categories c ON c.id = p.category_id JOIN vendors v ON v.id = p.vendor_id
      WHERE p.id = ANY($1::text[])`,
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

/** Ids of the products in one main category (exactly that category). */
export async function productsInCategory(db: Db, categoryId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM products WHERE category_id = $1 ORDER BY id', [categoryId]);
  return rows.map((r) => r.id);
}
