// The MCP session stores, with a frozen clock: idle expiry (use keeps a session alive),
// the per-client cap (429 with Retry-After until the least recently used one expires),
// delete, the sweep (and the stream sweep's question: which sessions live), and ids that are
// never stored. The same cases run on the database
// store (PGlite or PostgreSQL) and on the Redis store (REDIS_URL, else the machine's
// redis://127.0.0.1:6379; skipped with a message only when Redis is unreachable).
import { test, before, after, afterEach, describe } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createTestDb } from '../helpers/db.ts';
import { createTestClient } from '../helpers/auth.ts';
import { setClock } from '../../src/clock.ts';
import { RateLimitedError, ServiceUnavailableError } from '../../src/errors.ts';
import { DatabaseSessionStore, RedisSessionStore, sessionIdHash, type SessionStore } from '../../src/mcp/sessions.ts';
import type { Db } from '../../src/db/db.ts';
import { redisAnswers } from '../helpers/redis.ts';
import { sweepStreamEvents } from '../../src/store/mcp-streams.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const TTL_MS = 60_000;
const T0 = Date.parse('2026-11-25T10:00:00Z');

let db: Db;
let clientA: string;
let clientB: string;
let redisReachable = false;
let now = T0;
before(async () => {
  db = await createTestDb();
  clientA = (await createTestClient(db, 'full')).clientId;
  clientB = (await createTestClient(db, 'full')).clientId;
  redisReachable = await redisAnswers(REDIS_URL);
});
after(() => db.close());
afterEach(() => setClock());

const at = (ms: number) => {
  now = T0 + ms;
  setClock(() => now);
};

const stores: [string, () => Promise<SessionStore | string>][] = [
  ['database', async () => new DatabaseSessionStore(db, { ttlMs: TTL_MS, maxPerClient: 2 })],
  [
    'redis',
    async () => {
      if (!redisReachable) return `Redis unreachable at ${REDIS_URL}: the Redis session store is not tested here`;
      return RedisSessionStore.connect(REDIS_URL, { ttlMs: TTL_MS, maxPerClient: 2 }, () => {});
    },
  ],
];

