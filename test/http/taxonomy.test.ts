import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { insertWorld } from '../helpers/fixtures.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
  await insertCatalogWorld(t.db);
  await insertWorld(t.db, { categories: [{ id: 'cat_zformula', name: '=SUM(A1)', description: 'has, comma' }] });
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...full.headers, ...headers } });

test('GET /categories: the whole taxonomy as an array of { id, name, parentId, level }', async () => {
  const res = await get('/api/categories');
  assert.equal(res.statusCode, 200);
  const list = res.json();
  assert.equal(list.length, 7);
  assert.deepEqual(
    list.map((c: { id: string }) => c.id),
    ['cat_crm', 'cat_crm_smb', 'cat_email', 'cat_infra', 'cat_marketing', 'cat_sales', 'cat_zformula'],
  );
  assert.deepEqual(list[1], { id: 'cat_crm_smb', name: 'SMB CRM', parentId: 'cat_crm', level: 2, description: null });
  assert.deepEqual(list[5], { id: 'cat_sales', name: 'Sales', parentId: null, level: 0, description: null });
});

test('GET /dictionary/product-categories is the same list', async () => {
  assert.deepEqual((await get('/api/dictionary/product-categories')).json(), (await get('/api/categories')).json());
});

test('GET /categories/{id}: one category; unknown is 404 naming it', async () => {
  assert.deepEqual((await get('/api/categories/cat_crm')).json(), { id: 'cat_crm', name: 'CRM', parentId: 'cat_sales', level: 1, description: null });
  const res = await get('/api/categories/cat_nope');
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().message, "categoryId: category 'cat_nope' not found; see GET /api/categories");
});

test('categories export: CSV with neutralized cells, permission and on-behalf header, audited', async () => {
  const res = await get('/api/categories?export=true', { 'x-on-behalf-of-user': 'tax@example.com' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="categories.csv"');
  const lines = res.body.trimEnd().split('\r\n');
  assert.equal(lines[0], 'id,name,parentId,level,description');
  assert.equal(lines.length, 8);
  assert.equal(lines[2], 'cat_crm_smb,SMB CRM,cat_crm,2,');
  assert.equal(lines[7], `cat_zformula,'=SUM(A1),,0,"has, comma"`);
  const [entry] = await t.db.query<Record<string, any>>("SELECT * FROM audit_log WHERE action = 'categories.export'");
  assert.equal(entry!.result_count, 7);
  assert.equal((await get('/api/categories?export=true')).statusCode, 403);
  assert.equal((await get('/api/dictionary/product-categories?export=true')).statusCode, 403);
  const b = await t.app.inject({ method: 'GET', url: '/api/categories?export=true', headers: { ...basic.headers, 'x-on-behalf-of-user': 'a@b.co' } });
  assert.equal(b.statusCode, 403);
  assert.equal((await get('/api/categories?export=yes')).statusCode, 400);
});

test('industries: list sorted by name, one by id, 404 for unknown', async () => {
  assert.deepEqual((await get('/api/industries')).json(), [
    { id: 'ind_retail', name: 'Retail', sector: 'Consumer' },
    { id: 'ind_software', name: 'Software', sector: 'Technology' },
  ]);
  assert.deepEqual((await get('/api/industries/ind_retail')).json(), { id: 'ind_retail', name: 'Retail', sector: 'Consumer' });
  const res = await get('/api/industries/ind_nope');
  assert.equal(res.statusCode, 404);
  assert.match(res.json().message, /ind_nope/);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/industries' })).statusCode, 401);
});
