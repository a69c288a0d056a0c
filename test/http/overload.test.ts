// Load shedding and the per-address connection cap: with the database queue past its limit
// the API and MCP answer 503 + Retry-After at once (before authentication) while /healthz
// and /readyz answer; one address flooding connections waits at its cap while another
// client's request and the probes are answered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { freePortInRange } from '../helpers/ports.ts';
import { waitFor } from '../helpers/wait.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
});
after(() => t.close());

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
    }));
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
    for (const [method, url] of [['GET', '/api/me'], ['POST', '/mcp'], ['POST', '/api/companies/search']] as const) {
      const res = await app.app.inject({ method, url, headers: client.headers, payload: method === 'POST' ? {} : undefined });
      assert.equal(res.statusCode, 503, `${method} ${url}`);
      assert.equal(res.headers['retry-after'], '3');
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'requestId', 'status']);
      assert.equal(body.path, url);
      assert.match(body.message, /database queue is full.*retry after 3 s/);
    }
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

/** One HTTP GET from a given local address; resolves with the status or the connection error's code. */
function get(port: number, path: string, localAddress: string, headers: Record<string, string> = {}): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

test('past MAX_CONNECTIONS_PER_IP the connections of one address are parked unread, then served in turn; another client and the probes are answered meanwhile', async () => {
  const port = await freePortInRange();
  const app = await createTestApp({ db: t.db, env: { MAX_CONNECTIONS_PER_IP: '4', PUBLIC_URL: `http://127.0.0.1:${port}` } });
  await app.app.listen({ host: '127.0.0.1', port });
  const flood: net.Socket[] = [];
  try {
    // The flooding address takes its four connections and keeps them.
    for (let i = 0; i < 4; i++) {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      await new Promise((resolve) => socket.once('connect', resolve));
      flood.push(socket);
    }
    // Its next requests wait, parked, unread.
    const settled: (number | string)[] = [];
    const parked = Array.from({ length: 16 }, () => get(port, '/healthz', '127.0.0.2').then((r) => (settled.push(r), r)));
    // Meanwhile another client (another address) is served, and so are the probes.
    assert.equal(await get(port, '/api/me', '127.0.0.1', client.headers), 200);
    assert.equal(await get(port, '/healthz', '127.0.0.1'), 200);
    assert.equal(await get(port, '/readyz', '127.0.0.1'), 200);
    assert.equal(settled.length, 0, 'the parked requests are still waiting');
    // As the address's connections close, its parked ones are served, in turn.
    for (const socket of flood) socket.destroy();
    const answers = await Promise.all(parked);
    assert.equal(answers.filter((r) => r === 200).length, 16);
  } finally {
    for (const socket of flood) socket.destroy();
    await app.close();
  }
});
