// The real process: `stacklens serve` on a PGlite data folder, killed with SIGTERM while
// requests are in flight, must leave a database that opens cleanly on the next start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function startServer(dataDir: string, port: number): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DEMO_COMPANIES: '200' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function waitReady(port: number, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready');
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

test('SIGTERM during requests drains, checkpoints and leaves a database that reopens cleanly', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-serve-'));
  try {
    const port = await freePort();
    const first = startServer(dataDir, port);
    await waitReady(port, first.child);
    assert.ok(fs.existsSync(path.join(dataDir, 'stacklens.lock')), 'the data folder is locked while serving');

    // A second server on the same folder must refuse to start.
    const second = startServer(dataDir, await freePort());
    assert.notEqual(await exited(second.child), 0);
    assert.match(second.output(), /in use by process/);

    // Requests in flight while the signal arrives.
    const inflight = Array.from({ length: 40 }, () => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0));
    first.child.kill('SIGTERM');
    const statuses = await Promise.all(inflight);
    assert.equal(await exited(first.child), 0, first.output());
    assert.ok(statuses.every((s) => s === 200 || s === 503 || s === 0), `unexpected statuses ${statuses}`);
    assert.equal(fs.existsSync(path.join(dataDir, 'stacklens.lock')), false, 'the lock is released');

    // The next start opens the same data without re-seeding and answers.
    const again = startServer(dataDir, port);
    await waitReady(port, again.child);
    assert.doesNotMatch(again.output(), /First start/);
    again.child.kill('SIGTERM');
    assert.equal(await exited(again.child), 0, again.output());
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
