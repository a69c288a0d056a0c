// The CSV export of a company with 20,000 products: every row, in order, neutralized.
// (Memory is measured in bench/export-csv.ts, not asserted here.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertLargeCompany } from '../helpers/large-company.ts';

const N = 20_000;
let t: TestApp;
let c: TestClient;
before(async () => {
  t = await createTestApp();
  c = await createTestClient(t.db, 'full');
  await insertLargeCompany(t.db, N);
});
after(() => t.close());

test('20,000 products: every record exported once, in order, formulas neutralized, audited', async () => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/companies/big.com/products?export=true',
    headers: { ...c.headers, accept: 'text/csv', 'x-on-behalf-of-user': 'big@example.com' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['transfer-encoding'], 'chunked', 'streamed, not buffered into one body');
  const rows: Record<string, string>[] = parse(res.body, { columns: true });
  assert.equal(rows.length, N);
  assert.equal(new Set(rows.map((r) => r.productId)).size, N);
  const formulas = rows.filter((r) => /^'[=+\-@]cmd /.test(r.product!));
  assert.equal(formulas.length, N / 250);
  assert.ok(
    rows.every((r) => !/^[=+\-@\t\r]/.test(r.product!)),
    'no cell starts with a formula character',
  );
  assert.equal(rows[0]!.description, undefined, 'only the documented columns');
  assert.equal(rows.find((r) => r.productId === 'prd_000001')!.level0CategoryId, 'cat_big');
  const ids = rows.map((r) => r.productId!);
  assert.deepEqual(ids, [...ids].sort(), 'sorted by product id');
  const [entry] = await t.db.query<{ result_count: number }>("SELECT result_count FROM audit_log WHERE action = 'company-products.export.csv'");
  assert.equal(entry!.result_count, N);
});

test('20,000 products as JSONL: one record per line', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/companies/big.com/products/json', headers: c.headers });
  const lines = res.body.trimEnd().split('\n');
  assert.equal(lines.length, N);
  assert.equal(JSON.parse(lines[N - 1]!).companyDomain, 'big.com');
});
