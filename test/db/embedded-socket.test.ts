// The owner of a PGlite data folder shares it on a Unix socket (embedded-socket.ts): a second
// opener works through it, transaction by transaction; a visitor that stays silent holding the
// database, or holds it too long, is cut off and rolled back; the owner's own prepared
// statements survive visitors (embedded-owner.ts keeps running them); the socket is reachable by the owner's OS user only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { finished } from 'node:stream/promises';
import { from as copyFromStdin } from 'pg-copy-streams';
import { spawn, type ChildProcess } from 'node:child_process';
import { openDb } from '../../src/db/db.ts';
import { DataDirLockedError } from '../../src/db/lock.ts';
import { socketDir, socketPath } from '../../src/db/embedded-socket.ts';

let dataDir: string;
let owner: ChildProcess;
let ownerOutput = '';
before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-socket-'));
  // The owner is another process, as a server is (the lock is per process).
  owner = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/embedded-owner.ts', dataDir, '1500', '400'], { stdio: ['pipe', 'pipe', 'pipe'] });
  owner.stderr!.on('data', (d) => (ownerOutput += d));
  await new Promise<void>((resolve, reject) => {
    owner.stdout!.on('data', (d) => ((ownerOutput += d), /ready/.test(ownerOutput) && resolve()));
    owner.once('exit', (code) => reject(new Error(`owner exited ${code}: ${ownerOutput}`)));
  });
});
after(async () => {
  owner.stdin!.end();
  await new Promise((r) => owner.once('exit', r));
  assert.doesNotMatch(ownerOutput, /owner query failed/, 'the owner’s own statements never failed');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const visitorClient = () => new pg.Client({ host: socketDir(dataDir), port: 5432, user: 'postgres', database: 'postgres' });

test('a second opener refuses by default and visits the owner when asked; the socket is private', async () => {
  await assert.rejects(openDb({ dataDir }), (err: Error) => err instanceof DataDirLockedError && /in use by process/.test(err.message));
  assert.equal(fs.statSync(socketDir(dataDir)).mode & 0o777, 0o700);
  assert.equal(fs.statSync(socketPath(dataDir)).mode & 0o777, 0o600);
  const visitor = await openDb({ dataDir, whenOwned: 'visit' });
  try {
    assert.ok(visitor.visiting, 'works through the owner');
    assert.equal(visitor.visiting?.socketPath, socketPath(dataDir));
    await visitor.transaction(async (tx) => {
      await tx.query('INSERT INTO visits VALUES ($1)', [1]);
      await tx.query('INSERT INTO visits VALUES ($1)', [2]);
    });
    const [row] = await visitor.query<{ n: number }>('SELECT count(*)::int AS n FROM visits WHERE n > $1', [0]);
    assert.equal(row!.n, 2);
  } finally {
    await visitor.close();
  }
});

test("visitors take the database transaction by transaction, in the owner's queue", async () => {
  const a = visitorClient();
  const b = visitorClient();
  await a.connect();
  await b.connect();
  try {
    await a.query('BEGIN');
    await a.query('INSERT INTO visits VALUES (10)');
    let bDone = false;
    const bRead = b.query('SELECT count(*)::int AS n FROM visits').then((r) => ((bDone = true), r));
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(bDone, false, 'others wait while a visitor holds a transaction');
    await a.query('COMMIT');
    assert.equal((await bRead).rows[0].n, 3, 'and see the committed row right after');
  } finally {
    await a.end();
    await b.end();
  }
});

test('a visitor copies rows in with COPY FROM STDIN (psql \\copy): relayed whole, the owner goes on', async () => {
  const visitor = visitorClient();
  await visitor.connect();
  try {
    const stream = visitor.query(copyFromStdin('COPY visits (n) FROM STDIN'));
    for (let n = 100; n < 400; n++) stream.write(`${n}\n`);
    stream.end();
    await finished(stream);
    assert.equal(stream.rowCount, 300);
    const [row] = (await visitor.query('SELECT count(*)::int AS n FROM visits WHERE n >= 100 AND n < 400')).rows;
    assert.equal(row.n, 300);
    await visitor.query('DELETE FROM visits WHERE n >= 100 AND n < 400');
  } finally {
    await visitor.end();
  }
});

test('a visitor silent inside a transaction is cut off and rolled back; the owner goes on', async () => {
  const c = visitorClient();
  c.on('error', () => {});
  await c.connect();
  await c.query('BEGIN');
  await c.query('INSERT INTO visits VALUES (99)');
  await new Promise((r) => setTimeout(r, 900)); // past idleMs
  await assert.rejects(c.query('COMMIT'));
  await c.end().catch(() => {});
  assert.equal(await countOf(99), 0, 'rolled back');
});

test('a visitor transaction past the hold limit is cut off and rolled back', async () => {
  const c = visitorClient();
  c.on('error', () => {});
  await c.connect();
  await c.query('BEGIN');
  await assert.rejects(async () => {
    for (let i = 0; i < 100; i++) {
      await c.query('INSERT INTO visits VALUES (77)');
      await new Promise((r) => setTimeout(r, 100)); // under idleMs, but together past holdMs
    }
  }, /may hold the embedded database for at most 1.5 s/);
  await c.end().catch(() => {});
  assert.equal(await countOf(77), 0, 'rolled back');
});

async function countOf(n: number): Promise<number> {
  const c = visitorClient();
  await c.connect();
  try {
    return (await c.query('SELECT count(*)::int AS n FROM visits WHERE n = $1', [n])).rows[0].n;
  } finally {
    await c.end();
  }
}
