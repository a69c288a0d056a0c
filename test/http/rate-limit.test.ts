// Per-client rate limits from the plan (in-memory store): headers on every authenticated
// response, 429 + Retry-After after the quota, other clients unaffected, AI and export
// classes with their own lower quotas.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { defineTinyPlan } from '../helpers/plans.ts';
import { setClock } from '../../src/clock.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  await defineTinyPlan(t.db);
});
after(() => t.close());
afterEach(() => setClock());

const tiny = () => createTestClient(t.db, 'tiny' as 'basic');
const USER = { 'x-on-behalf-of-user': 'ana@example.com' };
const get = (url: string, c: TestClient, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...c.headers, ...headers } });
const post = (url: string, c: TestClient, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, headers: { ...c.headers, ...headers } });

function assert429(res: Awaited<ReturnType<typeof get>>, what: RegExp) {
  assert.equal(res.statusCode, 429, res.body);
  const body = res.json();
  assert.equal(body.status, 429);
  assert.equal(body.error, 'Too Many Requests');
  assert.match(body.message, what);
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^\d+$/, 'Retry-After is whole seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60);
  assert.ok(res.headers['ratelimit'], 'RateLimit header on the 429 too');
}

test('every authenticated response carries RateLimit-Policy and RateLimit (IETF draft form)', async () => {
  const c = await tiny();
  const first = await get('/api/me', c);
  assert.equal(first.statusCode, 200);
  assert.equal(first.headers['ratelimit-policy'], '"default";q=4;w=60');
  assert.match(String(first.headers.ratelimit), /^"default";r=3;t=(60|59)$/);
  const me = await get('/api/industries', c);
  assert.match(String(me.headers.ratelimit), /^"default";r=2;t=\d+$/);
  const full = await createTestClient(t.db, 'full');
  assert.equal((await get('/api/me', full)).headers['ratelimit-policy'], '"default";q=600;w=60');
  // Errors after authentication carry them too; unauthenticated requests are not counted.
  const notFound = await get('/api/nothing-here', c);
  assert.equal(notFound.statusCode, 404);
  const anon = await t.app.inject({ method: 'GET', url: '/api/me' });
  assert.equal(anon.statusCode, 401);
  assert.equal(anon.headers.ratelimit, undefined);
});

test("429 with Retry-After after the plan's quota, keyed by client (token and key share it), others unaffected", async () => {
  const c = await tiny();
  const other = await tiny();
  for (let i = 0; i < 4; i++) assert.equal((await get('/api/me', c)).statusCode, 200);
  const refused = await get('/api/me', c);
  assert429(refused, /'tiny' plan allows 4 requests per 60 s/);
  assert.match(String(refused.headers.ratelimit), /^"default";r=0;t=\d+$/);
  // The same client through an access token: same bucket.
  const tok = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: 'http://stacklens.test' },
  });
  const viaToken = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tok.json().access_token}` } });
  assert429(viaToken, /4 requests/);
  // Another client from the same address is not affected (never per IP).
  const fine = await get('/api/me', other);
  assert.equal(fine.statusCode, 200);
  assert.match(String(fine.headers.ratelimit), /r=3;/);
  // After Retry-After seconds the window has reset.
  const wait = Number(refused.headers['retry-after']);
  setClock(() => Date.now() + wait * 1000 + 100);
  assert.equal((await get('/api/me', c)).statusCode, 200);
});

// The test world is empty: an AI call is served (404, nothing recognized in the prompt) and counted.
const AI = '/api/ai/find-customers-of-products?prompt=crm';

test('AI calls spend their own, lower quota as well as the general one', async () => {
  const c = await tiny();
  const first = await post(AI, c, USER);
  assert.equal(first.statusCode, 404, first.body);
  assert.equal(first.headers['ratelimit-policy'], '"default";q=4;w=60, "ai";q=2;w=60');
  assert.match(String(first.headers.ratelimit), /^"default";r=3;t=\d+, "ai";r=1;t=\d+$/);
  assert.equal((await post(AI, c, USER)).statusCode, 404);
  assert429(await post(AI, c, USER), /2 AI helper calls per 60 s/);
  // The refused AI call spent nothing: two general requests remain.
  assert.equal((await get('/api/me', c)).statusCode, 200);
  assert.equal((await get('/api/me', c)).statusCode, 200);
  assert429(await get('/api/me', c), /4 requests/);
});

test('exports: ?export=true and export-only routes spend the export quota', async () => {
  const c = await tiny();
  const plain = await get('/api/categories', c);
  assert.equal(plain.headers['ratelimit-policy'], '"default";q=4;w=60');
  const exp = await get('/api/categories?export=true', c, USER);
  assert.equal(exp.statusCode, 200, exp.body);
  assert.equal(exp.headers['ratelimit-policy'], '"default";q=4;w=60, "export";q=1;w=60');
  assert429(await get('/api/companies/nope.example/products/json', c), /1 exports per 60 s/);
  assert429(await get('/api/categories?export=TRUE', c, USER), /exports/);
  assert.equal((await get('/api/categories', c)).statusCode, 200);
});

test('the real export routes spend the export quota only when they export', async () => {
  const c = await createTestClient(t.db, 'full');
  const search = (exp: boolean) =>
    t.app.inject({ method: 'POST', url: `/api/companies/search${exp ? '?export=true' : ''}`, headers: { ...c.headers, ...USER }, payload: {} });
  assert.equal((await search(false)).headers['ratelimit-policy'], '"default";q=600;w=60');
  const exported = await search(true);
  assert.equal(exported.statusCode, 200, exported.body);
  assert.equal(exported.headers['ratelimit-policy'], '"default";q=600;w=60, "export";q=30;w=60');
  const categories = await get('/api/categories?export=true', c, USER);
  assert.equal(categories.headers['ratelimit-policy'], '"default";q=600;w=60, "export";q=30;w=60');
  const jsonl = await get('/api/companies/nope.example/products/json', c);
  assert.equal(jsonl.headers['ratelimit-policy'], '"default";q=600;w=60, "export";q=30;w=60', 'JSONL-only route is an export route');
});

test('a 429 is held back RATE_LIMITED_REPLY_DELAY_MS before it is sent, so retries that ignore Retry-After slow down; allowed calls are not held', async () => {
  const held = await createTestApp({ env: { RATE_LIMITED_REPLY_DELAY_MS: '400' } });
  try {
    await defineTinyPlan(held.db);
    const c = await createTestClient(held.db, 'tiny' as 'basic');
    const timed = async () => {
      const t0 = performance.now();
      const res = await held.app.inject({ method: 'GET', url: '/api/me', headers: c.headers });
      return { res, ms: performance.now() - t0 };
    };
    for (let i = 0; i < 4; i++) assert.equal((await timed()).res.statusCode, 200);
    const refused = await timed();
    assert429(refused.res, /'tiny' plan allows 4 requests per 60 s/);
    assert.ok(refused.ms >= 390, `the refusal came after ${refused.ms.toFixed(0)} ms, before the 400 ms hold`);
  } finally {
    await held.close();
  }
});
