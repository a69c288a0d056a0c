// Every audited export at the service level: each writes one audit row with the rows actually
// delivered and `completed` (true when the stream reached its end, false when the consumer
// went away), whichever resource it exports. The profile export also checks its permission.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import type { Db } from '../../src/db/db.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { exportCompanySearch } from '../../src/services/companies.ts';
import { streamAllCompanyProducts } from '../../src/services/company-products.ts';
import { exportCategories } from '../../src/services/categories.ts';
import { exportProfiles } from '../../src/services/profiles.ts';
import { PERMISSIVE_PLAN } from '../helpers/plans.ts';

let db: Db;
const actor = { clientId: 'cli_x', onBehalfOf: 'a@example.com' };
const principal: Principal = {
  clientId: 'cli_x',
  clientName: 'x',
  via: 'api_key',
  plan: PERMISSIVE_PLAN,
};

before(async () => {
  db = await createTestDb();
  await insertWorld(db, {
    categories: [{ id: 'cat_crm' }, { id: 'cat_help' }],
    vendors: [{ id: 'ven_a', domain: 'a-soft.com' }],
    products: [
      { id: 'prd_crm', vendor_id: 'ven_a', category_id: 'cat_crm' },
      { id: 'prd_help', vendor_id: 'ven_a', category_id: 'cat_help' },
    ],
    companies: [
      { id: 'cmp_acme', domain: 'acme.com' },
      { id: 'cmp_beta', domain: 'beta.com' },
      { id: 'cmp_gamma', domain: 'gamma.com' },
    ],
    installs: [
      { company_id: 'cmp_acme', product_id: 'prd_crm' },
      { company_id: 'cmp_acme', product_id: 'prd_help' },
    ],
    people: Array.from({ length: 30 }, (_, i) => ({ id: `per_${String(i).padStart(2, '0')}`, full_name: `P ${i}`, function: 'Ops' })),
  });
});
after(() => db.close());

async function drain(rows: AsyncIterable<unknown>, stopAfter = Infinity): Promise<number> {
  let n = 0;
  for await (const _row of rows) if (++n >= stopAfter) break; // breaking is the client going away
  return n;
}

async function lastAudit(action: string): Promise<{ on_behalf_of: string | null; params: Record<string, any>; result_count: number }> {
  const [entry] = await db.query<{ on_behalf_of: string | null; params: Record<string, any>; result_count: number }>(
    'SELECT on_behalf_of, params, result_count FROM audit_log WHERE action = $1 ORDER BY id DESC LIMIT 1',
    [action],
  );
  assert.ok(entry, `no audit row for ${action}`);
  return entry;
}

test('every export path writes completed=true and the row count when the stream ends', async () => {
  const paths: [string, () => Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>, number][] = [
    ['companies.search.export', () => exportCompanySearch(db, {}, actor), 3],
    [
      'company-products.export.csv',
      () => streamAllCompanyProducts(db, { companyDomain: 'acme.com', mainCategory: [], mainCategoryId: [] }, { actor, format: 'csv' }),
      2,
    ],
    ['categories.export', () => exportCategories(db, actor), 2],
    ['profiles.export', async () => (await exportProfiles(db, principal, actor.onBehalfOf, { functions: ['ops'] })).rows, 30],
  ];
  for (const [action, open, rows] of paths) {
    assert.equal(await drain(await open()), rows, action);
    const entry = await lastAudit(action);
    assert.equal(entry.params.completed, true, action);
    assert.equal('complete' in entry.params, false, `${action}: one spelling of the field`);
    assert.equal(entry.result_count, rows, action);
    assert.equal(entry.on_behalf_of, 'a@example.com', action);
  }
});

test('an export stopped half-way is audited with the rows delivered and completed=false', async () => {
  const file = await exportProfiles(db, principal, 'a@example.com', { functions: ['ops'] });
  assert.equal(await drain(file.rows, 7), 7);
  const entry = await lastAudit('profiles.export');
  assert.equal(entry.result_count, 7);
  assert.equal(entry.params.completed, false);
  assert.deepEqual(entry.params.functions, ['ops']);
  assert.equal(await drain(await exportCompanySearch(db, {}, actor), 1), 1);
  assert.equal((await lastAudit('companies.search.export')).params.completed, false);
});

test("the plain JSON Lines stream of a company's products is audited too, without an on-behalf user", async () => {
  const rows = await streamAllCompanyProducts(
    db,
    { companyDomain: 'acme.com', mainCategory: [], mainCategoryId: [] },
    { actor: { clientId: 'cli_x', onBehalfOf: null }, format: 'jsonl' },
  );
  assert.equal(await drain(rows), 2);
  const entry = await lastAudit('company-products.export.jsonl');
  assert.deepEqual([entry.on_behalf_of, entry.result_count, entry.params.completed, entry.params.attributed], [null, 2, true, false]);
});
