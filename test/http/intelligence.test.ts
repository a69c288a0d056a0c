import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { intelligenceWorld } from '../intelligence/world.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  // Relative cuts off: every company gets the full 25 / 50 (the cuts are tested in refresh.test.ts).
  await refreshAll(t.db, { cohortParams: { defaultRelativeCut: 0, competitorsRelativeCut: 0 } });
  // The full plan: this file makes ~100 requests, near the basic plan's 120 per minute.
  client = await createTestClient(t.db, 'full');
});
after(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: client.headers });
const post = (url: string, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...client.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });

test('competitors: pages of Peer items, never more than 50 in total', async () => {
  const first = await get('/api/companies/me.example/competitors');
  assert.equal(first.statusCode, 200);
  const body = first.json();
  assert.equal(body.totalElements, 50);
  assert.equal(body.totalPages, 3);
  assert.equal(body.content.length, 20);
  assert.deepEqual(Object.keys(body.content[0]).sort(), ['domain', 'logo', 'name']);
  assert.match(body.content[0].logo, /^https:\/\/logo\.example\//);
  const all = (await get('/api/companies/me.example/competitors?size=200')).json();
  assert.equal(all.content.length, 50);
  assert.ok(!all.content.some((p: { domain: string }) => p.domain === 'me.example'));
  assert.equal(new Set(all.content.map((p: { domain: string }) => p.domain)).size, 50);
  const last = (await get('/api/companies/me.example/competitors?page=2&size=20')).json();
  assert.deepEqual(last.content, all.content.slice(40));
  assert.deepEqual((await get('/api/companies/me.example/competitors?page=9')).json().content, []);
  // Same domain in another spelling; unknown and invalid domains; no credentials.
  assert.equal((await get('/api/companies/WWW.Me.Example/competitors')).json().totalElements, 50);
  const unknown = await get('/api/companies/nobody.example/competitors');
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.json().message, /nobody\.example/);
  assert.equal((await get('/api/companies/not_a_domain/competitors')).statusCode, 400);
  assert.equal((await get('/api/companies/me.example/competitors?size=0')).statusCode, 400);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/companies/me.example/competitors' })).statusCode, 401);
});

test('cohorts: Default, Aspirational, Defined (case-insensitive); unconfigured Defined is 404; others 400', async () => {
  const def = (await get('/api/companies/me.example/cohort/Default?size=200')).json();
  assert.equal(def.totalElements, 25);
  assert.deepEqual((await get('/api/companies/me.example/cohort/DEFAULT?size=200')).json(), def);
  assert.deepEqual((await get('/api/companies/me.example/cohort/default?size=200')).json(), def);
  assert.equal((await get('/api/companies/me.example/cohort/aspirational')).json().totalElements, 23);
  const defined = (await get('/api/companies/me.example/cohort/Defined')).json();
  assert.deepEqual(
    defined.content.map((p: { domain: string }) => p.domain),
    ['same.example', 'diff.example', 'none.example'],
  );
  assert.equal(defined.totalPages, 1);
  const missing = await get('/api/companies/soft1.example/cohort/Defined');
  assert.equal(missing.statusCode, 404);
  assert.match(missing.json().message, /cohort not configured/);
  const bad = await get('/api/companies/me.example/cohort/Competitors');
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /cohort must be one of Default, Defined, Aspirational/);
});

