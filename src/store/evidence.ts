// SQL for request-time intelligence: install evidence of a few companies with product and
// category names, catalog lookups used by the filters, products for related answers, and
// the global co-usage counts around one anchor product.
import type { Db } from './db.ts';

export interface InstallEvidenceRow {
  companyId: string;
  productId: string;
  productName: string;
  categoryId: string;
  categoryName: string;
  vendorId: string;
  vendorDomain: string;
  firstVerified: Date;
  lastVerified: Date;
  hitCount: number;
  intensity: number;
  sourceCount: number;
}

export async function installEvidence(db: Db, companyIds: string[], productIds?: string[]): Promise<InstallEvidenceRow[]> {
  return db.query<InstallEvidenceRow>(
    `SELECT i.company_id AS "companyId", i.product_id AS "productId", p.name AS "productName",
            p.category_id AS "categoryId", c.name AS "categoryName", v.id AS "vendorId", v.domain AS "vendorDomain",
            i.first_verified AS "firstVerified", i.last_verified AS "lastVerified", i.hit_count AS "hitCount",
            i.intensity::int AS intensity, cardinality(i.sources) AS "sourceCount"
       FROM installs i
       JOIN products p ON p.id = i.product_id
       JOIN categories c ON c.id = p.category_id
       JOIN vendors v ON v.id = p.vendor_id
      WHERE i.company_id = ANY($1::text[])
        AND ($2::text[] IS NULL OR i.product_id = ANY($2::text[]))`,
    [companyIds, productIds ?? null],
  );
}

export interface ProductRef {
  id: string;
  categoryId: string;
  vendorId: string;
}

export async function findProducts(db: Db, ids: string[]): Promise<ProductRef[]> {
  return db.query<ProductRef>('SELECT id, category_id AS "categoryId", vendor_id AS "vendorId" FROM products WHERE id = ANY($1::text[])', [ids]);
}

export async function findVendorIdByDomain(db: Db, domain: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM vendors WHERE domain = $1', [domain]);
  return row?.id ?? null;
}

/** The category and every category below it. */
export async function categoryWithDescendants(db: Db, categoryId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE tree AS (
       SELECT id FROM categories WHERE id = $1
       UNION SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id)
     SELECT id FROM tree`,
    [categoryId],
  );
  return rows.map((r) => r.id);
}

export interface ProductDetail {
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

export interface GlobalCoUsage {
  anchorUsers: number;
  together: Map<string, number>;
  users: Map<string, number>;
}

/** The anchor's stored co-usage pairs with each partner's user count. */
export async function globalCoUsage(db: Db, anchorId: string, extraProducts: string[]): Promise<GlobalCoUsage> {
  const pairs = await db.query<{ productId: string; together: number }>(
    'SELECT product_id AS "productId", together FROM product_cousage WHERE anchor_id = $1',
    [anchorId],
  );
  const ids = [...new Set([anchorId, ...pairs.map((p) => p.productId), ...extraProducts])];
  const users = await db.query<{ productId: string; companies: number }>(
    'SELECT product_id AS "productId", companies FROM product_usage_stats WHERE product_id = ANY($1::text[])',
    [ids],
  );
  const userMap = new Map(users.map((u) => [u.productId, u.companies]));
  return { anchorUsers: userMap.get(anchorId) ?? 0, together: new Map(pairs.map((p) => [p.productId, p.together])), users: userMap };
}
