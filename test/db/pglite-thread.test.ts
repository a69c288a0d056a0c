// Embedded PGlite runs on a worker thread: the main thread's event loop keeps turning while a
// statement runs, and the database behaves as before behind node-postgres (errors with their
// SQLSTATE, transactions, data kept across a close and reopen, no hanging process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../src/db/db.ts';

test('the event loop keeps turning while a long statement runs', async (t) => {
  const db = await openDb({});
  t.after(() => db.close());
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM generate_series(1, 2000000)');
    assert.equal(row!.n, 2_000_000);
  } finally {
    clearInterval(timer);
  }
  // On the main thread the statement held the loop for its whole run: not one tick.
  assert.ok(ticks > 0, `timer ticks while the statement ran: ${ticks}`);
});

test('errors keep their SQLSTATE; a failed transaction leaves nothing', async (t) => {
  const db = await openDb({});
  t.after(() => db.close());
  await db.query('CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL)');
  await assert.rejects(db.query('SELECT * FROM missing_table'), (err: { code?: string }) => err.code === '42P01');
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES ($1, $2)', [1, 'a']);
      await tx.query('INSERT INTO t VALUES ($1, $2)', [1, 'b']);
    }),
    (err: { code?: string }) => err.code === '23505',
  );
  assert.deepEqual(await db.query('SELECT * FROM t'), []);
});

test('data written in a data folder is there after close and reopen', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stacklens-pglite-thread-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = await openDb({ dataDir: dir });
  await first.query('CREATE TABLE kept (v text)');
  await first.query('INSERT INTO kept VALUES ($1)', ['still here']);
  await first.close();
  const second = await openDb({ dataDir: dir });
  try {
    assert.deepEqual(await second.query('SELECT v FROM kept'), [{ v: 'still here' }]);
  } finally {
    await second.close(); // before the folder is removed
  }
});

test('a process that opens the embedded database exits when its work is done, closed or not', () => {
  for (const close of [true, false]) {
    const script = `
      const { openDb } = await import(${JSON.stringify(new URL('../../src/db/db.ts', import.meta.url).href)});
      const db = await openDb({});
      console.log(JSON.stringify(await db.query('SELECT 41 + 1 AS answer')));
      ${close ? 'await db.close();' : ''}`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, `close=${close}: ${run.stderr}`);
    assert.match(run.stdout, /"answer":42/);
  }
});

test('a new connection starts clean: no transaction or prepared statement left by a dropped one', async (t) => {
  const db = await openDb({});
  t.after(() => db.close());
  await db.query('CREATE TABLE t2 (v int)');
  assert.deepEqual(await db.query('SELECT $1::int AS v', [1]), [{ v: 1 }]); // a named statement on the first connection
  const client = await db.pool.connect();
  await client.query('BEGIN');
  await client.query('INSERT INTO t2 VALUES (1)');
  client.release(new Error('dropped mid-transaction')); // the pool discards this connection
  assert.deepEqual(await db.query('SELECT count(*)::int AS n FROM t2'), [{ n: 0 }]);
  // The next connection prepares the same statement name again without "already exists".
  assert.deepEqual(await db.query('SELECT $1::int AS v', [2]), [{ v: 2 }]);
});
