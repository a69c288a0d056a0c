// Load shedding: with the database queue past its limit the API and MCP answer 503 +
// Retry-After at once (before authentication), each refusal counted in /metrics, while
// /healthz and /readyz answer. (Requests in flight per caller: caller-limits.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { waitFor } from '../helpers/wait.ts';
import { metricValue } from '../helpers/metrics.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
});
after(() => t.close());

/** stacklens_requests_refused_total{reason="overload_db_queue"} (0 before the first). */
const refusedForDbQueue = (app: FastifyInstance) => metricValue(app, 'stacklens_requests_refused_total', { reason: 'overload_db_queue' });

const pressured = (app: FastifyInstance) => (app as FastifyInstance & { isUnderPressure(): boolean }).isUnderPressure();

/** Checks out every connection of the pool and keeps it until the returned function is called. */
async function holdEveryConnection(app: TestApp): Promise<() => Promise<void>> {
  const { pool } = app.db;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const size = pool.options.max!;
  let held = 0;
  const holders = Array.from({ length: size }, () =>
    app.db.transaction(async () => {
      held++;
      await gate;
    }),
  );
  await waitFor(() => held === size, 'every connection to be checked out');
  return async () => {
    open();
    await Promise.all(holders);
  };
}

test('past OVERLOAD_MAX_DB_WAITING the API and MCP are shed with 503 + Retry-After; the probes answer', async () => {
  const app = await createTestApp({ db: t.db, env: { OVERLOAD_MAX_DB_WAITING: '2', OVERLOAD_RETRY_AFTER_SECONDS: '3' } });
  const release = await holdEveryConnection(app);
  let waiting: Promise<unknown>[] = [];
  try {
    assert.equal(pressured(app.app), false);
    // Three statements queue for a connection: one more than the limit.
    waiting = [1, 2, 3].map(() => t.db.query('SELECT 1'));
    await waitFor(() => pressured(app.app), 'the database queue to be sampled past its limit');
    const refusedBefore = await refusedForDbQueue(app.app);
    for (const [method, url] of [
      ['GET', '/api/me'],
      ['POST', '/mcp'],
      ['POST', '/api/companies/search'],
    ] as const) {
      const res = await app.app.inject({ method, url, headers: client.headers, payload: method === 'POST' ? {} : undefined });
      assert.equal(res.statusCode, 503, `${method} ${url}`);
      assert.equal(res.headers['retry-after'], '3');
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'requestId', 'status']);
      assert.equal(body.path, url);
      assert.match(body.message, /database queue is full.*retry after 3 s/);
    }
    assert.equal(await refusedForDbQueue(app.app), refusedBefore + 3, 'every refusal is counted, by reason');
    // The probes are never shed, and /readyz does not queue for a connection.
    assert.equal((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    const ready = await app.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200, ready.body);
    assert.equal(ready.json().status, 'ready');
  } finally {
    await release();
    await Promise.all(waiting);
  }
  await waitFor(() => !pressured(app.app), 'the queue to drain');
  assert.equal((await app.app.inject({ method: 'GET', url: '/api/me', headers: client.headers })).statusCode, 200);
  await app.close();
});

test('/readyz answers while every database connection is busy, without waiting for one', async () => {
  const release = await holdEveryConnection(t);
  try {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready', database: t.db.engine });
  } finally {
    await release();
  }
});
