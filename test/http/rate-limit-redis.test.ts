// Rate limits with Redis as the store (REDIS_URL, else the machine's redis://127.0.0.1:6379):
// two app instances share each client's quota. Skipped, with a message, only when Redis
// is unreachable. Also: with Redis down, limits still hold (counted in memory).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb } from '../helpers/db.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { defineTinyPlan } from '../helpers/plans.ts';
import type { Db } from '../../src/db/db.ts';
import { redisAnswers } from '../helpers/redis.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

let db: Db;
let reachable = false;
let a: TestApp;
let b: TestApp;
before(async () => {
  db = await createTestDb();
  await defineTinyPlan(db);
  reachable = await redisAnswers(REDIS_URL);
  if (!reachable) return;
  a = await createTestApp({ db, env: { REDIS_URL } });
  b = await createTestApp({ db, env: { REDIS_URL } });
});
after(async () => {
  await a?.close();
  await b?.close();
  await db.close();
});

const ping = (t: TestApp, c: TestClient, url = '/api/me') =>
  t.app.inject({ method: 'GET', url, headers: { ...c.headers, 'x-on-behalf-of-user': 'ana@example.com' } });

test('Redis store: two instances share one quota per client; other clients unaffected', async (t) => {
  if (!reachable) return t.skip(`Redis unreachable at ${REDIS_URL}: shared rate-limit test skipped`);
  assert.equal(a.app.counters.kind, 'redis');
  const c = await createTestClient(db, 'tiny' as 'basic');
  const other = await createTestClient(db, 'tiny' as 'basic');
  assert.equal((await ping(a, c)).statusCode, 200);
  const second = await ping(b, c);
  assert.equal(second.statusCode, 200);
  assert.match(String(second.headers.ratelimit), /^"default";r=2;t=\d+$/, 'instance b sees the request counted by a');
  assert.equal((await ping(a, c)).statusCode, 200);
  assert.equal((await ping(b, c)).statusCode, 200);
  for (const inst of [a, b]) {
    const res = await ping(inst, c);
    assert.equal(res.statusCode, 429);
    assert.match(String(res.headers['retry-after']), /^\d+$/);
    assert.equal(res.json().error, 'Too Many Requests');
  }
  assert.equal((await ping(b, other)).statusCode, 200);
});

test('Redis store: the AI quota is shared too, and a refused call spends nothing', async (t) => {
  if (!reachable) return t.skip(`Redis unreachable at ${REDIS_URL}: shared rate-limit test skipped`);
  const c = await createTestClient(db, 'tiny' as 'basic');
  const ai = (inst: TestApp) =>
    inst.app.inject({
      method: 'POST',
      url: '/api/ai/find-customers-of-products?prompt=x',
      headers: { ...c.headers, 'x-on-behalf-of-user': 'ana@example.com' },
    });
  // The test world is empty: the calls are served (404, nothing recognized) and counted.
  assert.equal((await ai(a)).statusCode, 404);
  assert.equal((await ai(b)).statusCode, 404);
  const refused = await ai(a);
  assert.equal(refused.statusCode, 429);
  assert.match(refused.json().message, /AI helper calls/);
  assert.match(String(refused.headers.ratelimit), /"default";r=2;t=\d+, "ai";r=0;t=\d+/);
});

test('Redis down: the service starts and still limits (in memory, per instance)', async () => {
  const down = await createTestApp({ db, env: { REDIS_URL: 'redis://127.0.0.1:18129' } });
  try {
    const c = await createTestClient(db, 'tiny' as 'basic');
    for (let i = 0; i < 4; i++) assert.equal((await ping(down, c)).statusCode, 200);
    assert.equal((await ping(down, c)).statusCode, 429);
  } finally {
    await down.close();
  }
});
