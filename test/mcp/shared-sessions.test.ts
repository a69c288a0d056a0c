// Sessions across instances: two app instances on one database (PostgreSQL: one schema,
// each instance with its own connection pool, as two processes; PGlite, which one process
// owns: one Db shared in-process) — a session made through one is used and ended through
// the other with the same client's credential, and refused there with another client's,
// with a real SDK client. Then the same with Redis as the session store (REDIS_URL, else
// the machine's redis://127.0.0.1:6379; skipped with a message only when Redis is
// unreachable). Idle expiry, with a frozen clock, on both. The export links of tools are in the database too: one made on A is read on B.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb, openSecondPool, TEST_DATABASE_URL } from '../helpers/db.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { testTool } from '../helpers/mcp.ts';
import type { Db } from '../../src/db/db.ts';
import { redisAnswers } from '../helpers/redis.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { setClock } from '../../src/clock.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const tools = [
  testTool({
    name: 'whoami',
    title: 'Who am I',
    description: 'Names the calling client.',
    input: z.object({}),
    run: async (_a, ctx) => ({ client: ctx.principal.clientId }),
  }),
];

let db: Db;
let redisReachable = false;
before(async () => {
  db = await createTestDb();
  redisReachable = await redisAnswers(REDIS_URL);
});
after(() => db.close());

for (const store of ['database', 'redis'] as const) {
  describe(`two instances, sessions in the ${store}`, () => {
    let a: TestApp;
    let b: TestApp;
    let urlA: string;
    let urlB: string;
    let c: TestClient;
    let other: TestClient;
    let second: { db: Db; separate: boolean } | undefined;
    before(async () => {
      if (store === 'redis' && !redisReachable) return;
      const env: Record<string, string> = store === 'redis' ? { REDIS_URL } : {};
      second = await openSecondPool(db);
      a = await createTestApp({ db, mcpTools: tools, env });
      b = await createTestApp({ db: second.db, mcpTools: tools, env });
      urlA = await a.app.listen({ host: '127.0.0.1', port: 0 });
      urlB = await b.app.listen({ host: '127.0.0.1', port: 0 });
      c = await createTestClient(db, 'full');
      other = await createTestClient(db, 'full');
    });
    after(async () => {
      await a?.close();
      await b?.close();
      if (second?.separate) await second.db.close();
    });

    const where = TEST_DATABASE_URL ? 'PostgreSQL, a connection pool each' : 'PGlite, one Db shared in-process';
    test(`a session made on one instance is used and ended on the other, and refused there with another client's token (${where})`, async (t) => {
      if (store === 'redis' && !redisReachable) return t.skip(`Redis unreachable at ${REDIS_URL}: sessions shared through Redis not tested here`);
      const onA = new StreamableHTTPClientTransport(new URL(`${urlA}/mcp`), { requestInit: { headers: { 'x-api-key': c.apiKey } } });
      const clientA = new Client({ name: 'a', version: '1' });
      await clientA.connect(onA);
      const sessionId = onA.sessionId!;
      assert.ok(sessionId);

      // The same session, continued through instance B (as a load balancer might route it).
      const onB = new StreamableHTTPClientTransport(new URL(`${urlB}/mcp`), { sessionId, requestInit: { headers: { 'x-api-key': c.apiKey } } });
      const clientB = new Client({ name: 'b', version: '1' });
      await clientB.connect(onB); // with a sessionId the SDK client skips initialize
      const res = await clientB.callTool({ name: 'whoami', arguments: {} });
      assert.equal(res.isError, undefined);
      assert.match(JSON.stringify(res.content), new RegExp(c.clientId));

      // Another client's credential on the same session, on either instance: refused, and the session lives on.
      for (const url of [urlA, urlB]) {
        const stolen = await fetch(`${url}/mcp`, {
          method: 'POST',
          headers: {
            'x-api-key': other.apiKey,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} }),
        });
        assert.equal(stolen.status, 403);
        assert.match(((await stolen.json()) as { error: { message: string } }).error.message, /belongs to another client/);
      }
      assert.equal((await clientB.callTool({ name: 'whoami', arguments: {} })).isError, undefined);

      // Ended on B: gone on A too.
      await onB.terminateSession();
      const after = await fetch(`${urlA}/mcp`, {
        method: 'POST',
        headers: { 'x-api-key': c.apiKey, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
      });
      assert.equal(after.status, 404);
      await clientA.close();
      await clientB.close();
    });

    test('a session idle past the TTL is gone on both instances: the SDK client gets 404; use on either keeps it alive', async (t) => {
      if (store === 'redis' && !redisReachable) return t.skip(`Redis unreachable at ${REDIS_URL}: sessions shared through Redis not tested here`);
      const ttlMs = a.config.mcp.sessionTtlSeconds * 1000;
      const start = Date.now();
      try {
        setClock(() => start);
        const onA = new StreamableHTTPClientTransport(new URL(`${urlA}/mcp`), { requestInit: { headers: { 'x-api-key': c.apiKey } } });
        const clientA = new Client({ name: 'a', version: '1' });
        await clientA.connect(onA);
        const onB = new StreamableHTTPClientTransport(new URL(`${urlB}/mcp`), {
          sessionId: onA.sessionId,
          requestInit: { headers: { 'x-api-key': c.apiKey } },
        });
        const clientB = new Client({ name: 'b', version: '1' });
        await clientB.connect(onB);
        setClock(() => start + ttlMs - 1000);
        assert.equal((await clientB.callTool({ name: 'whoami', arguments: {} })).isError, undefined, 'used on B just before the TTL');
        setClock(() => start + 2 * ttlMs - 2000);
        assert.equal((await clientA.callTool({ name: 'whoami', arguments: {} })).isError, undefined, "B's use kept it alive on A");
        setClock(() => start + 3 * ttlMs);
        for (const client of [clientA, clientB]) {
          await assert.rejects(client.callTool({ name: 'whoami', arguments: {} }), (err: any) => err.code === 404 && /Session not found/.test(err.message));
        }
        await clientA.close();
        await clientB.close();
      } finally {
        setClock();
      }
    });
  });
}

