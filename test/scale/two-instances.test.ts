// Two real `stacklens serve` processes on one PostgreSQL database and one Redis, as N
// instances behind a load balancer would run, with one client moved between them on every
// call: the rate limit is one quota across both, a feed cursor issued by A pages on B, an
// Idempotency-Key replayed on B returns A's stored answer (nothing bought twice), an MCP
// session made on A works (and ends) on B, a key revoked through A is refused by B, and an
// access token issued by A is accepted by B.
// Both start at once on an empty database: the migrations run once, under their lock.
//
// PostgreSQL pass only (DATABASE_URL): the embedded database has one owner process, so two
// instances cannot share it; the PGlite pass says so and CI runs the PostgreSQL pass too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, startServe, waitReady, type ServeProcess } from '../helpers/serve-process.ts';
import { redisAnswers } from '../helpers/redis.ts';
import { TEST_DATABASE_URL } from '../helpers/db.ts';
import { openDb, type Db } from '../../src/db/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { EXAMPLE_WORLD } from '../helpers/example-world.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { defineTinyPlan } from '../helpers/plans.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

let skip: string | false = TEST_DATABASE_URL
  ? false
  : 'two instances share one PostgreSQL database (DATABASE_URL); the embedded database has one owner process, so this runs in the PostgreSQL pass only';

let database: string;
let databaseUrl: string;
let tmp: string;
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;
let db: Db | undefined;

function urlOf(database: string): string {
  const u = new URL(TEST_DATABASE_URL!);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

before(async () => {
  if (skip) return;
  if (!(await redisAnswers(REDIS_URL))) {
    skip = `Redis unreachable at ${REDIS_URL}: instances share rate limits and sessions through Redis`;
    return;
  }
  database = `sl_two_${process.pid}_${randomBytes(3).toString('hex')}`;
  databaseUrl = urlOf(database);
  await admin((c) => c.query(`CREATE DATABASE "${database}"`));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-two-'));
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    SEED_DEMO: 'false',
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMITED_REPLY_DELAY_MS: '0',
  };
  const [portA, portB] = [await freePort(), await freePort()];
  // Both at once on an empty database: each applies the pending migrations under the lock.
  a = startServe(path.join(tmp, 'a'), portA, { ...env, PUBLIC_URL: 'http://stacklens.test' });
  b = startServe(path.join(tmp, 'b'), portB, { ...env, PUBLIC_URL: 'http://stacklens.test' });
  await Promise.all([waitReady(a), waitReady(b)]);
  db = await openDb({ databaseUrl, poolSize: 2 });
});

after(async () => {
  for (const s of [a, b]) {
    if (s && s.child.exitCode === null) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }
  await db?.close();
  if (database) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)).catch(() => {});
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const base = (s: ServeProcess) => `http://127.0.0.1:${s.port}`;
const call = (s: ServeProcess, c: TestClient, url: string, init: RequestInit = {}) =>
  fetch(`${base(s)}/api${url}`, { ...init, headers: { ...c.headers, 'x-on-behalf-of-user': 'ana@example.com', ...(init.headers as Record<string, string>) } });

test('two serve processes on one PostgreSQL and Redis: the migrations ran once', async (t) => {
  if (skip) return t.skip(skip);
  const [row] = await db!.query<{ n: number; distinct: number }>('SELECT count(*)::int AS n, count(DISTINCT version)::int AS distinct FROM schema_migrations');
  assert.equal(row!.n, row!.distinct);
  assert.ok(row!.n > 10);
});

test('rate limit: one quota across both instances', async (t) => {
  if (skip) return t.skip(skip);
  await defineTinyPlan(db!); // 4 requests a minute
  const c = await createTestClient(db!, 'tiny');
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 ? b! : a!, c, '/me')).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
  const refused = await call(b!, c, '/me');
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  assert.match(refused.headers.get('ratelimit') ?? '', /"default";r=0;/);
});

