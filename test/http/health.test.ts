import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { buildApp } from '../../src/app.ts';
import { VERSION } from '../../src/version.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

test('GET /healthz answers without touching the database', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok', version: VERSION });
  assert.ok(res.headers['x-request-id'], 'every response carries its request id');
});

test('GET /readyz reports the database engine', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ready', database: t.db.engine });
});

test('unknown routes get a JSON 404 in the error shape', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here?x=1', headers: { 'x-request-id': 'req-42' } });
  assert.equal(res.statusCode, 404);
  assert.match(res.headers['content-type'] as string, /application\/json/);
  assert.deepEqual(res.json(), {
    status: 404,
    error: 'Not Found',
    message: 'Route GET /api/nothing-here not found',
    path: '/api/nothing-here',
    requestId: 'req-42',
  });
});

test('malformed JSON and prototype poisoning are 400s in the error shape', async () => {
  const bad = await t.app.inject({ method: 'POST', url: '/healthz', headers: { 'content-type': 'application/json' }, payload: '{bad' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().error, 'Bad Request');
  const poisoned = await t.app.inject({
    method: 'POST',
    url: '/healthz',
    headers: { 'content-type': 'application/json' },
    payload: '{"__proto__":{"admin":true}}',
  });
  assert.equal(poisoned.statusCode, 400);
  assert.equal(poisoned.json().status, 400);
});

test('a body above the limit is a 413 in the error shape', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/healthz',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ x: 'a'.repeat(t.config.bodyLimitBytes) }),
  });
  assert.equal(res.statusCode, 413);
  assert.equal(res.json().error, 'Payload Too Large');
});

test('while not ready (first-start seeding), probes answer and the API is a 503 with Retry-After', async () => {
  const readiness = { ready: false, message: 'The demo world is being generated (first start); retry in a few seconds' };
  const app = await buildApp({ config: t.config, db: t.db, readiness });
  try {
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.headers['retry-after'], '5');
    const api = await app.inject({ method: 'GET', url: '/api/me' });
    assert.equal(api.statusCode, 503);
    assert.equal(api.json().message, readiness.message);
    readiness.ready = true;
    assert.equal((await app.inject({ method: 'GET', url: '/api/me' })).statusCode, 401, 'once ready, the API answers (here: no credentials)');
  } finally {
    await app.close();
  }
});
