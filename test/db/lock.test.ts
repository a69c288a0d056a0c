import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { acquireDirLock, DataDirLockedError } from '../../src/db/lock.ts';

test('a data folder held by a live process cannot be locked again', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-lock-'));
  // Pretend PID 1 (always alive) holds the lock.
  fs.writeFileSync(path.join(dir, 'stacklens.lock'), '1');
  assert.throws(
    () => acquireDirLock(dir),
    (err: unknown) => err instanceof DataDirLockedError && /in use by process 1/.test(err.message),
  );
  fs.rmSync(dir, { recursive: true });
});

test('a stale lock from a dead process is taken over, and release removes it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-lock-'));
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  fs.writeFileSync(path.join(dir, 'stacklens.lock'), dead);
  const lock = acquireDirLock(dir);
  assert.equal(fs.readFileSync(path.join(dir, 'stacklens.lock'), 'utf8'), String(process.pid));
  lock.release();
  assert.equal(fs.existsSync(path.join(dir, 'stacklens.lock')), false);
  fs.rmSync(dir, { recursive: true });
});
