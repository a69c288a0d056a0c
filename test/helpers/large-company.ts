// One company with many installed products, generated in SQL (set-based, fast on both
// engines). Every 250th product name starts with a formula character.
import type { Db } from '../../src/db/db.ts';
import { insertWorld } from './fixtures.ts';

export const FORMULA_PREFIXES = ['=', '+', '-', '@'];

export async function insertLargeCompany(db: Db, products: number): Promise<void> {
  await insertWorld(db, {
    categories: [
      { id: 'cat_big', name: 'Big' },
      { id: 'cat_big_child', name: 'Big Child', parent_id: 'cat_big' },
    ],
    vendors: [{ id: 'ven_big', domain: 'bigvendor.com', name: 'Big Vendor' }],
    companies: [{ id: 'cmp_big', domain: 'big.com', name: 'Big Co' }],
  });
  await db.query(
    `INSERT INTO products (id, vendor_id, category_id, name, short_name, description, features, review_count, star_rating, avg_rating, image_url, product_url, public_detail_url)
     SELECT 'prd_' || lpad(g::text, 6, '0'), 'ven_big', CASE WHEN g % 2 = 0 THEN 'cat_big' ELSE 'cat_big_child' END,
            CASE WHEN g % 250 = 0 THEN (ARRAY['=', '+', '-', '@'])[(g / 250) % 4 + 1] || 'cmd ' || g ELSE 'Product ' || lpad(g::text, 6, '0') END,
            'P' || g, 'A product, "quoted", with commas', ARRAY['a', 'b'], g % 100, 4.5, 4.25,
            'https://img.example/' || g || '.png', 'https://p.example/' || g, 'https://d.example/' || g
     FROM generate_series(1, $1::int) AS g`,
    [products],
  );
  await db.query(
    `INSERT INTO installs (company_id, product_id, first_verified, last_verified, hit_count, intensity, sources)
     SELECT 'cmp_big', 'prd_' || lpad(g::text, 6, '0'), '2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z', g, g % 101, ARRAY['web']
     FROM generate_series(1, $1::int) AS g`,
    [products],
  );
}
