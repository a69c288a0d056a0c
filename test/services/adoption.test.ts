// Adoption trends on a hand-built history: monthly visits of three companies (one adopts, one
// drops, one is unreachable once; one seen months apart), read back per month as companies using the product,
// adoptions, drops and net change; for the product, its category and its vendor; filtered by
// country. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { deriveInstalls, recordDetections } from '../../src/services/observations.ts';
import type { AdoptionTrend } from '../../src/schemas/adoption.ts';
import { FAILED_VISIT, googleAnalytics, OK_VISIT, worldWithGoogleAnalytics } from '../helpers/change-history.ts';

let t: TestApp;
let client: TestClient;
const ok = OK_VISIT;
const failed = FAILED_VISIT;
const ga = googleAnalytics();
const mid = (month: number) => new Date(Date.UTC(2026, month - 1, 15)).toISOString();

before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, worldWithGoogleAnalytics());
  client = await createTestClient(t.db, 'full');
  // January to June, one visit a month in its middle.
  const history: Record<string, ('ga' | 'none' | 'failed')[]> = {
    'adopts.example': ['none', 'ga', 'ga', 'ga', 'ga', 'ga'],
    'drops.example': ['ga', 'ga', 'ga', 'none', 'none', 'none'],
    'steady.example': ['ga', 'ga', 'ga', 'failed', 'ga', 'ga'],
  };
  for (let m = 1; m <= 6; m++) {
    const sites = Object.entries(history).map(([domain, months]) => {
      const state = months[m - 1]!;
      return { domain, seenAt: mid(m), technologies: state === 'ga' ? [ga] : [], visit: state === 'failed' ? failed : ok };
    });
    const run = await recordDetections(t.db, sites, { runId: `run-${m}` });
    await deriveInstalls(t.db, { companyIds: run.companyIds, asOf: new Date(mid(m)) });
  }
  await t.db.query(`UPDATE companies SET country = 'NO' WHERE domain = 'adopts.example'`);
  await t.app.events.nudge();
});
after(() => t.close());

