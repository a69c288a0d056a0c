// Read routing to a real streaming replica (DATABASE_READ_URL): a private primary and a
// standby made with pg_basebackup -R (helpers/replica-cluster.ts). The proof that reads go
// to the replica: with WAL replay paused on the standby, a company written on the primary
// is unknown to the read endpoints (404, not in search) while it is in the primary; once
// replay resumes they see it. Meanwhile what must see its own writes does: a client and key
// made on the primary after the pause authenticate at once, a purchase (a write) succeeds
// and the credits read back at once. The real `serve` reads DATABASE_READ_URL the same way.
// Runs in both passes (it brings its own PostgreSQL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { EXAMPLE_WORLD } from '../helpers/example-world.ts';
import { replicaUnavailable, startReplicaPair, type ReplicaPair } from '../helpers/replica-cluster.ts';
import { openDb, type Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { loadConfig } from '../../src/config.ts';
import { faultOf } from '../../src/db/db-faults.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServe, waitReady } from '../helpers/serve-process.ts';

const skip = replicaUnavailable();

let pair: ReplicaPair;
let db: Db;
let t0: TestApp;
let c: TestClient;

before(async () => {
  if (skip) return;
  pair = await startReplicaPair();
  db = await openDb({ databaseUrl: pair.primaryUrl, readUrl: pair.standbyUrl, poolSize: 4 });
  await migrate(db);
  await insertWorld(db, {
    ...EXAMPLE_WORLD,
    people: [{ id: 'per_r1', company_id: 'cmp_example' }],
    contacts: [{ person_id: 'per_r1', kind: 'email', value: 'r1@example.com' }],
  });
  t0 = await createTestApp({ db });
  c = await createTestClient(db, 'full', 5);
  await pair.caughtUp();
});

after(async () => {
  await t0?.close();
  await db?.close();
  pair?.remove();
});

const get = (url: string, who: TestClient = c) =>
  t0.app.inject({ method: 'GET', url: `/api${url}`, headers: { ...who.headers, 'x-on-behalf-of-user': 'ana@example.com' } });
const search = (body: Record<string, unknown>) =>
  t0.app.inject({
    method: 'POST',
    url: '/api/companies/search',
    headers: { ...c.headers, 'x-on-behalf-of-user': 'ana@example.com', 'content-type': 'application/json' },
    body,
  });

test('db.read is the standby; db is the primary', async (t) => {
  if (skip) return t.skip(skip);
  const [onRead] = await db.read.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
  const [onPrimary] = await db.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
  assert.equal(onRead!.r, true);
  assert.equal(onPrimary!.r, false);
  await assert.rejects(db.read.query("INSERT INTO service_secrets (name, value) VALUES ('x', 'y')"), /read-only transaction/);
});

test('reads come from the replica, lag and all; auth, writes and credits stay on the primary', async (t) => {
  if (skip) return t.skip(skip);
  assert.equal((await get('/companies/example.com/firmographics')).statusCode, 200);
  const standby = await openDb({ databaseUrl: pair.standbyUrl, poolSize: 1 });
  try {
    await standby.query('SELECT pg_wal_replay_pause()');
    try {
      // Written on the primary only (the standby replays nothing while paused).
      await insertWorld(db, { companies: [{ id: 'cmp_late', domain: 'late.example' }] });
      const [onPrimary] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM companies WHERE domain = 'late.example'");
      assert.equal(onPrimary!.n, 1);
      assert.equal((await get('/companies/late.example/firmographics')).statusCode, 404);
      assert.equal((await get('/companies/late.example/feed')).statusCode, 404);
      assert.equal((await search({ query: 'late' })).json().totalElements, 0);
      assert.equal((await search({ domains: ['example.com'] })).json().totalElements, 1);

      // A client made after the pause authenticates at once: keys are read on the primary.
      const fresh = await createTestClient(db, 'full', 3);
      assert.equal((await get('/companies/example.com/firmographics', fresh)).statusCode, 200);
      // A write goes to the primary and its effect reads back at once.
      const bought = await t0.app.inject({
        method: 'POST',
        url: '/api/profiles/purchase',
        headers: { ...fresh.headers, 'x-on-behalf-of-user': 'ana@example.com', 'content-type': 'application/json' },
        body: { profileIds: ['per_r1'] },
      });
      assert.equal(bought.statusCode, 200, bought.body);
      assert.equal(bought.json().charged, 1);
      assert.equal((await get('/credits', fresh)).json().balance, 2);
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
    }
    await pair.caughtUp();
    assert.equal((await get('/companies/late.example/firmographics')).statusCode, 200);
    assert.equal((await search({ query: 'late' })).json().totalElements, 1);
  } finally {
    await standby.close();
  }
});

test('`serve` with DATABASE_READ_URL: the start-up line names the replica, and its reads go there', async (t) => {
  if (skip) return t.skip(skip);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-replica-serve-'));
  const server = startServe(dataDir, await freePort(), { DATABASE_URL: pair.primaryUrl, DATABASE_READ_URL: pair.standbyUrl, SEED_DEMO: 'false' });
  const standby = await openDb({ databaseUrl: pair.standbyUrl, poolSize: 1 });
  try {
    await waitReady(server);
    assert.match(
      server.output(),
      /Database: PostgreSQL at 127\.0\.0\.1:\d+\/stacklens \(user postgres\); reads that may lag from the replica at 127\.0\.0\.1:\d+\/stacklens/,
    );
    const call = (domain: string) => fetch(`http://127.0.0.1:${server.port}/api/companies/${domain}/firmographics`, { headers: c.headers });
    await standby.query('SELECT pg_wal_replay_pause()');
    try {
      await insertWorld(db, { companies: [{ id: 'cmp_later', domain: 'later.example' }] });
      assert.equal((await call('later.example')).status, 404);
      assert.equal((await call('example.com')).status, 200);
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
    }
    await pair.caughtUp();
    assert.equal((await call('later.example')).status, 200);
  } finally {
    await standby.close();
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a replica that is down: the routed reads answer 503 with Retry-After, the rest goes on', async (t) => {
  if (skip) return t.skip(skip);
  pair.standby.stop();
  try {
    for (let i = 0; i < 2; i++) {
      // The first call may meet a pooled connection the stop cut, the second a refused one.
      const res = await get('/companies/example.com/firmographics');
      assert.equal(res.statusCode, 503, res.body);
      assert.ok(Number(res.headers['retry-after']) >= 1);
    }
    assert.equal((await get('/credits')).statusCode, 200);
    assert.equal((await get('/me')).statusCode, 200);
    const metrics = (await t0.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /^stacklens_db_replica_up 0$/m);
    assert.match(metrics, /^stacklens_db_up 1$/m);
  } finally {
    pair.standby.start();
  }
  await pair.caughtUp();
  assert.equal((await get('/companies/example.com/firmographics')).statusCode, 200, 'the routed reads recover with the replica');
  assert.match((await t0.app.inject({ method: 'GET', url: '/metrics' })).body, /^stacklens_db_replica_up 1$/m);
});

test('DATABASE_READ_URL needs DATABASE_URL', () => {
  assert.throws(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/db' }), /DATABASE_READ_URL needs DATABASE_URL/);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_READ_URL: 'postgres://r/db' }).databaseReadUrl, 'postgres://r/db');
});

test('a statement the replica cancels for its replay is a 503 to retry, not a 500', () => {
  const conflict = Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
  assert.equal(faultOf(conflict), 'busy');
  const serialization = Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
  assert.equal(faultOf(serialization), undefined, 'an ordinary serialization failure is not a database fault');
});
