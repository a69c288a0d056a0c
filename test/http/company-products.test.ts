import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { COMPANY_PRODUCT_COLUMNS } from '../../src/schemas/company-products.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') =>
  t.app.inject({ method, url, headers: { ...full.headers, ...headers } });
const productIds = (body: { content: { productId: string }[] }) => body.content.map((r) => r.productId);

test('paged: the full Company product record, sorted by product name', async () => {
  const res = await get('/api/companies/acme.com/products/paged');
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.totalElements, 3);
  assert.equal(body.totalPages, 1);
  assert.deepEqual(productIds(body), ['prd_ec2', 'prd_hs_mail', 'prd_sf_crm']);
  const sf = body.content[2];
  const [install] = await t.db.query<{ first_verified: Date; last_verified: Date }>(
    "SELECT first_verified, last_verified FROM installs WHERE company_id = 'cmp_acme' AND product_id = 'prd_sf_crm'",
  );
  assert.deepEqual(sf, {
    id: 'cmp_acme:prd_sf_crm',
    companyId: 'cmp_acme',
    company: 'Acme Corp',
    companyDomain: 'acme.com',
    industry: 'Software',
    city: 'Austin',
    state: 'TX',
    postalCode: '78701',
    country: 'US',
    phone: '+1 512 555 0100',
    revenueRange: '10M - 50M',
    employeeRange: '200 - 499',
    vendorDomain: 'salesforce.com',
    vendor: 'Salesforce',
    vendorId: 'ven_sf',
    productId: 'prd_sf_crm',
    product: 'Sales Cloud',
    shortName: 'SFDC',
    imageUrl: 'https://img.example/prd_sf_crm.png',
    productUrl: 'https://p.example/prd_sf_crm',
    publicDetailUrl: 'https://d.example/prd_sf_crm',
    reviewCount: 10,
    starRating: 4.2,
    avgRating: 4.1,
    mainCategory: 'CRM',
    mainCategoryId: 'cat_crm',
    parentCategory: 'Sales',
    parentCategoryId: 'cat_sales',
    level0Category: 'Sales',
    level0CategoryId: 'cat_sales',
    dateFirstVerified: install!.first_verified.toISOString(),
    dateLastVerified: install!.last_verified.toISOString(),
    hitCount: 42,
    intensity: 80,
    intensityBucket: 'HIGH',
    dateLastVerifiedBucket: 'RECENT',
  });
  assert.match(sf.dateLastVerified, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const ec2 = body.content[0];
  assert.equal(ec2.starRating, null);
  assert.equal(ec2.parentCategory, null);
  assert.equal(ec2.level0CategoryId, 'cat_infra', 'a top-level category is its own level 0');
  assert.equal(ec2.dateLastVerifiedBucket, 'ANCIENT');
  assert.equal(body.content[1].intensityBucket, 'LOW');
});

test('three levels deep: main, parent and level-0 categories', async () => {
  const body = (await get('/api/companies/gamma.co/products/paged?mainCategoryId=cat_crm_smb')).json();
  assert.equal(body.totalElements, 1);
  const r = body.content[0];
  assert.deepEqual([r.mainCategoryId, r.parentCategoryId, r.level0CategoryId], ['cat_crm_smb', 'cat_crm', 'cat_sales']);
  assert.deepEqual([r.mainCategory, r.parentCategory, r.level0Category], ['SMB CRM', 'CRM', 'Sales']);
});

test('POST with an empty body, GET, and GET .../products answer the same page', async () => {
  const a = await get('/api/companies/gamma.co/products/paged?size=1&page=1', { 'content-type': 'application/json' }, 'POST');
  const b = await get('/api/companies/gamma.co/products/paged?size=1&page=1');
  const c = await get('/api/companies/gamma.co/products?size=1&page=1');
  assert.equal(a.statusCode, 200, a.body);
  assert.deepEqual(a.json(), b.json());
  assert.deepEqual(b.json(), c.json());
  assert.deepEqual(productIds(a.json()), ['prd_hs_crm']);
  assert.equal(a.json().totalPages, 2);
});

test('category selection: by name (any case) or id, repeatable, a parent selects its subtree', async () => {
  assert.deepEqual(productIds((await get('/api/companies/acme.com/products/paged?mainCategory=sales')).json()), ['prd_sf_crm']);
  assert.deepEqual(productIds((await get('/api/companies/gamma.co/products/paged?mainCategory=SALES')).json()), ['prd_sf_smb', 'prd_hs_crm']);
  assert.deepEqual(productIds((await get('/api/companies/acme.com/products/paged?mainCategoryId=cat_email')).json()), ['prd_hs_mail']);
  assert.deepEqual(productIds((await get('/api/companies/acme.com/products/paged?mainCategory=Sales&mainCategoryId=cat_infra')).json()), [
    'prd_ec2',
    'prd_sf_crm',
  ]);
  assert.deepEqual(productIds((await get('/api/companies/acme.com/products/paged?mainCategoryId=cat_infra&mainCategoryId=cat_marketing')).json()), [
    'prd_ec2',
    'prd_hs_mail',
  ]);
  const none = (await get('/api/companies/delta.org/products/paged?mainCategory=CRM')).json();
  assert.deepEqual(none, { totalPages: 0, totalElements: 0, content: [] });
});

