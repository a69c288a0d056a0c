// Sessions across instances: two app instances on one database (PGlite: one shared
// in-memory database; PostgreSQL: one schema) — a session made through one is used and
// ended through the other, with a real SDK client. Then the same with Redis as the
// session store (REDIS_URL, else the machine's redis://127.0.0.1:6379; skipped with a
// message only when Redis is unreachable).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb } from '../helpers/db.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { testTool } from '../helpers/mcp.ts';
import type { Db } from '../../src/store/db.ts';
import { redisAnswers } from '../helpers/redis.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const tools = [
  testTool({ name: 'whoami', title: 'Who am I', description: 'Names the calling client.', input: z.object({}), run: async (_a, ctx) => ({ client: ctx.principal.clientId }) }),
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
    before(async () => {
      if (store === 'redis' && !redisReachable) return;
      const env: Record<string, string> = store === 'redis' ? { REDIS_URL } : {};
      a = await createTestApp({ db, mcpTools: tools, env });
      b = await createTestApp({ db, mcpTools: tools, env });
      urlA = await a.app.listen({ host: '127.0.0.1', port: 0 });
      urlB = await b.app.listen({ host: '127.0.0.1', port: 0 });
      c = await createTestClient(db, 'full');
    });
    after(async () => {
      await a?.close();
      await b?.close();
    });

    test('a session made on one instance is used and ended on the other', async (t) => {
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
  });
}
