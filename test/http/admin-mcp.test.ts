// The Admin API is never an MCP tool: tools/list of an admin client over the real HTTP door
// has no admin operation, a tools/call by an admin operation's id is unknown, defineTool
// refuses an operation with a role, and a hand-made registry holding one does not list it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { OPERATIONS } from '../../src/schemas/operations.ts';
import { listAdminClientsOp } from '../../src/schemas/admin.ts';
import { allTools } from '../../src/mcp/tools/index.ts';
import { annotationsOf, defineTool, type ToolDef } from '../../src/mcp/registry.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { PERMISSIVE_PLAN } from '../helpers/plans.ts';

let t: TestApp;
let url: string;
before(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => t.close());

const ADMIN_IDS = OPERATIONS.filter((op) => op.role).map((op) => op.id);

test('an admin client sees no admin tool in tools/list over HTTP, and cannot call one', async () => {
  const admin = await createTestClient(t.db, 'full', undefined, 'admin');
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp?tools=all`), { requestInit: { headers: admin.headers } }));
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    const names = new Set(tools.map((tool) => tool.name));
    for (const id of ADMIN_IDS) assert.ok(!names.has(id), id);
    for (const tool of allTools) if (names.has(tool.name)) assert.equal(tool.operation.role, undefined, tool.name);
    assert.ok(!tools.some((tool) => /admin/i.test(tool.name)), 'no tool named like one');
    await assert.rejects(client.callTool({ name: 'listAdminClients', arguments: {} }), /Unknown tool/);
  } finally {
    await client.close();
  }
});

test('defineTool refuses an operation that needs a role; a registry holding one does not list it', async () => {
  const withTool = { ...listAdminClientsOp, mcp: { name: 'admin_clients', title: 'Clients', description: 'x' } };
  assert.throws(
    () => defineTool(withTool, { output: withTool.output, run: () => ({ structured: {}, summary: '' }) }),
    /needs role 'admin': it cannot be an MCP tool/,
  );
  // Built by hand, past defineTool: the server still leaves it out.
  const smuggled: ToolDef = {
    operation: withTool,
    name: 'admin_clients',
    title: 'Clients',
    description: 'x',
    input: withTool.input,
    aliases: [],
    annotations: annotationsOf(withTool),
    rateClass: () => 'default',
    run: async () => ({ raw: {} }),
  };
  const admin = await createTestClient(t.db, 'full', undefined, 'admin');
  const principal = {
    clientId: admin.clientId,
    clientName: 'a',
    plan: PERMISSIVE_PLAN,
    role: 'admin' as const,
    via: 'api_key' as const,
  };
  const server = createMcpServer([...allTools, smuggled], { db: t.db, config: t.config, principal, toolList: 'all' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  const { tools } = await client.listTools();
  assert.equal(tools.length, allTools.length);
  assert.ok(!tools.some((tool) => tool.name === 'admin_clients'));
  await assert.rejects(client.callTool({ name: 'admin_clients', arguments: {} }), /Unknown tool/);
  await client.close();
});