test('usage metrics: share of members per product, 1-100, with filters', async () => {
  // Defined cohort of me: same (A CRM, A Mail), diff (B CRM, C Mail), none (nothing).
  const res = await get('/api/companies/me.example/cohort/Defined/metrics/usage');
  assert.equal(res.statusCode, 200);
  const rows = res.json().sort((a: { productId: string }, b: { productId: string }) => a.productId.localeCompare(b.productId));
  assert.deepEqual(rows, [
    { percentage: 33, product: 'A CRM', category: 'CRM', productId: 'prd_crm_a', vendorDomain: 'a-soft.com', companiesUsing: 1, cohortSize: 3 },
    { percentage: 33, product: 'B CRM', category: 'CRM', productId: 'prd_crm_b', vendorDomain: 'b-soft.com', companiesUsing: 1, cohortSize: 3 },
    { percentage: 33, product: 'A Mail', category: 'Email Marketing', productId: 'prd_email_a', vendorDomain: 'a-soft.com', companiesUsing: 1, cohortSize: 3 },
    { percentage: 33, product: 'C Mail', category: 'Email Marketing', productId: 'prd_email_c', vendorDomain: 'c-soft.com', companiesUsing: 1, cohortSize: 3 },
  ]);
  const def = (await get('/api/companies/me.example/cohort/Default/metrics/usage')).json();
  assert.ok(def.length > 0);
  for (const r of def) {
    assert.ok(Number.isInteger(r.percentage) && r.percentage >= 1 && r.percentage <= 100, JSON.stringify(r));
    assert.equal(r.percentage, Math.max(1, Math.round((100 * r.companiesUsing) / r.cohortSize)));
    assert.equal(r.cohortSize, 25);
  }
  const byVendor = (await get('/api/companies/me.example/cohort/Defined/metrics/usage?vendorDomain=a-soft.com')).json();
  assert.deepEqual(byVendor.map((r: { productId: string }) => r.productId).sort(), ['prd_crm_a', 'prd_email_a']);
  const byProduct = (await get('/api/companies/me.example/cohort/Defined/metrics/usage?productId=prd_crm_b')).json();
  assert.deepEqual(
    byProduct.map((r: { productId: string }) => r.productId),
    ['prd_crm_b'],
  );
  assert.deepEqual((await get('/api/companies/me.example/cohort/Defined/metrics/usage?productId=prd_unused')).json(), []);
  assert.equal((await get('/api/companies/me.example/cohort/Defined/metrics/usage?productId=prd_nope')).statusCode, 404);
  assert.equal((await get('/api/companies/me.example/cohort/Defined/metrics/usage?vendorDomain=nope.example')).statusCode, 404);
  assert.equal((await get('/api/companies/soft1.example/cohort/Defined/metrics/usage')).statusCode, 404);
  assert.equal((await get('/api/companies/me.example/cohort/other/metrics/usage')).statusCode, 400);
});

const EXPECTED = {
  'same.example': [
    {
      similar: true,
      missing: false,
      different: false,
      category: 'CRM',
      categoryId: 'cat_crm',
      product: 'A CRM',
      productId: 'prd_crm_a',
      companyProducts: ['A CRM'],
    },
    {
      similar: true,
      missing: false,
      different: false,
      category: 'Email Marketing',
      categoryId: 'cat_email',
      product: 'A Mail',
      productId: 'prd_email_a',
      companyProducts: ['A Mail'],
    },
  ],
  'diff.example': [
    {
      similar: false,
      missing: false,
      different: true,
      category: 'CRM',
      categoryId: 'cat_crm',
      product: 'B CRM',
      productId: 'prd_crm_b',
      companyProducts: ['A CRM'],
    },
    {
      similar: false,
      missing: false,
      different: true,
      category: 'Email Marketing',
      categoryId: 'cat_email',
      product: 'C Mail',
      productId: 'prd_email_c',
      companyProducts: ['A Mail'],
    },
  ],
  'none.example': [
    { similar: false, missing: true, different: false, category: 'CRM', categoryId: 'cat_crm', companyProducts: ['A CRM'] },
    { similar: false, missing: true, different: false, category: 'Email Marketing', categoryId: 'cat_email', companyProducts: ['A Mail'] },
  ],
  // mixed's C Mail evidence is years old: not in use, so Email Marketing is missing.
  'mixed.example': [
    {
      similar: true,
      missing: false,
      different: false,
      category: 'CRM',
      categoryId: 'cat_crm',
      product: 'A CRM',
      productId: 'prd_crm_a',
      companyProducts: ['A CRM'],
    },
    { similar: false, missing: true, different: false, category: 'Email Marketing', categoryId: 'cat_email', companyProducts: ['A Mail'] },
  ],
};