const trend = async (path: string) => {
  const res = await t.app.inject({ method: 'GET', url: path, headers: client.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as AdoptionTrend;
};
const rows = (tr: AdoptionTrend) => tr.points.map((p) => [p.period, p.companies, p.adoptions, p.drops, p.netChange]);

test('per month: companies using the product at its end, adoptions and drops when they happened, net change', async () => {
  const product = await trend('/api/products/prd_ga/adoption?from=2026-01-01&to=2026-06-30');
  assert.deepEqual(product.subject, { kind: 'product', id: 'prd_ga', name: 'Google Analytics' });
  assert.deepEqual(rows(product), [
    // adopts.example adopted between Jan 15 and Feb 15 (estimate Jan 30); drops.example dropped
    // between Mar 15 and Apr 15 (estimate Mar 30), confirmed by the May visit; steady.example's
    // failed April visit is no drop.
    ['2026-01', 2, 1, 0, 1],
    ['2026-02', 3, 0, 0, 0],
    ['2026-03', 2, 0, 1, -1],
    ['2026-04', 2, 0, 0, 0],
    ['2026-05', 2, 0, 0, 0],
    ['2026-06', 2, 0, 0, 0],
  ]);
  // The same through its category (and the parent category) and its vendor.
  assert.deepEqual(rows(await trend('/api/categories/cat_web_analytics/adoption?from=2026-01-01&to=2026-06-30')), rows(product));
  assert.deepEqual(
    rows(await trend('/api/categories/cat_analytics/adoption?from=2026-01-01&to=2026-06-30')).map((r) => r[2]),
    [1, 0, 0, 0, 0, 0],
  );
  assert.deepEqual(rows(await trend('/api/vendors/google.com/adoption?from=2026-01-01&to=2026-06-30')), rows(product));
});

test('a product seen months apart was in use between the sightings; the staleness window follows the last', async () => {
  // Seen in July and in December 2024 (as an archive and a crawl are), nothing recorded between.
  for (const seenAt of ['2024-07-15T00:00:00Z', '2024-12-15T00:00:00Z'])
    await recordDetections(t.db, [{ domain: 'bridged.example', seenAt, technologies: [ga] }], { runId: `bridged-${seenAt.slice(0, 7)}` });
  await t.db.query(`UPDATE companies SET country = 'SE' WHERE domain = 'bridged.example'`);
  const sweden = await trend('/api/products/prd_ga/adoption?from=2024-06-01&to=2025-04-30&countries=SE');
  assert.deepEqual(
    sweden.points.map((p) => [p.period, p.companies]),
    [
      ['2024-06', 0],
      ['2024-07', 1],
      ['2024-08', 1], // between the sightings: in use, not stale
      ['2024-09', 1],
      ['2024-10', 1],
      ['2024-11', 1],
      ['2024-12', 1],
      ['2025-01', 1], // within the staleness window (90 days) after the last sighting
      ['2025-02', 1],
      ['2025-03', 0], // the window ended on March 15
      ['2025-04', 0],
    ],
  );
});

test('filtered like company search: only the companies in the country count', async () => {
  const norway = await trend('/api/products/prd_ga/adoption?from=2026-01-01&to=2026-03-31&countries=NO');
  assert.deepEqual(rows(norway), [
    ['2026-01', 0, 1, 0, 1],
    ['2026-02', 1, 0, 0, 0],
    ['2026-03', 1, 0, 0, 0],
  ]);
});

test('bad ranges and unknown subjects are 4xx naming the field', async () => {
  const get = (path: string) => t.app.inject({ method: 'GET', url: path, headers: client.headers });
  assert.equal((await get('/api/products/prd_nope/adoption')).statusCode, 404);
  assert.equal((await get('/api/categories/cat_nope/adoption')).statusCode, 404);
  assert.equal((await get('/api/vendors/nowhere.example/adoption')).statusCode, 404);
  const reversed = await get('/api/products/prd_ga/adoption?from=2026-06-01&to=2026-01-01');
  assert.equal(reversed.statusCode, 400);
  assert.match(reversed.json().message, /^from: /);
  const tooLong = await get('/api/products/prd_ga/adoption?from=2010-01-01&to=2026-01-01');
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.json().message, /at most 60 months/);
  assert.equal((await get('/api/products/prd_ga/adoption?interval=week')).statusCode, 400);
  // The default: the last 12 months.
  assert.equal((await trend('/api/products/prd_ga/adoption')).points.length, 12);
});

test("asOf on a company's products: what the log shows at the end of that day, paged and as JSON Lines", async () => {
  const products = async (domain: string, asOf: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/companies/${domain}/products?asOf=${asOf}`, headers: client.headers });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { content: { productId: string; dateFirstVerified: string; dateLastVerified: string; hitCount: number }[] }).content;
  };
  assert.deepEqual(await products('adopts.example', '2026-01-20'), [], 'before its adoption');
  const [adopted] = await products('adopts.example', '2026-02-20');
  assert.deepEqual([adopted!.productId, adopted!.dateFirstVerified, adopted!.dateLastVerified, adopted!.hitCount], ['prd_ga', mid(2), mid(2), 1]);
  const [before] = await products('drops.example', '2026-03-20');
  assert.deepEqual([before!.productId, before!.dateLastVerified, before!.hitCount], ['prd_ga', mid(3), 3]);
  assert.deepEqual(await products('drops.example', '2026-04-20'), [], 'dropped (about March 30) by then');
  // An unreachable month is no drop: still in use at the end of April.
  assert.equal((await products('steady.example', '2026-04-30')).length, 1);

  const jsonl = await t.app.inject({ method: 'GET', url: '/api/companies/drops.example/products/json?asOf=2026-03-20', headers: client.headers });
  assert.equal(jsonl.statusCode, 200);
  assert.deepEqual(
    jsonl.body
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { productId: string }).productId),
    ['prd_ga'],
  );
  const bad = await t.app.inject({ method: 'GET', url: '/api/companies/drops.example/products?asOf=2026-13-01', headers: client.headers });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /asOf/);
});

test('asOf on company search: the companies that used the product on that date', async () => {
  const search = async (body: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: client.headers, payload: body });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { content: { domain: string }[] }).content.map((c) => c.domain).sort();
  };
  const usingGa = { filter: { productIdIn: ['prd_ga'] } };
  assert.deepEqual(await search({ ...usingGa, asOf: '2026-01-20' }), ['drops.example', 'steady.example']);
  assert.deepEqual(await search({ ...usingGa, asOf: '2026-02-20' }), ['adopts.example', 'drops.example', 'steady.example']);
  assert.deepEqual(await search({ ...usingGa, asOf: '2026-04-20' }), ['adopts.example', 'steady.example']);
  assert.deepEqual(await search({ filter: { productIdNotIn: ['prd_ga'] }, domains: ['adopts.example', 'drops.example'], asOf: '2026-01-20' }), [
    'adopts.example',
  ]);
  const bad = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: client.headers, payload: { asOf: 'yesterday' } });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /asOf/);
});