for (const [kind, open] of stores) {
  describe(`${kind} session store`, () => {
    test('a session expires after the idle TTL; each use restarts the clock', async (t) => {
      const store = await open();
      if (typeof store === 'string') return t.skip(store);
      try {
        at(0);
        const s = await store.create(clientA, '2025-11-25');
        assert.match(s.id, /^[A-Za-z0-9_-]{32}$/, 'visible ASCII, 24 random bytes');
        at(50_000);
        assert.deepEqual(await store.get(s.id), { id: s.id, clientId: clientA, protocolVersion: '2025-11-25' });
        at(100_000);
        assert.ok(await store.get(s.id), 'the use at 50 s kept it alive past the first TTL');
        // Redis renews on every use; the database at most every TTL/10 (here 6 s), so a
        // session may lapse up to that much early: probe just past TTL after the last use.
        at(100_000 + TTL_MS + 1);
        assert.equal(await store.get(s.id), undefined, 'idle longer than the TTL');
        assert.equal(await store.get('no-such-session'), undefined);
        assert.equal(await store.get('x'.repeat(10_000)), undefined);
      } finally {
        await store.close();
      }
    });

    test("at the cap a new session ends the client's least recently used idle one; 429 with Retry-After only when every one is busy", async (t) => {
      const store = await open();
      if (typeof store === 'string') return t.skip(store);
      try {
        at(1_000_000);
        const a1 = await store.create(clientA, '2025-06-18');
        at(1_010_000);
        const a2 = await store.create(clientA, '2025-06-18');
        at(1_020_000);
        const b1 = await store.create(clientB, '2025-06-18');
        assert.equal(b1.evicted, false, 'another client has its own cap');
        // Idle sessions at the cap: the least recently used (a1) makes room.
        const a3 = await store.create(clientA, '2025-06-18');
        assert.equal(a3.evicted, true);
        assert.equal(await store.get(a1.id), undefined, 'the least recently used idle session is ended');
        assert.ok(await store.get(a2.id), 'the other one lives on');
        assert.ok(await store.get(b1.id), "another client's session is never ended");
        // Every session busy (a request in flight): the cap refuses, as before.
        at(1_030_000);
        const busy = new Set([sessionIdHash(a2.id), sessionIdHash(a3.id)]);
        await assert.rejects(store.create(clientA, '2025-06-18', busy), (err: unknown) => {
          assert.ok(err instanceof RateLimitedError);
          assert.equal(err.status, 429);
          // a2, last seen at 1 020 s (the get above), expires at 1 080 s: 50 s from now.
          assert.equal(err.headers['retry-after'], '50');
          assert.match(err.message, /already has 2 open MCP sessions.*request in flight.*DELETE \/mcp/);
          return true;
        });
        assert.ok((await store.get(a2.id)) && (await store.get(a3.id)), 'a refusal ends nothing');
        // One busy, one idle: the idle one goes, even when it is the more recently used.
        at(1_040_000);
        await store.get(a3.id);
        const a4 = await store.create(clientA, '2025-06-18', new Set([sessionIdHash(a2.id)]));
        assert.equal(a4.evicted, true);
        assert.equal(await store.get(a3.id), undefined);
        assert.ok(await store.get(a2.id), 'the busy session is kept');
        assert.equal(await store.delete(a4.id), true, 'ending a session frees a place');
        assert.equal(await store.delete(a4.id), false);
        assert.equal((await store.create(clientA, '2025-06-18', new Set([sessionIdHash(a2.id)]))).evicted, false);
      } finally {
        await store.close();
      }
    });

    test('the stream sweep drops the subscriptions of sessions that ended without a DELETE, and keeps the live ones', async (t) => {
      const store = await open();
      if (typeof store === 'string') return t.skip(store);
      try {
        at(9_000_000);
        const live = await store.create(clientA, '2025-11-25');
        const ended = await store.create(clientA, '2025-11-25');
        await store.delete(ended.id);
        const hashes = [sessionIdHash(live.id), sessionIdHash(ended.id), sessionIdHash('never-a-session')];
        for (const h of hashes) {
          await db.query(`INSERT INTO mcp_subscriptions (session_hash, monitor_id, client_id, uri, after_seq) VALUES ($1, 'mon_1', $2, 'u', 0)`, [h, clientA]);
        }
        await sweepStreamEvents(db, new Date(0), (h) => store.liveHashes(h));
        const left = await db.query<{ session_hash: string }>('SELECT session_hash FROM mcp_subscriptions WHERE session_hash = ANY($1::text[])', [hashes]);
        assert.deepEqual(
          left.map((r) => r.session_hash),
          [sessionIdHash(live.id)],
        );
        await store.delete(live.id);
        await db.query('DELETE FROM mcp_subscriptions WHERE session_hash = ANY($1::text[])', [hashes]);
      } finally {
        await store.close();
      }
    });
  });
}

test('the database keeps only a hash of each id, and the sweep deletes expired sessions', async () => {
  const store = new DatabaseSessionStore(db, { ttlMs: TTL_MS, maxPerClient: 100 });
  try {
    at(5_000_000);
    const s = await store.create(clientB, '2025-03-26');
    const rows = await db.query<{ id_hash: string }>('SELECT id_hash FROM mcp_sessions WHERE client_id = $1', [clientB]);
    assert.ok(rows.some((r) => r.id_hash === sessionIdHash(s.id)));
    assert.ok(
      rows.every((r) => r.id_hash !== s.id),
      'the id itself is not stored',
    );
    at(5_000_000 + TTL_MS + 1);
    assert.ok((await store.sweep()) >= 1);
    const left = await db.query('SELECT 1 FROM mcp_sessions WHERE id_hash = $1', [sessionIdHash(s.id)]);
    assert.equal(left.length, 0);
  } finally {
    await store.close();
  }
});

test('with Redis not answering, session calls are 503 with Retry-After, never a session assumed', async () => {
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const store = await RedisSessionStore.connect(`redis://127.0.0.1:${port}`, { ttlMs: TTL_MS, maxPerClient: 2 }, () => {});
  try {
    for (const call of [() => store.get('some-session-id'), () => store.create(clientA, '2025-11-25'), () => store.delete('some-session-id')]) {
      await assert.rejects(call(), (err: unknown) => err instanceof ServiceUnavailableError && err.status === 503 && err.headers['retry-after'] === '2');
    }
  } finally {
    await store.close();
  }
});
