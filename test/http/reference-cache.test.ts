// Reference answers (categories, industries, the vendor list) carry an ETag, revalidate with
// 304, and change on the next request after any write to the reference tables — including
// one made outside this process (plain SQL here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { readReferenceVersion } from '../../src/store/reference-version.ts';
import { importRecords } from '../helpers/import-records.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...client.headers, ...headers } });

test('a reference answer carries a strong ETag; If-None-Match with it (or W/ it, or *) is 304 with no body', async () => {
  const first = await get('/api/categories');
  assert.equal(first.statusCode, 200);
  const etag = first.headers.etag as string;
  assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
  assert.equal(first.headers['cache-control'], 'private, no-cache');
  assert.match(String(first.headers['content-type']), /^application\/json/);
  const again = await get('/api/categories');
  assert.equal(again.headers.etag, etag);
  assert.equal(again.body, first.body);

  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const res = await get('/api/categories', { 'if-none-match': inm });
    assert.equal(res.statusCode, 304, inm);
    assert.equal(res.body, '');
    assert.equal(res.headers.etag, etag);
  }
  assert.equal((await get('/api/categories', { 'if-none-match': '"stale"' })).statusCode, 200);
});

test('an import of the catalog shows on the next request, with a new ETag', async () => {
  const before = await get('/api/industries');
  const version = await readReferenceVersion(t.db);
  await importRecords(t.db, 'industries', [{ id: 'ind_zz_new', name: 'Zeppelins' }]);
  assert.ok((await readReferenceVersion(t.db)) > version, 'the import bumped the version');
  const after = await get('/api/industries', { 'if-none-match': before.headers.etag as string });
  assert.equal(after.statusCode, 200);
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.ok(after.json().some((i: { id: string }) => i.id === 'ind_zz_new'));

  // A change to nothing a category answer shows still bumps the version; the answer is
  // rebuilt and, being the same bytes, keeps its ETag (so clients still get 304).
  const category = await get('/api/categories/cat_crm');
  const [product] = await t.db.query<{ id: string; category_id: string; name: string; vendor_id: string; review_count: number }>(
    `SELECT id, category_id, name, vendor_id, review_count FROM products WHERE category_id <> 'cat_crm' ORDER BY id LIMIT 1`,
  );
  await importRecords(t.db, 'products', [
    { id: product!.id, vendorId: product!.vendor_id, categoryId: product!.category_id, name: product!.name, reviewCount: product!.review_count + 1 },
  ]);
  const same = await get('/api/categories/cat_crm', { 'if-none-match': category.headers.etag as string });
  assert.equal(same.statusCode, 304);
});

test('every catalog kind bumps the version when its import changes a row, and only then', async () => {
  const [vendor] = await t.db.query<{ domain: string; name: string }>(`SELECT domain, name FROM vendors ORDER BY id LIMIT 1`);
  const [product] = await t.db.query<{ id: string; category_id: string; name: string; vendor_id: string }>(
    `SELECT id, category_id, name, vendor_id FROM products ORDER BY id LIMIT 1`,
  );
  const [category] = await t.db.query<{ name: string }>(`SELECT name FROM categories WHERE id = 'cat_crm'`);
  const writes: [Parameters<typeof importRecords>[1], Record<string, unknown>][] = [
    ['categories', { id: 'cat_crm', name: category!.name, description: 'x' }],
    ['vendors', { domain: vendor!.domain, name: `${vendor!.name} Ltd` }],
    ['products', { id: product!.id, vendorId: product!.vendor_id, categoryId: product!.category_id, name: `${product!.name} 2` }],
    ['industries', { id: 'ind_zz_new', name: 'Airships' }],
  ];
  for (const [kind, row] of writes) {
    const version = await readReferenceVersion(t.db);
    await importRecords(t.db, kind, [row]);
    assert.equal(await readReferenceVersion(t.db), version + 1, `${kind} changed`);
    await importRecords(t.db, kind, [row]);
    assert.equal(await readReferenceVersion(t.db), version + 1, `${kind} imported again unchanged`);
  }
});

test('the same input in another order shares the answer; other inputs have their own', async () => {
  const a = await get('/api/vendors?page=0&size=2');
  const b = await get('/api/vendors?size=2&page=0');
  const c = await get('/api/vendors?size=3&page=0');
  assert.equal(a.statusCode, 200);
  assert.equal(a.headers.etag, b.headers.etag);
  assert.notEqual(a.headers.etag, c.headers.etag);
  assert.equal(a.json().content.length, 2);
});

test('vendor searches and vendor products are kept too, and follow a catalog change', async () => {
  const search = '/api/vendors?vendor=hubspt&fuzzy=true';
  const before = await get(search);
  assert.equal(before.statusCode, 200);
  assert.ok(before.headers.etag);
  assert.deepEqual(
    before.json().content.map((v: { domain: string }) => v.domain),
    ['hubspot.com'],
  );
  const products = await get('/api/vendors/hubspot.com/products');
  assert.ok(products.headers.etag);

  await importRecords(t.db, 'vendors', [{ domain: 'hubspot.com', name: 'HubSpot Inc' }]);
  const after = await get(search, { 'if-none-match': before.headers.etag as string });
  assert.equal(after.statusCode, 200);
  assert.equal(after.json().content[0].name, 'HubSpot Inc');
  const productsAfter = await get('/api/vendors/hubspot.com/products', { 'if-none-match': products.headers.etag as string });
  assert.equal(productsAfter.statusCode, 200, 'the vendor inside each product changed');
});

test('authentication still comes first: no credential is 401 even with a current ETag', async () => {
  const etag = (await get('/api/categories')).headers.etag as string;
  const res = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { 'if-none-match': etag } });
  assert.equal(res.statusCode, 401);
});

test('an unknown id is still a 404 naming it, and is not kept', async () => {
  const res = await get('/api/industries/ind_nope');
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers.etag, undefined);
});

test('the OpenAPI document lists 304 on the reference operations only', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>).flatMap((p) =>
    Object.values(p),
  );
  const with304 = ops
    .filter((o) => o.responses['304'])
    .map((o) => o.operationId)
    .sort();
  assert.deepEqual(with304, [
    'getCategory',
    'getIndustry',
    'listCategories',
    'listIndustries',
    'listProductCategories',
    'lookup',
    'searchProducts',
    'searchVendors',
    'vendorProducts',
  ]);
});

test('the streamed variant (export=true) is answered live, never kept', async () => {
  const res = await get('/api/categories?export=true', { 'x-on-behalf-of-user': 'analyst@example.com' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/csv/);
  assert.equal(res.headers.etag, undefined);
});
