import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';

test('insertWorld fills defaults and keeps referential integrity', async () => {
  const db = await createTestDb();
  try {
    await insertWorld(db, {
      categories: [{ id: 'cat_sales' }, { id: 'cat_crm', parent_id: 'cat_sales' }],
      vendors: [{ id: 'ven_acme', domain: 'acme-soft.com' }],
      products: [{ id: 'prd_acme_crm', vendor_id: 'ven_acme', category_id: 'cat_crm' }],
      companies: [{ id: 'cmp_a', domain: 'a.example' }],
      installs: [{ company_id: 'cmp_a', product_id: 'prd_acme_crm', intensity: 80 }],
    });
    const [row] = await db.query<{ name: string; level: number; intensity: number }>(
      `SELECT p.name, c.level, i.intensity FROM installs i JOIN products p ON p.id = i.product_id JOIN categories c ON c.id = p.category_id`,
    );
    assert.deepEqual(row, { name: 'Acme Crm', level: 1, intensity: 80 });
    await assert.rejects(insertWorld(db, { installs: [{ company_id: 'cmp_missing', product_id: 'prd_acme_crm' }] }));
  } finally {
    await db.close();
  }
});
