// `stacklens mcp` through the SDK's stdio client: the same server over a child process, at
// parity with the in-memory (and so the HTTP) server: the same tools/list, the same
// structured answers, argument errors, resources and prompts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTestClient } from '../helpers/auth.ts';
import { seedMcpWorld } from '../helpers/mcp-world.ts';
import { answerOf } from '../helpers/mcp.ts';
import { loadConfig } from '../../src/config.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { allTools } from '../../src/mcp/tools/index.ts';
import { findClient } from '../../src/store/access.ts';

test('stdio transport: the same tools, answers, errors, resources and prompts as the in-memory server; a bad key fails', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-mcp-'));
  try {
    // The reference answers, from a server in this process over the same data folder.
    const db = await openDb({ dataDir });
    await migrate(db);
    const world = await seedMcpWorld(db, 120);
    const { apiKey, clientId } = await createTestClient(db, 'full');
    const c = (await findClient(db, clientId))!;
    const reference = new Client({ name: 'reference', version: '1' });
    const server = createMcpServer(allTools, {
      db,
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      principal: { clientId: c.id, clientName: c.name, plan: c.plan, via: 'api_key' },
      toolList: 'all',
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await reference.connect(b);
    const tools = await reference.listTools();
    // Reads only, by the tools' own annotations: a write (a purchase, a list upload) or an audited export would
    // answer differently the second time, and a call naming an earlier call's answer ('$tool.field') would follow a write.
    const readOnly = new Set(tools.tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name));
    const calls = world.calls.filter(
      ([name, args]) => readOnly.has(name) && !args.export && !Object.values(args).some((v) => typeof v === 'string' && v.startsWith('$')),
    );
    assert.ok(calls.length >= 20, `${calls.length} read-only calls compared`);
    const expected = {
      tools,
      prompts: await reference.listPrompts(),
      prompt: await reference.getPrompt({ name: 'account_brief', arguments: { companyDomain: world.company } }),
      categories: await reference.readResource({ uri: 'stacklens://reference/categories' }),
      answers: [] as unknown[],
      bad: await reference.callTool({ name: 'company_firmographics', arguments: { companyDomain: world.company, bogus: true } }),
    };
    for (const [name, args] of calls) expected.answers.push(await reference.callTool({ name, arguments: args }));
    await reference.close();
    await db.close();

    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } as Record<string, string>;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/main.ts', 'mcp', '--api-key', apiKey, '--tools', 'all'],
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, 'stacklens');
      // A live channel: monitors' events resources can be subscribed to (test/mcp/monitor-resources.test.ts).
      assert.deepEqual(client.getServerCapabilities()?.resources, { subscribe: true });
      assert.deepEqual(await client.listTools(), expected.tools);
      assert.deepEqual(await client.listPrompts(), expected.prompts);
      assert.deepEqual(await client.getPrompt({ name: 'account_brief', arguments: { companyDomain: world.company } }), expected.prompt);
      assert.deepEqual(await client.readResource({ uri: 'stacklens://reference/categories' }), expected.categories);
      let i = 0;
      for (const [name, args] of calls) {
        const got = await client.callTool({ name, arguments: args });
        assert.equal(answerOf(got as never).isError, false, `${name}: ${answerOf(got as never).text}`);
        assert.deepEqual(got, expected.answers[i++], name);
      }
      const bad = await client.callTool({ name: 'company_firmographics', arguments: { companyDomain: world.company, bogus: true } });
      assert.deepEqual(bad, expected.bad);
      assert.match(answerOf(bad as never).text, /^Error 400: .*bogus: unknown argument/);
    } finally {
      await client.close();
    }

    const bad = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/main.ts', 'mcp', '--api-key', 'sl_bad'],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    bad.stderr?.on('data', (d) => (stderr += d));
    const badClient = new Client({ name: 'stdio-test', version: '1.0.0' });
    await assert.rejects(badClient.connect(bad));
    assert.match(stderr, /Invalid, revoked or unknown API key/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
