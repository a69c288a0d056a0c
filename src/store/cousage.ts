// SQL for the usage statistics the refresh job writes (product_usage_stats, product_cousage;
// writes: intelligence.ts): in-use users per product and category, and co-usage pairs.
import type { Db } from '../db/db.ts';

/** In-use user counts of products, from the last refresh (absent = 0). */
export async function productUserCounts(db: Db, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.query<{ productId: string; companies: number }>(
    'SELECT product_id AS "productId", companies FROM product_usage_stats WHERE product_id = ANY($1::text[])',
    [productIds],
  );
  return new Map(rows.map((r) => [r.productId, r.companies]));
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

/** Stored population co-usage: how many companies use both the anchor and the product. */
export async function coUsagePairs(db: Db, anchorIds: string[], productIds: string[]): Promise<{ anchorId: string; productId: string; together: number }[]> {
  if (anchorIds.length === 0 || productIds.length === 0) return [];
  return db.query(
    `SELECT anchor_id AS "anchorId", product_id AS "productId", together FROM product_cousage
      WHERE anchor_id = ANY($1::text[]) AND product_id = ANY($2::text[])`,
    [anchorIds, productIds],
  );
}

interface AnchorCoUsage {
  /** Companies using the anchor (0 when the refresh saw none). */
  anchorUsers: number;
  /** Per partner product: companies using both it and the anchor. */
  together: Map<string, number>;
}

/** The anchor's user count and its stored co-usage pairs, in one statement. */
export async function anchorCoUsage(db: Db, anchorId: string): Promise<AnchorCoUsage> {
  const rows = await db.queryArrays<[number | null, string | null, number | null]>(
    `SELECT s.companies, c.product_id, c.together
       FROM (SELECT $1::text AS id) a
       LEFT JOIN product_usage_stats s ON s.product_id = a.id
       LEFT JOIN product_cousage c ON c.anchor_id = a.id`,
    [anchorId],
  );
  const together = new Map<string, number>();
  for (const [, productId, n] of rows) if (productId !== null) together.set(productId, n!);
  return { anchorUsers: rows[0]?.[0] ?? 0, together };
}
