import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';

let t: TestApp;
let basic: TestClient;
before(async () => {
  t = await createTestApp();
  basic = await createTestClient(t.db, 'basic'); // vendor calls need no permission
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: basic.headers });
const names = (body: { content: { name: string }[] }) => body.content.map((v) => v.name);

test('exact search: case-insensitive name or domain, items { id, domain, name, logo }', async () => {
  const body = (await get('/api/vendors?vendor=salesforce')).json();
  assert.deepEqual(body, {
    totalPages: 1,
    totalElements: 1,
    content: [{ id: 'ven_sf', domain: 'salesforce.com', name: 'Salesforce', logo: 'https://logo.example/salesforce.com.png' }],
  });
  assert.deepEqual(names((await get('/api/vendors?vendor=HUBSPOT.COM')).json()), ['HubSpot']);
  assert.deepEqual(names((await get('/api/vendors?vendor=https://www.mailchimp.com/')).json()), ['Mailchimp']);
  assert.deepEqual(names((await get('/api/vendors?vendor=amazon%20web%20services&fuzzy=false')).json()), ['Amazon Web Services']);
  assert.deepEqual((await get('/api/vendors?vendor=sales')).json(), { totalPages: 0, totalElements: 0, content: [] }, 'exact: a partial name is no match');
});

test('fuzzy search: typos and partial names find the vendor, best first', async () => {
  assert.equal(names((await get('/api/vendors?vendor=salesfroce&fuzzy=true')).json())[0], 'Salesforce');
  assert.equal(names((await get('/api/vendors?vendor=Hubspt&fuzzy=true')).json())[0], 'HubSpot');
  assert.equal(names((await get('/api/vendors?vendor=amazon&fuzzy=true')).json())[0], 'Amazon Web Services');
  assert.equal(names((await get('/api/vendors?vendor=mailchimp.co&fuzzy=true')).json())[0], 'Mailchimp');
  assert.equal(names((await get('/api/vendors?vendor=chimp&fuzzy=TRUE')).json())[0], 'Mailchimp');
  assert.deepEqual(names((await get('/api/vendors?vendor=zzzzqqq&fuzzy=true')).json()), []);
});

test('no vendor parameter: every vendor by name, paged without repeats', async () => {
  const all = (await get('/api/vendors')).json();
  assert.deepEqual(names(all), ['Amazon Web Services', 'HubSpot', 'Mailchimp', 'Salesforce']);
  const pages = [0, 1].map(async (p) => names((await get(`/api/vendors?size=3&page=${p}`)).json()));
  assert.deepEqual((await Promise.all(pages)).flat(), names(all));
  assert.deepEqual((await get('/api/vendors?size=3&page=5')).json(), { totalPages: 2, totalElements: 4, content: [] });
});

test('vendor search parameter errors are 400 naming the parameter', async () => {
  for (const [url, field] of [
    ['/api/vendors?fuzzy=perhaps', 'query.fuzzy'],
    ['/api/vendors?size=500', 'query.size'],
    ['/api/vendors?page=x', 'query.page'],
  ]) {
    const res = await get(url!);
    assert.equal(res.statusCode, 400, url);
    assert.match(res.json().message, new RegExp(field!.replace('.', '\\.')));
  }
});

test("a vendor's products: Product shape with features and vendor, sorted, filtered by name", async () => {
  const body = (await get('/api/vendors/salesforce.com/products')).json();
  assert.equal(body.totalElements, 2);
  assert.deepEqual(
    body.content.map((p: { id: string }) => p.id),
    ['prd_sf_smb', 'prd_sf_crm'],
  );
  assert.deepEqual(body.content[1], {
    id: 'prd_sf_crm',
    name: 'Sales Cloud',
    shortName: 'SFDC',
    description: 'Sf Crm does things.',
    logo: 'https://img.example/prd_sf_crm.png',
    category: 'CRM',
    categoryId: 'cat_crm',
    features: ['Pipeline', 'Forecasting'],
    reviewCount: 10,
    starRating: 4.2,
    avgRating: 4.1,
    productUrl: 'https://p.example/prd_sf_crm',
    publicDetailUrl: 'https://d.example/prd_sf_crm',
    vendor: { id: 'ven_sf', domain: 'salesforce.com', name: 'Salesforce', logo: 'https://logo.example/salesforce.com.png' },
  });
  const filtered = (await get('/api/vendors/WWW.SALESFORCE.COM/products?productName=CLOUD')).json();
  assert.deepEqual(
    filtered.content.map((p: { id: string }) => p.id),
    ['prd_sf_crm'],
  );
  assert.deepEqual((await get('/api/vendors/salesforce.com/products?productName=zzz')).json(), { totalPages: 0, totalElements: 0, content: [] });
  assert.deepEqual(
    (await get('/api/vendors/salesforce.com/products?size=1&page=1')).json().content.map((p: { id: string }) => p.id),
    ['prd_sf_crm'],
  );
});

test("a vendor's products: unknown vendor 404, invalid domain 400, 401 without credentials", async () => {
  const unknown = await get('/api/vendors/nobody.com/products');
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().message, "vendorDomain: vendor 'nobody.com' not found");
  const invalid = await get('/api/vendors/no%20pe/products');
  assert.equal(invalid.statusCode, 400);
  assert.match(invalid.json().message, /params\.vendorDomain/);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/vendors' })).statusCode, 401);
});

test('product search by name across vendors: exact name first, then prefix, then by name; paged; 400 and 401', async () => {
  const ids = (body: { content: { id: string }[] }) => body.content.map((p) => p.id);
  // "Mailchimp" is a product's exact name; "HubSpot CRM" is found by a substring of its name,
  // which no vendor search would give ("crm" names no vendor).
  assert.deepEqual(ids((await get('/api/products?productName=mailchimp')).json()), ['prd_mc']);
  assert.deepEqual(ids((await get('/api/products?productName=crm')).json()), ['prd_hs_crm']);
  // Exact ("Essentials") before a prefix before a mere substring.
  const ranked = (await get('/api/products?productName=e')).json();
  assert.equal(ranked.content[0].id, 'prd_ec2', 'names starting with the text come first');
  assert.equal(ranked.content[0].vendor.domain, 'amazon.com');
  assert.deepEqual(ids((await get('/api/products?productName=essentials')).json()), ['prd_sf_smb']);
  const all = (await get('/api/products?size=2&page=1')).json();
  assert.equal(all.totalElements, 6);
  assert.equal(all.content.length, 2);
  assert.deepEqual((await get('/api/products?productName=zzz')).json(), { totalPages: 0, totalElements: 0, content: [] });
  const bad = await get('/api/products?size=0');
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /size/);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/products' })).statusCode, 401);
});
