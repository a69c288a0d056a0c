// A database outage under load, on a private PostgreSQL cluster this file starts itself
// (initdb in a temp folder, its own port): stopped (connections refused), then frozen
// (SIGSTOP on the postmaster and every backend: connections accepted, never answered).
// Meanwhile every request, with an API key, a bearer token past the client cache, or at
// the token endpoint, is answered 503 with Retry-After in the service's error shape — never
// 500, never 401 — /readyz is 503, /healthz 200, and the log has one line per state
// change. After the database is back, requests succeed again (the pool reconnects). Over
// real sockets too: many keep-alive connections of one address each get their 503.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { openDb, type Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { setClock } from '../../src/clock.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { privateClusterUnavailable, startPrivateCluster, type PrivateCluster } from '../helpers/private-cluster.ts';

const skip = privateClusterUnavailable();
let pc: PrivateCluster;
let db: Db;
let app: FastifyInstance;
let c: TestClient;
let token: string;
const logLines: { msg: string; database?: string }[] = [];
let clockOffset = 0;

before(async () => {
  if (skip) return;
  pc = await startPrivateCluster();
  db = await openDb({ databaseUrl: pc.url, poolSize: 4, timeouts: { connectMs: 500, acquireMs: 1000 } });
  await migrate(db);
  await insertWorld(db, { companies: [{ id: 'cmp_acme', domain: 'acme.com' }] });
  c = await createTestClient(db, 'full');
  setClock(() => Date.now() + clockOffset);
  app = await buildApp({
    config: testConfig({ LOG_LEVEL: 'info', DATABASE_READ_TIMEOUT_MS: '1500' }),
    db,
    logStream: { write: (line: string) => void logLines.push(JSON.parse(line)) },
  });
  await app.ready();
  const res = await tokenRequest();
  assert.equal(res.statusCode, 200, res.body);
  token = res.json().access_token;
});

after(async () => {
  setClock();
  await app?.close();
  await db?.close();
  pc?.remove();
});

const tokenRequest = () =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: 'http://stacklens.test' },
  });
const firmographics = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/api/companies/acme.com/firmographics', headers });
const bearer = () => ({ authorization: `Bearer ${token}` });

/** Requests from several concurrent loops (API key and bearer, in turn) until `stop` resolves. */
async function load(stop: Promise<void>): Promise<LightMyRequestResponse[]> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const answers: LightMyRequestResponse[] = [];
  await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      for (let n = 0; !stopped && n < 500; n++) {
        answers.push(await firmographics(i % 2 ? c.headers : bearer()));
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  return answers;
}

function assertUnavailable(res: LightMyRequestResponse, where: string): void {
  assert.equal(res.statusCode, 503, `${where}: ${res.body}`);
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/, `${where}: Retry-After`);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'requestId', 'status'], where);
  assert.equal(body.status, 503);
  assert.equal(body.error, 'Service Unavailable');
}

