// Bodies, methods and timestamps at the edge of the contract: a POST whose input is in the
// query string refuses a body; a JSON null is not a search body; a prototype key is named;
// an unknown method is a 405 (with Allow) on a known path; timestamps with any RFC 3339
// offset and days the database cannot hold never reach the database as a 500.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { intelligenceWorld } from '../intelligence/world.ts';
import { listenInRange } from '../helpers/ports.ts';

let t: TestApp;
let full: TestClient;
let admin: TestClient;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  full = await createTestClient(t.db, 'full');
  admin = await createTestClient(t.db, 'full', undefined, 'admin');
});
after(() => t.close());

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });
const DETAILS = '/api/companies/me.example/metrics/details?cohortCompanyDomain=same.example';

test('the query form of the detailed comparison refuses a body (object, string, array) with a 400 naming the rule', async () => {
  for (const payload of ['{"a":1}', '"diff.example"', '["diff.example"]', '{"cohortCompanyDomain":["diff.example"]}', '0']) {
    const res = await t.app.inject({ method: 'POST', url: DETAILS, headers: json(full.headers), payload });
    assert.equal(res.statusCode, 400, `${payload}: ${res.body}`);
    assert.match(res.json().message, /^body: POST \S+\/metrics\/details takes no body; its input is in the query string/);
  }
  // No body, an empty one or an empty JSON object (what many clients send for "no body") is the query form as before.
  for (const payload of [undefined, '', '{}', ' { } ']) {
    const res = await t.app.inject({ method: 'POST', url: DETAILS, headers: payload === undefined ? full.headers : json(full.headers), payload });
    assert.equal(res.statusCode, 200, res.body);
  }
  // Every other POST that takes its input from the query string says the same.
  const onBehalf = { 'x-on-behalf-of-user': 'analyst@example.com' };
  for (const url of ['/api/companies/me.example/products/paged', '/api/ai/find-people-profiles?prompt=CTO']) {
    const res = await t.app.inject({ method: 'POST', url, headers: json({ ...full.headers, ...onBehalf }), payload: '{"page":1}' });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().message, /takes no body/);
  }
});

test('a JSON null is not a company-search body; an absent or empty one is', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: json(full.headers), payload: 'null' });
  assert.equal(res.statusCode, 400, res.body);
  assert.match(res.json().message, /^body: must not be null/);
  for (const payload of [undefined, '']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/companies/search',
      headers: payload === undefined ? full.headers : json(full.headers),
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
  }
});

test('a body with a prototype key is a 400 naming the key; broken JSON still says it is not valid JSON', async () => {
  const cases = [
    ['{"__proto__":{"x":1}}', /^body: must not contain the key __proto__$/],
    ['{"filter":{"__proto__":{"x":1}}}', /^body: must not contain the key __proto__$/],
    ['{"\\u005f_proto__":{}}', /^body: must not contain the key __proto__$/],
    ['{"constructor":{"prototype":{"x":1}}}', /^body: must not contain the key constructor\.prototype$/],
    ['{"query":', /not valid JSON/],
  ] as const;
  for (const [payload, message] of cases) {
    const res = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: json(full.headers), payload });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().message, message);
  }
});

test('an unknown method (QUERY) is a 405 with Allow on a known path and a 404 elsewhere, in the error shape, also through a real socket', async () => {
  for (const payload of [undefined, '{}']) {
    const res = await t.app.inject({ method: 'QUERY' as 'GET', url: '/api/companies/search', headers: payload ? json(full.headers) : full.headers, payload });
    assert.equal(res.statusCode, 405, res.body);
    assert.equal(res.headers.allow, 'POST');
    assert.match(res.json().message, /^QUERY is not allowed on \/api\/companies\/search; use POST/);
  }
  const unknown = await t.app.inject({ method: 'QUERY' as 'GET', url: '/api/nothing-here', headers: full.headers });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().status, 404);
  const port = await listenInRange((p) => t.app.listen({ port: p, host: '127.0.0.1' }));
  const res = await fetch(`http://127.0.0.1:${port}/api/me`, { method: 'QUERY', headers: full.headers });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'GET, HEAD');
});

test('audit timestamps take every RFC 3339 offset (the instant it names); other text is a 400 naming the field', async () => {
  // An entry now; -23:35 moves the bound 23 h 35 min later than the same clock time in UTC.
  await t.app.inject({ url: '/api/me', headers: full.headers });
  await t.app.inject({
    method: 'POST',
    url: '/api/admin/clients',
    headers: json(admin.headers),
    payload: JSON.stringify({ name: 'audit probe', plan: 'basic' }),
  });
  const all = (await t.app.inject({ url: '/api/admin/audit', headers: admin.headers })).json().entries;
  assert.ok(all.length > 0);
  const at = new Date(all[0].at);
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  const shifted = (ms: number) => `${local(ms - (23 * 60 + 35) * 60_000)}-23:35`; // the same instant, written at -23:35
  for (const [query, present] of [
    [`from=${encodeURIComponent(shifted(at.getTime() - 60_000))}`, true],
    [`from=${encodeURIComponent(shifted(at.getTime() + 60_000))}`, false],
    [`to=${encodeURIComponent(shifted(at.getTime() + 60_000))}`, true],
    [`to=${encodeURIComponent(`${local(at.getTime() + 60_000)}+23:59`)}`, false],
  ] as const) {
    const res = await t.app.inject({ url: `/api/admin/audit?${query}`, headers: admin.headers });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    assert.equal(
      res.json().entries.some((e: { id: number }) => e.id === all[0].id),
      present,
      query,
    );
  }
  // Far past and far future bounds filter like the bounds themselves.
  for (const query of ['from=0000-01-01T00:00:00%2B15:59', 'to=0000-01-01T00:00:00Z', 'to=9999-12-31T23:59:59-23:59']) {
    const res = await t.app.inject({ url: `/api/admin/audit?${query}`, headers: admin.headers });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
  }
  for (const query of ['from=2024-01-01T00:00:00%2B24:00', 'to=2024-01-01T00:00:00-99:00', 'from=2024-02-30T00:00:00Z']) {
    const res = await t.app.inject({ url: `/api/admin/audit?${query}`, headers: admin.headers });
    assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
    assert.match(res.json().message, /^query\.(from|to): must be an ISO 8601 timestamp/);
  }
});

test('usage days run from 0001-01-01: year 0000 is a 400 naming the field, the default window stops at the first day', async () => {
  const usage = (query: string) => t.app.inject({ url: `/api/admin/clients/${full.clientId}/usage?${query}`, headers: admin.headers });
  const bad = await usage('from=0000-12-01&to=0000-12-02');
  assert.equal(bad.statusCode, 400, bad.body);
  assert.match(bad.json().message, /^query\.from: must be a date YYYY-MM-DD from 0001-01-01/);
  const early = await usage('to=0001-01-05');
  assert.equal(early.statusCode, 200, early.body);
  assert.equal(early.json().from, '0001-01-01');
});