test(`an export link made through one instance is read through the other, by its client only (${TEST_DATABASE_URL ? 'PostgreSQL, a connection pool each' : 'PGlite, one Db shared in-process'})`, async () => {
  await insertWorld(db, {
    companies: [
      { id: 'cmp_x1', domain: 'x1.example', name: 'X One' },
      { id: 'cmp_x2', domain: 'x2.example', name: 'X Two' },
    ],
  });
  const second = await openSecondPool(db);
  const a = await createTestApp({ db });
  const b = await createTestApp({ db: second.db });
  try {
    const [urlA, urlB] = [await a.app.listen({ host: '127.0.0.1', port: 0 }), await b.app.listen({ host: '127.0.0.1', port: 0 })];
    const owner = await createTestClient(db, 'full');
    const connect = async (url: string, apiKey: string) => {
      const client = new Client({ name: 'x', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { 'x-api-key': apiKey } } }));
      return client;
    };
    const onA = await connect(urlA, owner.apiKey);
    const made = (await onA.callTool({
      name: 'companies_search',
      arguments: { query: 'X', export: true, onBehalfOfUser: 'analyst@example.com' },
    })) as unknown as { structuredContent: { uri: string; rows: number } };
    assert.equal(made.structuredContent.rows, 2);
    const onB = await connect(urlB, owner.apiKey);
    const read = await onB.readResource({ uri: made.structuredContent.uri });
    assert.equal((read.contents[0] as { text: string }).text.trim().split('\r\n').length, 3);
    const thief = await connect(urlB, (await createTestClient(db, 'full')).apiKey);
    await assert.rejects(thief.readResource({ uri: made.structuredContent.uri }), (err: any) => err.code === -32002);
    for (const c of [onA, onB, thief]) await c.close();
  } finally {
    await a.close();
    await b.close();
    if (second.separate) await second.db.close();
  }
});
