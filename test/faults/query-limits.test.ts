// Database time limits per request class, on both engines. The database is held, not slowed:
// a transaction of the test takes exclusive locks on companies and api_clients (PostgreSQL: requests wait
// on the lock; PGlite: its one connection is taken, so requests wait for it), and the
// request must come back as a 503 with Retry-After while the hold lasts. On PostgreSQL the
// given-up statement must also be gone from the server (cancelled), not left waiting.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { listenInRange } from '../helpers/ports.ts';
import { withQueryLimits } from '../../src/db/query-limits.ts';
import { DatabaseUnavailableError } from '../../src/db/db-faults.ts';
import { requestClassOf } from '../../src/http/plugins/query-limits.ts';
import { searchCompaniesOp } from '../../src/schemas/companies.ts';
import { companyFirmographicsOp } from '../../src/schemas/firmographics.ts';
import { companyProductsOp, companyProductsJsonlOp } from '../../src/schemas/company-products.ts';

let t: TestApp; // short limits: 300 ms
let slow: TestApp; // long limits, same database: only a disconnect ends its wait
let c: TestClient;
const onPostgres = Boolean(process.env.DATABASE_URL);

before(async () => {
  const limits = { DATABASE_READ_TIMEOUT_MS: '300', DATABASE_SEARCH_TIMEOUT_MS: '300', DATABASE_EXPORT_IDLE_TIMEOUT_MS: '300' };
  t = await createTestApp({ env: limits });
  slow = await createTestApp({ db: t.db, env: { DATABASE_READ_TIMEOUT_MS: '120000' } });
  await insertWorld(t.db, { companies: [{ id: 'cmp_acme', domain: 'acme.com' }] });
  c = await createTestClient(t.db, 'full');
  // Warm the key cache, so authentication itself needs only the access-version read.
  assert.equal((await firmographics(t)).statusCode, 200);
});
after(async () => {
  await slow.close();
  await t.close();
});

const firmographics = (app: TestApp) => app.app.inject({ method: 'GET', url: '/api/companies/acme.com/firmographics', headers: c.headers });

/** Runs `fn` while a transaction holds an exclusive lock on companies and api_clients (on PGlite: the one connection). */
async function whileHeld<T>(fn: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const holder = t.db.transaction(async (tx) => {
    await tx.query('LOCK TABLE companies, api_clients IN ACCESS EXCLUSIVE MODE');
    locked();
    await gate;
  });
  await isLocked;
  try {
    return await fn();
  } finally {
    release();
    await holder;
  }
}

/** Statements waiting for the lock on this test's companies table (PostgreSQL; the server is shared). */
async function lockWaiters(): Promise<number> {
  const [row] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'companies'::regclass AND NOT granted");
  return row!.n;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

function assertUnavailable(res: LightMyRequestResponse, where: string): void {
  assert.equal(res.statusCode, 503, `${where}: ${res.body}`);
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/, where);
  assert.deepEqual(Object.keys(res.json()).sort(), ['error', 'message', 'path', 'requestId', 'status'], where);
}

test('request classes: light reads, searches and exports', () => {
  assert.equal(requestClassOf(companyFirmographicsOp, {}, '/api/companies/x/firmographics'), 'light');
  assert.equal(requestClassOf(searchCompaniesOp, {}, '/api/companies/search'), 'search');
  assert.equal(requestClassOf(searchCompaniesOp, { export: 'true' }, '/api/companies/search'), 'export');
  assert.equal(requestClassOf(companyProductsOp, { export: 'false' }, '/api/companies/x/products'), 'light');
  assert.equal(requestClassOf(companyProductsJsonlOp, {}, '/api/companies/x/products/json'), 'export');
  assert.equal(requestClassOf(undefined, {}, '/mcp'), 'search');
});

test('a light read past its limit is a 503 with Retry-After; on PostgreSQL its statement is cancelled on the server', async () => {
  await whileHeld(async () => {
    assertUnavailable(await firmographics(t), 'light read while the database is held');
    if (onPostgres) await until(async () => (await lockWaiters()) === 0, 'the given-up statement leaves the server while the lock is still held');
  });
  assert.equal((await firmographics(t)).statusCode, 200, 'the connection came back to the pool in working order');
});

test('an export that stalls past its per-statement limit is a 503 (nothing was streamed yet)', async () => {
  await whileHeld(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/companies/acme.com/products/json', headers: c.headers });
    assertUnavailable(res, 'stalled export');
  });
});

test('the token endpoint answers 503 (not 500, not 401) when the database does not answer in time', async () => {
  await whileHeld(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: 'http://stacklens.test' },
    });
    assertUnavailable(res, 'token endpoint');
  });
});

test('a client that disconnects gives up its waiting statement at once (no time limit involved)', async () => {
  await whileHeld(async () => {
    const controller = new AbortController();
    let settled: unknown = undefined;
    const waiting = withQueryLimits({ signal: controller.signal }, () => t.db.query('SELECT count(*) FROM companies')).then(
      () => (settled = 'answered'),
      (err: unknown) => (settled = err),
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(settled, undefined, 'still waiting while the database is held');
    controller.abort();
    await waiting;
    const err = settled as unknown;
    assert.ok(err instanceof DatabaseUnavailableError && err.fault === 'aborted', String(err));
  });
});

test(
  "on PostgreSQL a disconnected HTTP client's statement is cancelled on the server",
  { skip: !onPostgres && 'PGlite cannot cancel a running statement' },
  async () => {
    const server = slow.app.server;
    const port = await listenInRange((p) => slow.app.listen({ port: p, host: '127.0.0.1' }));
    try {
      await whileHeld(async () => {
        const req = http.get({ host: '127.0.0.1', port, path: '/api/companies/acme.com/firmographics', headers: c.headers });
        req.on('error', () => {});
        await until(async () => (await lockWaiters()) === 1, 'the request waits on the lock');
        req.destroy();
        await until(async () => (await lockWaiters()) === 0, 'the statement is cancelled while the lock is still held');
      });
    } finally {
      server.closeAllConnections();
    }
  },
);

test('a request already past its deadline starts no statement: the time-limit 503 every time, never a race with an idle connection', async () => {
  for (let i = 0; i < 20; i++) {
    await assert.rejects(
      withQueryLimits({ deadline: Date.now() - 1, label: 'light reads (2000 ms)' }, () => t.db.query('SELECT 1')),
      (err: unknown) => err instanceof DatabaseUnavailableError && err.status === 503 && /time limit for light reads/.test(err.message),
    );
  }
  assert.equal((await t.db.query<{ one: number }>('SELECT 1 AS one'))[0]!.one, 1, 'the connection goes on serving');
});
