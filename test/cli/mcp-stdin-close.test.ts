// `stacklens mcp` (stdio) ends when its client closes stdin, whether it opened the data folder
// itself or works through a running server: a desktop client's restart leaves no process behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { freePort, startServe, waitReady } from '../helpers/serve-process.ts';

/** Starts `mcp`, initializes, closes stdin; resolves with the ms from the close to the exit, and stderr. */
async function closeStdin(dataDir: string): Promise<{ exitMs: number; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'mcp'], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '',
    stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const initialized = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('"id":1')) resolve();
    });
    void exited.then(() => reject(new Error(`exited before answering: ${stderr}`)));
  });
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
  );
  await initialized;
  const closedAt = Date.now();
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return { exitMs: Date.now() - closedAt, code, stderr };
}

test('stdio MCP exits promptly when stdin closes, through a running server and on its own', { timeout: 600_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-mcp-stdin-'));
  try {
    const server = startServe(dataDir, await freePort(), { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
    try {
      await waitReady(server);
      const through = await closeStdin(dataDir);
      assert.match(through.stderr, /working through the running server/);
      assert.equal(through.code, 0, through.stderr);
      // Generous for a loaded CI runner; the old behaviour was never (killed here after 20 s).
      assert.ok(through.exitMs < 5_000, `through the server: exited ${through.exitMs} ms after stdin closed`);
      console.log(`# through the server: exit ${through.exitMs} ms after stdin closed`);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const direct = await closeStdin(dataDir);
    assert.equal(direct.code, 0, direct.stderr);
    assert.ok(direct.exitMs < 5_000, `on its own: exited ${direct.exitMs} ms after stdin closed`);
    console.log(`# on its own: exit ${direct.exitMs} ms after stdin closed`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