/** Every answer is a 200 or a 503 with Retry-After: no 401, no 500. */
function assertOnly200Or503(answers: LightMyRequestResponse[]): void {
  const statuses = new Map<number, number>();
  for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
  assert.deepEqual(
    [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
    [],
    `statuses: ${JSON.stringify([...statuses])}`,
  );
  for (const a of answers) if (a.statusCode === 503) assertUnavailable(a, 'under load');
  assert.ok((statuses.get(503) ?? 0) > 0, 'the outage was seen');
}

/** Polls until a request succeeds (the pool reconnected), then checks the next ones all do. */
async function assertRecovers(): Promise<void> {
  let res = await firmographics(c.headers);
  for (let i = 0; i < 200 && res.statusCode !== 200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    res = await firmographics(c.headers);
  }
  assert.equal(res.statusCode, 200, res.body);
  const next = await Promise.all(Array.from({ length: 20 }, (_, i) => firmographics(i % 2 ? c.headers : bearer())));
  assert.deepEqual(
    next.map((r) => r.statusCode),
    next.map(() => 200),
  );
  assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  assert.equal((await tokenRequest()).statusCode, 200);
}

const stateLines = (state: 'down' | 'up') => logLines.filter((l) => l.database === state);

test('database stopped under load: 503 + Retry-After, never 401 or 500; probes; one log line each way; recovery', { skip }, async () => {
  assert.equal((await firmographics(c.headers)).statusCode, 200);
  assert.equal((await firmographics(bearer())).statusCode, 200);
  let resume!: () => void;
  const loading = load(new Promise<void>((r) => (resume = r)));

  pc.cluster.stop();
  clockOffset += 31_000; // past the 30 s client cache: the token's client must be read again
  assertUnavailable(await firmographics(bearer()), 'bearer token, client cache expired');
  assertUnavailable(await firmographics(c.headers), 'API key');
  assertUnavailable(await tokenRequest(), 'token endpoint');
  assertUnavailable(await app.inject({ method: 'GET', url: '/readyz' }), '/readyz');
  assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);

  pc.cluster.start();
  resume();
  assertOnly200Or503(await loading);
  await assertRecovers();
  assert.equal(stateLines('down').length, 1, 'one line when it went down');
  assert.equal(stateLines('up').length, 1, 'one line when it came back');
  assert.equal(logLines.filter((l) => /unhandled error/.test(l.msg)).length, 0, 'no stack trace per request');
});

test('database frozen (SIGSTOP) under load: answers within the limit as 503, not a hang; recovery on thaw', { skip }, async () => {
  const before = { down: stateLines('down').length, up: stateLines('up').length };
  let resume!: () => void;
  const loading = load(new Promise<void>((r) => (resume = r)));
  await new Promise((r) => setTimeout(r, 100)); // connections checked out when the freeze hits

  pc.cluster.freeze();
  try {
    clockOffset += 31_000;
    // Each of these would hang for as long as the freeze lasts without the time limits.
    assertUnavailable(await firmographics(bearer()), 'bearer token, frozen');
    assertUnavailable(await firmographics(c.headers), 'API key, frozen');
    assertUnavailable(await tokenRequest(), 'token endpoint, frozen');
    assertUnavailable(await app.inject({ method: 'GET', url: '/readyz' }), '/readyz, frozen');
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  } finally {
    pc.cluster.thaw();
  }
  resume();
  assertOnly200Or503(await loading);
  await assertRecovers();
  assert.equal(stateLines('down').length, before.down + 1);
  assert.equal(stateLines('up').length, before.up + 1);
});

/** GET on `agent` from 127.0.0.2 over a real socket: status, Retry-After and time, or the connection error's code. */
function socketGet(
  port: number,
  agent: http.Agent,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number | string; retryAfter?: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent, localAddress: '127.0.0.2', headers, timeout: 20_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in 20 s'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? err.message, ms: performance.now() - started }));
  });
}

test(
  'database frozen: 30 concurrent keep-alive connections of one address each get their 503 with Retry-After, none is reset or left waiting',
  { skip },
  async () => {
    const pool = await createTestClient(db, 'full');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 30 });
    pc.cluster.freeze();
    const answers: Awaited<ReturnType<typeof socketGet>>[] = [];
    try {
      clockOffset += 31_000;
      for (let round = 0; round < 2; round++) {
        answers.push(...(await Promise.all(Array.from({ length: 30 }, () => socketGet(port, agent, '/api/companies/acme.com/firmographics', pool.headers)))));
      }
    } finally {
      pc.cluster.thaw();
      agent.destroy();
    }
    const statuses = [...new Set(answers.map((a) => a.status))];
    assert.deepEqual(statuses, [503], `every request answered 503: ${JSON.stringify(answers.map((a) => a.status))}`);
    assert.ok(
      answers.every((a) => /^[1-9]\d*$/.test(a.retryAfter ?? '')),
      'each with Retry-After',
    );
    const slowest = Math.max(...answers.map((a) => a.ms));
    assert.ok(slowest < 10_000, `answered within the time limits (slowest ${Math.round(slowest)} ms)`);
    await assertRecovers();
  },
);
