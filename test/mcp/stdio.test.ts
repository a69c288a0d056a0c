// `stacklens mcp` through the SDK's stdio client: the same server over a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openDb } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { createTestClient } from '../helpers/auth.ts';

test('stdio transport: initialize and list tools as the client of the given key; a bad key fails', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-mcp-'));
  try {
    const db = await openDb({ dataDir });
    await migrate(db);
    const { apiKey } = await createTestClient(db, 'full');
    await db.close();
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } as Record<string, string>;

    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/main.ts', 'mcp', '--api-key', apiKey], env, stderr: 'pipe' });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.name, 'stacklens');
    const { tools } = await client.listTools();
    assert.ok(Array.isArray(tools));
    await client.close();

    const bad = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/main.ts', 'mcp', '--api-key', 'sl_bad'], env, stderr: 'pipe' });
    let stderr = '';
    bad.stderr?.on('data', (d) => (stderr += d));
    const badClient = new Client({ name: 'stdio-test', version: '1.0.0' });
    await assert.rejects(badClient.connect(bad));
    assert.match(stderr, /Invalid, revoked or unknown API key/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