test('detailed comparison: similar / different / missing, in both request forms', async () => {
  const domains = Object.keys(EXPECTED);
  const expected = domains.map((d) => ({ companyDomain: d, products: EXPECTED[d as keyof typeof EXPECTED] }));
  const form1 = await post('/api/companies/me.example/cohort/Default/metrics/details', { cohortCompanyDomain: domains });
  assert.equal(form1.statusCode, 200, form1.body);
  assert.deepEqual(form1.json(), expected);
  const qs = domains.map((d) => `cohortCompanyDomain=${d}`).join('&');
  const form2 = await post(`/api/companies/me.example/metrics/details?${qs}`);
  assert.deepEqual(form2.json(), expected);
  // An empty body sent with a JSON Content-Type is fine too; duplicates answered once.
  const form2json = await t.app.inject({
    method: 'POST',
    url: `/api/companies/me.example/metrics/details?${qs}&cohortCompanyDomain=SAME.example`,
    headers: { ...client.headers, 'content-type': 'application/json' },
    payload: '',
  });
  assert.deepEqual(form2json.json(), expected);
});

test('detailed comparison: filters by category (with descendants), product and vendor', async () => {
  const url = (q: string) => `/api/companies/me.example/metrics/details?cohortCompanyDomain=diff.example&${q}`;
  const cats = async (q: string) => (await post(url(q))).json()[0].products.map((r: { categoryId: string }) => r.categoryId);
  assert.deepEqual(await cats('categoryId=cat_sales'), ['cat_crm']);
  assert.deepEqual(await cats('productId=prd_email_c'), ['cat_email']);
  assert.deepEqual(await cats('vendorDomain=a-soft.com'), ['cat_crm', 'cat_email']);
  assert.deepEqual(await cats('vendorDomain=b-soft.com'), []);
  assert.equal((await post(url('categoryId=cat_nope'))).statusCode, 404);
  assert.equal((await post(url('productId=prd_nope'))).statusCode, 404);
});

test('detailed comparison: 1-50 domains, unknown domains named, invalid cohort', async () => {
  const base = '/api/companies/me.example/cohort/Default/metrics/details';
  const empty = await post(base, { cohortCompanyDomain: [] });
  assert.equal(empty.statusCode, 400);
  assert.match(empty.json().message, /cohortCompanyDomain/);
  assert.equal((await post('/api/companies/me.example/metrics/details')).statusCode, 400);
  const many = await post(base, { cohortCompanyDomain: Array.from({ length: 51 }, (_, i) => `soft${i}.example`) });
  assert.equal(many.statusCode, 413);
  assert.equal((await post(base, { cohortCompanyDomain: Array.from({ length: 50 }, (_, i) => `soft${i}.example`) })).json().length, 50);
  const unknown = await post(base, { cohortCompanyDomain: ['same.example', 'ghost1.example', 'ghost2.example'] });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().message, "cohortCompanyDomain: companies 'ghost1.example', 'ghost2.example' not found");
  assert.equal((await post(base, { cohortCompanyDomain: ['not a domain'] })).statusCode, 400);
  assert.equal((await post('/api/companies/me.example/cohort/Nope/metrics/details', { cohortCompanyDomain: ['same.example'] })).statusCode, 400);
});

