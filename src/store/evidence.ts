// SQL for request-time intelligence: install evidence of a few companies with product,
// category and vendor names. Lookups by table live in the table's module (products.ts,
// categories.ts, vendors.ts, cousage.ts).
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
