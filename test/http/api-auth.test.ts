import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
});
after(() => t.close());

test('no credentials: 401 with WWW-Authenticate and the error shape', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/me' });
  assert.equal(res.statusCode, 401);
  // RFC 6750 §3.1: no error code when the request sent no credentials.
  assert.equal(res.headers['www-authenticate'], 'Bearer realm="stacklens"');
  const body = res.json();
  assert.equal(body.status, 401);
  assert.equal(body.error, 'Unauthorized');
  assert.match(body.message, /Missing credentials/);
});

test('API key accepted as X-API-Key (any case) and as Authorization: API-Key', async () => {
  for (const headers of [{ 'x-api-key': full.apiKey }, { 'X-Api-Key': full.apiKey }, { authorization: `API-Key ${full.apiKey}` }]) {
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    assert.equal(res.statusCode, 200, JSON.stringify(headers));
    assert.deepEqual(res.json().permissions, { export: true, ai: true, purchase: true });
    assert.equal(res.json().clientId, full.clientId);
  }
  const b = await t.app.inject({ method: 'GET', url: '/api/me', headers: basic.headers });
  assert.deepEqual(b.json().permissions, { export: false, ai: false, purchase: false });
});

test('a wrong, malformed or tampered key is 401', async () => {
  const tampered = full.apiKey.slice(0, -1) + (full.apiKey.endsWith('A') ? 'B' : 'A');
  for (const key of [tampered, 'sl_nope', '', 'x'.repeat(500)]) {
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-api-key': key } });
    assert.equal(res.statusCode, 401, key);
  }
  const weird = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: 'Basic Zm9vOmJhcg==' } });
  assert.equal(weird.statusCode, 401);
});
