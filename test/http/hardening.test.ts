// Baseline hardening: helmet headers with a strict API CSP (relaxed for /docs), no
// X-Powered-By, prototype poisoning refused, and secrets never reaching the logs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { API_CSP, DOCS_CSP } from '../../src/http/plugins/security.ts';

const logLines: string[] = [];
let t: TestApp;
let full: TestClient;
before(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void logLines.push(line) },
    routes: async (app) => {
      // A careless route that logs whole headers and body: redaction must still hold.
      app.post('/careless', async (request) => {
        request.log.info({ headers: request.headers, body: request.body }, 'careless log');
        return { ok: true };
      });
    },
  });
  full = await createTestClient(t.db, 'full');
});
after(() => t.close());

test('helmet headers on API responses, strict CSP, no X-Powered-By', async () => {
  for (const res of [
    await t.app.inject({ method: 'GET', url: '/api/me', headers: full.headers }),
    await t.app.inject({ method: 'GET', url: '/api/me' }),
    await t.app.inject({ method: 'GET', url: '/healthz' }),
  ]) {
    assert.equal(res.headers['x-powered-by'], undefined);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.match(String(res.headers['strict-transport-security']), /max-age=\d+/);
    assert.equal(res.headers['content-security-policy'], API_CSP);
  }
  const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(docs.statusCode, 200, 'the real Swagger UI');
  assert.equal(docs.headers['content-security-policy'], DOCS_CSP);
  assert.match(DOCS_CSP, /script-src 'self'(;|$)/, 'no inline scripts even for the docs');
});

test('prototype poisoning in JSON bodies is refused with 400 (API and token endpoint)', async () => {
  for (const payload of ['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
    const api = await t.app.inject({ method: 'POST', url: '/careless', headers: { 'content-type': 'application/json' }, payload });
    assert.equal(api.statusCode, 400, payload);
    assert.equal(api.json().status, 400);
    const tok = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/json' }, payload });
    assert.equal(tok.statusCode, 400);
    assert.equal(tok.json().error, 'invalid_request');
  }
  // Form bodies cannot poison either: fields land on a null-prototype object.
  const form = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '__proto__=x&grant_type=client_credentials&audience=http%3A%2F%2Fstacklens.test',
  });
  assert.equal(form.statusCode, 401);
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('secrets, API keys, tokens and Basic credentials never reach the logs', async () => {
  const token = (
    await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret, audience: 'http://stacklens.test' },
    })
  ).json().access_token;
  const basicValue = Buffer.from(`${full.clientId}:${full.clientSecret}`).toString('base64');
  await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: full.clientId, client_secret: `${full.clientSecret}x`, audience: 'http://stacklens.test' },
  });
  await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { authorization: `Basic ${basicValue}` },
    payload: { grant_type: 'client_credentials', audience: 'http://stacklens.test' },
  });
  await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
  await t.app.inject({ method: 'GET', url: `/api/me?api_key=${full.apiKey}`, headers: full.headers });
  await t.app.inject({
    method: 'POST',
    url: '/careless',
    headers: { 'x-api-key': full.apiKey, authorization: `Bearer ${token}` },
    payload: { client_secret: full.clientSecret, nested: { api_key: full.apiKey } },
  });
  const log = logLines.join('');
  assert.match(log, /"msg":"careless log"/);
  assert.match(log, /\[redacted\]/);
  assert.match(log, /"msg":"token request refused"/, 'refused token requests are logged (without the secret)');
  assert.match(log, new RegExp(`"clientId":"${full.clientId}"`));
  for (const secret of [full.clientSecret, full.apiKey, token, basicValue]) {
    assert.ok(!log.includes(secret), `a secret leaked into the logs: ${secret.slice(0, 12)}…`);
  }
});

test("a failed request's log line carries the error's stable code (never the body, whose shape is fixed)", async () => {
  const missing = await t.app.inject({ method: 'GET', url: '/api/categories/cat_none', headers: { ...full.headers, 'x-request-id': 'req-code-404' } });
  assert.equal(missing.statusCode, 404);
  assert.deepEqual(Object.keys(missing.json()).sort(), ['error', 'message', 'path', 'requestId', 'status']);
  const anonymous = await t.app.inject({ method: 'GET', url: '/api/categories/cat_none', headers: { 'x-request-id': 'req-code-401' } });
  assert.equal(anonymous.statusCode, 401);
  const lineOf = (id: string) => logLines.map((l) => JSON.parse(l)).find((l) => l.reqId === id && l.msg === 'request');
  assert.equal(lineOf('req-code-404')?.errorCode, 'not_found');
  assert.equal(lineOf('req-code-401')?.errorCode, 'unauthorized');
});
