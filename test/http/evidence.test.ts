// GET /api/companies/{d}/products/{productId}/evidence and `include=evidence` on the company's
// products: observations recorded by the detector, paged newest first; 404s per the spec's
// style; authentication like every company read. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { deriveInstalls, recordDetections } from '../../src/services/observations.ts';
import { intelligenceWorld } from '../intelligence/world.ts';

let t: TestApp;
let basic: TestClient;
const DAY = 86_400_000;
const t0 = Date.parse('2026-11-01T10:00:00Z');
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  basic = await createTestClient(t.db, 'basic');
  const tech = (ruleId: string, excerpt: string, extra: Record<string, unknown> = {}) => ({
    name: 'B Analytics',
    vendorDomain: 'b-soft.com',
    category: 'Analytics',
    confidence: 0.9,
    evidence: [{ source: 'script' as const, url: 'https://me.example/', ruleId, excerpt, weight: 0.8, ...extra }],
  });
  // Three observations of prd_analytics at me.example on three days; the last carries a version.
  for (const [i, extra] of [
    [0, {}],
    [1, {}],
    [2, { version: '2.1' }],
  ] as const) {
    await recordDetections(
      t.db,
      [{ domain: 'me.example', technologies: [tech('B Analytics/scriptSrc/0', `<script src="https://cdn.b-soft.com/a.js">`, extra)] }],
      { seenAt: new Date(t0 + i * DAY) },
    );
  }
  await deriveInstalls(t.db, { companyIds: ['cmp_me'], asOf: new Date(t0 + 3 * DAY) });
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = basic.headers) => t.app.inject({ method: 'GET', url, headers });

test('200: the observations of the product, newest first, in the page shape', async () => {
  const res = await get('/api/companies/me.example/products/prd_analytics/evidence');
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual([body.totalElements, body.totalPages], [3, 1]);
  assert.deepEqual(body.content[0], {
    source: 'script',
    url: 'https://me.example/',
    ruleId: 'B Analytics/scriptSrc/0',
    excerpt: '<script src="https://cdn.b-soft.com/a.js">',
    version: '2.1',
    weight: 0.8,
    seenAt: new Date(t0 + 2 * DAY).toISOString(),
  });
  assert.deepEqual(
    body.content.map((e: { seenAt: string }) => e.seenAt),
    [2, 1, 0].map((i) => new Date(t0 + i * DAY).toISOString()),
  );
  assert.equal(body.content[1].version, null);
});

test('paging: size and page, past the end an empty content', async () => {
  const p1 = (await get('/api/companies/me.example/products/prd_analytics/evidence?size=2&page=1')).json();
  assert.deepEqual([p1.totalElements, p1.totalPages, p1.content.length], [3, 2, 1]);
  assert.equal(p1.content[0].seenAt, new Date(t0).toISOString());
  const past = (await get('/api/companies/me.example/products/prd_analytics/evidence?size=2&page=5')).json();
  assert.deepEqual([past.totalElements, past.content], [3, []]);
  const bad = await get('/api/companies/me.example/products/prd_analytics/evidence?size=0');
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /size/);
});

test('404s: unknown company, unknown product, a product the company neither uses nor was seen with; an imported install answers an empty page', async () => {
  const unknownCompany = await get('/api/companies/nobody.example/products/prd_analytics/evidence');
  assert.equal(unknownCompany.statusCode, 404);
  assert.match(unknownCompany.json().message, /companyDomain: company 'nobody\.example' not found/);
  const unknownProduct = await get('/api/companies/me.example/products/prd_nope/evidence');
  assert.equal(unknownProduct.statusCode, 404);
  assert.match(unknownProduct.json().message, /productId: product 'prd_nope' not found/);
  const unused = await get('/api/companies/me.example/products/prd_unused/evidence');
  assert.equal(unused.statusCode, 404);
  assert.match(unused.json().message, /has no install and no evidence of product 'prd_unused'/);
  assert.deepEqual(unused.json().status, 404);
  const imported = await get('/api/companies/me.example/products/prd_crm_a/evidence');
  assert.equal(imported.statusCode, 200);
  assert.deepEqual(imported.json(), { totalPages: 0, totalElements: 0, content: [] });
});

test('gated like every company read: no credentials → 401', async () => {
  const res = await get('/api/companies/me.example/products/prd_analytics/evidence', {});
  assert.equal(res.statusCode, 401);
  assert.deepEqual(Object.keys(res.json()).slice(0, 3), ['status', 'error', 'message']);
});

test('include=evidence: each record of the JSON page carries its newest evidence items; without it, none', async () => {
  const plain = (await get('/api/companies/me.example/products/paged')).json();
  assert.ok(plain.content.every((r: Record<string, unknown>) => !('evidence' in r)));
  const res = await get('/api/companies/me.example/products/paged?include=evidence');
  assert.equal(res.statusCode, 200, res.body);
  const byId = new Map(res.json().content.map((r: { productId: string; evidence: unknown[] }) => [r.productId, r.evidence]));
  assert.equal((byId.get('prd_analytics') as unknown[]).length, 3);
  assert.deepEqual(byId.get('prd_crm_a'), [], 'an imported install has no observations');
  const bad = await get('/api/companies/me.example/products/paged?include=everything');
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /include/);
});