test('feed: a cursor issued by A pages on B without repeats or gaps', async (t) => {
  if (skip) return t.skip(skip);
  await insertWorld(db!, {
    ...EXAMPLE_WORLD,
    feed: Array.from({ length: 45 }, (_, i) => ({
      id: `fd_${String(i).padStart(3, '0')}`,
      company_id: 'cmp_example',
      title: `Item ${i}`,
      published_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    })),
  });
  const c = await createTestClient(db!, 'full');
  const seen: string[] = [];
  let cursor: string | undefined;
  let page = 0;
  do {
    const s = page % 2 ? b! : a!;
    const res = await call(s, c, `/companies/example.com/feed${cursor ? `?paginationId=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { paginationId?: string; feeds: { id: string }[] };
    seen.push(...body.feeds.map((f) => f.id));
    cursor = body.paginationId;
    page++;
  } while (cursor && page < 20);
  assert.ok(page >= 2, 'the feed spans more than one page');
  assert.equal(seen.length, 45);
  assert.equal(new Set(seen).size, 45);
  assert.equal(seen[0], 'fd_044'); // newest first
});

test('idempotency: a purchase replayed on B returns the answer stored by A, charged once', async (t) => {
  if (skip) return t.skip(skip);
  await insertWorld(db!, {
    people: [
      { id: 'per_two_1', company_id: 'cmp_example' },
      { id: 'per_two_2', company_id: 'cmp_example' },
    ],
    contacts: [
      { person_id: 'per_two_1', kind: 'email', value: 'one@example.com' },
      { person_id: 'per_two_2', kind: 'email', value: 'two@example.com' },
    ],
  });
  const c = await createTestClient(db!, 'full', 10);
  const purchase = (s: ServeProcess) =>
    call(s, c, '/profiles/purchase', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-two-instances' },
      body: JSON.stringify({ profileIds: ['per_two_1', 'per_two_2'] }),
    });
  const first = await purchase(a!);
  assert.equal(first.status, 200, await first.clone().text());
  const firstBody = await first.text();
  assert.equal(JSON.parse(firstBody).charged, 2);
  const replay = await purchase(b!);
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(await replay.text(), firstBody); // byte for byte
  const credits = (await (await call(b!, c, '/credits')).json()) as { balance: number };
  assert.equal(credits.balance, 8);
  // The same key with another body is refused on either instance.
  const other = await call(b!, c, '/profiles/purchase', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'order-two-instances' },
    body: JSON.stringify({ profileIds: ['per_two_1'] }),
  });
  assert.equal(other.status, 422);
});

test('MCP: a session made on A is used and ended on B', async (t) => {
  if (skip) return t.skip(skip);
  const c = await createTestClient(db!, 'full');
  const headers = { 'x-api-key': c.apiKey };
  const onA = new StreamableHTTPClientTransport(new URL(`${base(a!)}/mcp`), { requestInit: { headers } });
  const clientA = new Client({ name: 'two-instances', version: '1' });
  await clientA.connect(onA);
  const sessionId = onA.sessionId!;
  assert.ok(sessionId);
  const onB = new StreamableHTTPClientTransport(new URL(`${base(b!)}/mcp`), { sessionId, requestInit: { headers } });
  const clientB = new Client({ name: 'two-instances', version: '1' });
  await clientB.connect(onB); // with a session id the SDK skips initialize: B must know the session
  const res = await clientB.callTool({ name: 'company_firmographics', arguments: { companyDomain: 'example.com' } });
  assert.notEqual(res.isError, true, JSON.stringify(res.content));
  assert.match(JSON.stringify(res.structuredContent ?? res.content), /example\.com/);
  await onB.terminateSession();
  const afterEnd = await fetch(`${base(a!)}/mcp`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
  });
  assert.equal(afterEnd.status, 404);
  await clientA.close();
  await clientB.close();
});

test('a key revoked through A is refused by B at its next request', async (t) => {
  if (skip) return t.skip(skip);
  const adminClient = await createTestClient(db!, 'full', undefined, 'admin');
  const c = await createTestClient(db!, 'full');
  assert.equal((await call(b!, c, '/me')).status, 200); // B caches the key
  const [key] = await db!.query<{ id: string }>('SELECT id FROM api_keys WHERE client_id = $1', [c.clientId]);
  const revoked = await call(a!, adminClient, `/admin/keys/${key!.id}/revoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(revoked.status, 200, await revoked.clone().text());
  assert.equal((await call(b!, c, '/me')).status, 401);
});

test('an access token issued by A is accepted by B (signing keys in the database)', async (t) => {
  if (skip) return t.skip(skip);
  const c = await createTestClient(db!, 'full');
  const issued = await fetch(`${base(a!)}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: 'http://stacklens.test' }),
  });
  assert.equal(issued.status, 200, await issued.clone().text());
  const { access_token: token } = (await issued.json()) as { access_token: string };
  const me = await fetch(`${base(b!)}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(me.status, 200, await me.clone().text());
  assert.equal(((await me.json()) as { clientId: string }).clientId, c.clientId);
});

test('neither instance logged an error or a warning while the other shared the database', async (t) => {
  if (skip) return t.skip(skip);
  // Both started pg-boss on an empty database at once: the loser's schema creation fails
  // inside its own `BEGIN; …; COMMIT;` text, which pg-boss expects; its connection must not
  // go back to the pool with that transaction still open (every later statement would fail).
  for (const [name, s] of [
    ['A', a!],
    ['B', b!],
  ] as const) {
    const logged = s
      .output()
      .split('\n')
      .filter((line) => /^\{"level":(4|5|6)\d/.test(line));
    assert.deepEqual(logged, [], `instance ${name} logged:\n${logged.join('\n')}`);
  }
});
