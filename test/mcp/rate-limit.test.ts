// MCP tool calls spend the client's plan quota like REST requests: the general one for
// every call, the AI/export one for calls whose tool says so; a spent quota is a tool
// error naming the limit and the wait.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { defineTinyPlan } from '../helpers/plans.ts';
import { testTool } from '../helpers/mcp.ts';
import { freePortInRange } from '../helpers/ports.ts';

const tools = [
  testTool({ name: 'plain', title: 'Plain', description: 'A read.', input: z.object({}), run: async () => ({ ok: true }) }),
  testTool({ name: 'suggest', title: 'Suggest', description: 'An AI helper.', input: z.object({}), rateClass: 'ai', run: async () => ({ ok: true }) }),
];

let t: TestApp;
let base: string;
before(async () => {
  const port = await freePortInRange();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ mcpTools: tools, env: { PUBLIC_URL: base } });
  await t.app.listen({ host: '127.0.0.1', port });
  await defineTinyPlan(t.db);
});
after(() => t.close());

async function connect(apiKey: string) {
  const client = new Client({ name: 'rate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': apiKey } } }));
  return client;
}

const text = (r: any) => (r.content as { text: string }[])[0]!.text;

test('tool calls are limited per client by plan; AI tools by the AI quota; other clients unaffected', async () => {
  const c = await createTestClient(t.db, 'tiny' as 'basic');
  const other = await createTestClient(t.db, 'tiny' as 'basic');
  const mcp = await connect(c.apiKey);
  try {
    assert.ok(!(await mcp.callTool({ name: 'suggest', arguments: {} })).isError);
    assert.ok(!(await mcp.callTool({ name: 'suggest', arguments: {} })).isError);
    const ai = await mcp.callTool({ name: 'suggest', arguments: {} });
    assert.equal(ai.isError, true);
    assert.match(text(ai), /^Error 429: Rate limit exceeded: the 'tiny' plan allows 2 AI helper calls per 60 s.*Retry after \d+ s\./);
    assert.ok(!(await mcp.callTool({ name: 'plain', arguments: {} })).isError);
    assert.ok(!(await mcp.callTool({ name: 'plain', arguments: {} })).isError);
    const plain = await mcp.callTool({ name: 'plain', arguments: {} });
    assert.equal(plain.isError, true);
    assert.match(text(plain), /4 requests per 60 s/);
  } finally {
    await mcp.close();
  }
  const mcp2 = await connect(other.apiKey);
  try {
    assert.ok(!(await mcp2.callTool({ name: 'plain', arguments: {} })).isError);
  } finally {
    await mcp2.close();
  }
});