test('errors: unknown category 404 naming it, unknown company 404, invalid domain and paging 400', async () => {
  const cases: [string, number, RegExp][] = [
    ['/api/companies/acme.com/products/paged?mainCategory=Nope', 404, /mainCategory: category 'Nope' not found/],
    ['/api/companies/acme.com/products/paged?mainCategoryId=cat_nope', 404, /mainCategoryId: category 'cat_nope' not found/],
    ['/api/companies/unknown.com/products/paged', 404, /companyDomain: company 'unknown\.com' not found/],
    ['/api/companies/unknown.com/products/json', 404, /unknown\.com/],
    ['/api/companies/unknown.com/products?export=true', 404, /unknown\.com/],
    ['/api/companies/not_a_domain/products/paged', 400, /params\.companyDomain: 'not_a_domain' is not a valid domain name/],
    ['/api/companies/acme.com/products/paged?size=0', 400, /query\.size/],
    ['/api/companies/acme.com/products/paged?size=201', 400, /query\.size/],
    ['/api/companies/acme.com/products/paged?page=-1', 400, /query\.page/],
    ['/api/companies/acme.com/products/paged?page=1.5', 400, /query\.page/],
    ['/api/companies/acme.com/products/paged?export=maybe', 400, /query\.export/],
  ];
  for (const [url, status, message] of cases) {
    const res = await get(url, { 'x-on-behalf-of-user': 'a@b.co' });
    assert.equal(res.statusCode, status, url);
    assert.match(res.json().message, message, url);
  }
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/companies/acme.com/products/paged' })).statusCode, 401);
});

test('domains in the path are normalized', async () => {
  const res = await get('/api/companies/WWW.Acme.COM./products/paged');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().totalElements, 3);
});

test('paging edges: last partial page, past the end', async () => {
  const last = (await get('/api/companies/acme.com/products/paged?size=2&page=1')).json();
  assert.deepEqual(productIds(last), ['prd_sf_crm']);
  assert.deepEqual((await get('/api/companies/acme.com/products/paged?size=2&page=7')).json(), { totalPages: 2, totalElements: 3, content: [] });
});

test('CSV export: every record field as a column, formula cells neutralized, attributed and audited', async () => {
  const res = await get('/api/companies/epsilon.com/products?export=true', { accept: 'text/csv', 'x-on-behalf-of-user': 'ops@example.com' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="epsilon.com-products.csv"');
  const lines = res.body.trimEnd().split('\r\n');
  assert.equal(lines[0], COMPANY_PRODUCT_COLUMNS.map((c) => c.header).join(','));
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^cmp_eps:prd_ec2,cmp_eps,Epsilon,epsilon\.com,Software,'=cmd\|' \/C calc'!A0,,78701,FR,'\+1 512 555 0100,/);
  const [entry] = await t.db.query<Record<string, any>>("SELECT * FROM audit_log WHERE action = 'company-products.export.csv' ORDER BY id DESC LIMIT 1");
  assert.equal(entry!.on_behalf_of, 'ops@example.com');
  assert.equal(entry!.result_count, 1);
  assert.equal(entry!.params.companyDomain, 'epsilon.com');
  // The paged call takes export=true too.
  const paged = await get('/api/companies/acme.com/products/paged?export=true&mainCategory=Marketing', { 'x-on-behalf-of-user': 'ops@example.com' });
  assert.equal(paged.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(paged.body.trimEnd().split('\r\n').length, 2);
});

test('CSV export needs the export permission and X-On-Behalf-Of-User', async () => {
  assert.equal((await get('/api/companies/acme.com/products?export=true')).statusCode, 403);
  const b = await t.app.inject({
    method: 'GET',
    url: '/api/companies/acme.com/products?export=true',
    headers: { ...basic.headers, 'x-on-behalf-of-user': 'a@b.co' },
  });
  assert.equal(b.statusCode, 403);
  assert.match(b.json().message, /Permission 'export'/);
});

test('JSONL: one full record per line, same records as the pages', async () => {
  const res = await get('/api/companies/acme.com/products/json?export=false');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/jsonl; charset=utf-8');
  assert.ok(res.body.endsWith('\n'));
  const records = res.body
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  const page = (await get('/api/companies/acme.com/products/paged?size=200')).json();
  const byId = (a: { productId: string }, b: { productId: string }) => a.productId.localeCompare(b.productId);
  assert.deepEqual(records, [...page.content].sort(byId), 'the same records, sorted by product id');
  assert.deepEqual(
    records.map((r) => r.productId),
    ['prd_ec2', 'prd_hs_mail', 'prd_sf_crm'],
  );
  const filtered = (await get('/api/companies/acme.com/products/json?mainCategory=infrastructure')).body.trimEnd().split('\n');
  assert.equal(filtered.length, 1);
  assert.equal(JSON.parse(filtered[0]!).productId, 'prd_ec2');
  const empty = await get('/api/companies/delta.org/products/json');
  assert.equal(empty.statusCode, 200);
  assert.equal(empty.body, '');
});

test('JSONL with export=true is an attributed, audited export', async () => {
  assert.equal((await get('/api/companies/acme.com/products/json?export=true')).statusCode, 403);
  const res = await get('/api/companies/acme.com/products/json?export=true', { 'x-on-behalf-of-user': 'jl@example.com' });
  assert.equal(res.statusCode, 200);
  const [entry] = await t.db.query<Record<string, any>>("SELECT * FROM audit_log WHERE action = 'company-products.export.jsonl' ORDER BY id DESC LIMIT 1");
  assert.equal(entry!.result_count, 3);
  assert.equal(entry!.on_behalf_of, 'jl@example.com');
});
