// SQL for request-time intelligence: the install signals of a few companies, and their in-use
// stacks as the refresh materialized them (company_stacks), with product, category and
// vendor names. Lookups by table live in the table's module (products.ts,
// categories.ts, vendors.ts, cousage.ts).
import type { Db } from '../db/db.ts';
import { loadProductLabels, type ProductLabel } from './catalog.ts';

export interface InstallSignalRow extends ProductLabel {
  companyId: string;
  firstVerified: Date;
  lastVerified: Date;
  hitCount: number;
  intensity: number;
  sourceCount: number;
}

export async function installSignals(db: Db, companyIds: string[], productIds?: string[]): Promise<InstallSignalRow[]> {
  return db.query<InstallSignalRow>(
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

export type StackProductRow = ProductLabel;

/**
 * The product ids of the stacks the refresh materialized, per company id (companies without a
 * row are missing from the map). Related products need nothing else: reading each product's
 * names for 25 peers' stacks was 1 ms of PostgreSQL per request, more than the rest together.
 */
export async function materializedStackIds(db: Db, companyIds: string[]): Promise<Map<string, string[]>> {
  // The arrays come as space-joined text: node-postgres's array parser cost ≈ 0.25 ms per
  // 25 stacks in a profile, a split almost nothing; ids never hold a space (letters, digits
  // and _ . : - by the import rules).
  const rows = await db.queryArrays<[string, string]>(
    `SELECT company_id, array_to_string(product_ids, ' ') FROM company_stacks WHERE company_id = ANY($1::text[])`,
    [companyIds],
  );
  return new Map(rows.map(([companyId, joined]) => [companyId, joined === '' ? [] : joined.split(' ')]));
}

/**
 * The materialized in-use stacks of these companies: company id → its products, for the
 * companies the refresh has computed (an empty list when nothing is in use); companies
 * missing from the map have no row yet. One short read of the stacks; the products' names
 * come from the labels kept in process (catalog.ts) rather than a join that repeats them
 * for every peer using a product (25 peers: ≈ 850 joined rows, 1.3 ms of PostgreSQL), or a
 * second read of ≈ 300 products (1 ms).
 */
export async function materializedStacks(db: Db, companyIds: string[]): Promise<Map<string, StackProductRow[]>> {
  const [stackIds, labels] = [await materializedStackIds(db, companyIds), await loadProductLabels(db)];
  const stacks = new Map<string, StackProductRow[]>();
  for (const [companyId, ids] of stackIds) {
    const list: StackProductRow[] = [];
    for (const id of ids) {
      const product = labels.get(id);
      // A product deleted since the refresh has no label any more: left out.
      if (product) list.push(product);
    }
    stacks.set(companyId, list);
  }
  return stacks;
}
