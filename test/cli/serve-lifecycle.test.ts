// The real process: `stacklens serve` on a PGlite data folder, killed with SIGTERM while
// requests are in flight, must leave a database that opens cleanly on the next start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServe, waitReady } from '../helpers/serve-process.ts';

test('SIGTERM during requests drains, checkpoints and leaves a database that reopens cleanly', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-serve-'));
  try {
    const port = await freePort();
    const first = startServe(dataDir, port);
    await waitReady(first);
    assert.ok(fs.existsSync(path.join(dataDir, 'stacklens.lock')), 'the data folder is locked while serving');

    // A second server on the same folder must refuse to start.
    const second = startServe(dataDir, await freePort());
    assert.notEqual(await second.exited, 0);
    assert.match(second.output(), /in use by process/);

    // Requests in flight while the signal arrives.
    const inflight = Array.from({ length: 40 }, () =>
      fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status,
        () => 0,
      ),
    );
    first.child.kill('SIGTERM');
    const statuses = await Promise.all(inflight);
    assert.equal(await first.exited, 0, first.output());
    assert.ok(
      statuses.every((s) => s === 200 || s === 503 || s === 0),
      `unexpected statuses ${statuses}`,
    );
    assert.equal(fs.existsSync(path.join(dataDir, 'stacklens.lock')), false, 'the lock is released');

    // The next start opens the same data without re-seeding and answers.
    const again = startServe(dataDir, port);
    await waitReady(again);
    assert.doesNotMatch(again.output(), /First start/);
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0, again.output());
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