test('products in use: verdicts from evidence, duplicates once, unknown ids answered, limits', async () => {
  const res = await post('/api/companies/me.example/products-in-use', { productIds: ['prd_crm_a', 'prd_crm_b', 'prd_crm_a', 'prd_nope'] });
  assert.equal(res.statusCode, 200);
  const [crmA, crmB, nope, ...rest] = res.json();
  assert.equal(rest.length, 0);
  assert.equal(crmA.productId, 'prd_crm_a');
  assert.equal(crmA.inUse, true);
  assert.ok(crmA.confidence >= 0.5 && crmA.confidence <= 1);
  assert.equal(crmA.lastVerified, '2026-10-01T00:00:00.000Z');
  assert.equal(crmA.hitCount, 40);
  assert.deepEqual(crmB, { productId: 'prd_crm_b', inUse: false, confidence: 0 });
  assert.deepEqual(nope, { productId: 'prd_nope', inUse: false, confidence: 0 });
  const [stale] = (await post('/api/companies/mixed.example/products-in-use', { productIds: ['prd_email_c'] })).json();
  assert.equal(stale.inUse, false);
  assert.ok(stale.confidence > 0 && stale.confidence < 0.5, JSON.stringify(stale));
  assert.equal(stale.hitCount, 1);

  assert.equal((await post('/api/companies/me.example/products-in-use', { productIds: [] })).statusCode, 400);
  const blank = await post('/api/companies/me.example/products-in-use', { productIds: ['prd_crm_a', '  '] });
  assert.equal(blank.statusCode, 400);
  assert.match(blank.json().message, /productIds\.1: must be an id/);
  assert.equal((await post('/api/companies/me.example/products-in-use', {})).statusCode, 400);
  assert.equal((await post('/api/companies/me.example/products-in-use', { productIds: [1] })).statusCode, 400);
  const hundred = Array.from({ length: 100 }, (_, i) => `prd_x${i}`);
  assert.equal((await post('/api/companies/me.example/products-in-use', { productIds: hundred })).json().length, 100);
  assert.equal((await post('/api/companies/me.example/products-in-use', { productIds: [...hundred, 'prd_crm_a'] })).statusCode, 413);
  assert.equal((await post('/api/companies/ghost.example/products-in-use', { productIds: ['prd_crm_a'] })).statusCode, 404);
});

test('related products: ranked Products, never the anchor, cohort required', async () => {
  const res = await get('/api/companies/me.example/products/prd_crm_a/related?cohort=Default');
  assert.equal(res.statusCode, 200);
  const items = res.json();
  assert.ok(Array.isArray(items) && items.length > 0);
  assert.ok(!items.some((p: { id: string }) => p.id === 'prd_crm_a'));
  assert.deepEqual(Object.keys(items[0]).sort(), [
    'avgRating',
    'category',
    'categoryId',
    'coUsage',
    'description',
    'id',
    'lift',
    'logo',
    'name',
    'reviewCount',
    'starRating',
    'vendor',
  ]);
  assert.deepEqual(Object.keys(items[0].vendor).sort(), ['domain', 'id', 'logo', 'name']);
  for (let i = 1; i < items.length; i++) assert.ok(items[i - 1].lift >= items[i].lift);
  // A Mail is what A CRM users run most; it must be there.
  assert.ok(
    items.some((p: { id: string }) => p.id === 'prd_email_a'),
    JSON.stringify(items.map((p: { id: string }) => p.id)),
  );
  for (const anchor of ['prd_email_a', 'prd_analytics', 'prd_email_c', 'prd_unused']) {
    for (const cohort of ['Default', 'Aspirational', 'Defined']) {
      const r = await get(`/api/companies/me.example/products/${anchor}/related?cohort=${cohort}&size=200`);
      assert.equal(r.statusCode, 200);
      assert.ok(!r.json().some((p: { id: string }) => p.id === anchor), `${anchor} in ${cohort}`);
    }
  }
  assert.deepEqual((await get('/api/companies/me.example/products/prd_crm_a/related?cohort=Default&page=50')).json(), []);
  assert.equal((await get('/api/companies/me.example/products/prd_crm_a/related')).statusCode, 400);
  assert.equal((await get('/api/companies/me.example/products/prd_nope/related?cohort=Default')).statusCode, 404);
  assert.equal((await get('/api/companies/soft1.example/products/prd_crm_a/related?cohort=Defined')).statusCode, 404);
});
