// Bulk writes in COPY's text format (copy-text.ts) through a transaction's copyFrom, on both
// engines: every value comes back as it went in, escapes included; a bad row fails the whole
// transaction. On the embedded database COPY FROM STDIN is relayed (pglite-copy.ts): a client
// that streams its data over several writes, fails its COPY, or sends more than the relay
// holds gets PostgreSQL's answers, and the connection goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finished } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { from as copyFromStdin } from 'pg-copy-streams';
import { openDb } from '../../src/db/db.ts';
import { CopyRows } from '../../src/db/copy-text.ts';
import { CopyInRelay } from '../../src/db/pglite-copy.ts';
import { createTestDb } from '../helpers/db.ts';

const COLUMNS = [
  ['id', 'int'],
  ['name', 'text'],
  ['tags', 'text[]'],
  ['profile', 'jsonb'],
  ['seen', 'timestamptz'],
  ['day', 'date'],
  ['ok', 'bool'],
  ['weight', 'real'],
] as const;
const CREATE = 'CREATE TABLE copied (id int PRIMARY KEY, name text, tags text[], profile jsonb, seen timestamptz, day date, ok bool, weight real)';

test('copyFrom writes every value as it was, tabs, line breaks, backslashes, quotes and nulls included', async (t) => {
  const db = await createTestDb();
  t.after(() => db.close());
  await db.query(CREATE);
  const seen = new Date('2026-11-27T10:11:12.345Z');
  const rows = [
    [1, 'plain', ['a', 'b'], { k: 'v' }, seen, seen, true, 0.5],
    [
      2,
      'tab\there, line\nbreak, cr\rand back\\slash',
      ['with "quote"', 'back\\slash', 'tab\t', 'comma,brace}'],
      { text: 'a\tb\nc\\d"e' },
      seen,
      '2026-01-02',
      false,
      1.25,
    ],
    [3, null, null, null, null, null, null, null],
    [4, '', [], [], seen, seen, true, 0],
  ];
  const copy = new CopyRows('copied', COLUMNS);
  for (const row of rows) copy.add(row);
  await db.transaction((tx) => tx.copyFrom(copy.encoded()));
  const back = await db.query<Record<string, unknown>>('SELECT id, name, tags, profile, seen, day::text AS day, ok, weight FROM copied ORDER BY id');
  assert.deepEqual(
    back.map((r) => [r.id, r.name, r.tags, r.profile, r.seen === null ? null : (r.seen as Date).toISOString(), r.day, r.ok, r.weight]),
    [
      [1, 'plain', ['a', 'b'], { k: 'v' }, seen.toISOString(), '2026-11-27', true, 0.5],
      [
        2,
        'tab\there, line\nbreak, cr\rand back\\slash',
        ['with "quote"', 'back\\slash', 'tab\t', 'comma,brace}'],
        { text: 'a\tb\nc\\d"e' },
        seen.toISOString(),
        '2026-01-02',
        false,
        1.25,
      ],
      [3, null, null, null, null, null, null, null],
      [4, '', [], [], seen.toISOString(), '2026-11-27', true, 0],
    ],
  );
});

test('a row the table refuses fails the whole transaction: nothing copied stays', async (t) => {
  const db = await createTestDb();
  t.after(() => db.close());
  await db.query(CREATE);
  const good = new CopyRows('copied', COLUMNS);
  good.add([1, 'first', null, null, null, null, null, null]);
  const duplicate = new CopyRows('copied', COLUMNS);
  duplicate.add([2, 'second', null, null, null, null, null, null]);
  duplicate.add([1, 'again', null, null, null, null, null, null]);
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.copyFrom(good.encoded());
      await tx.copyFrom(duplicate.encoded());
    }),
    (err: { code?: string }) => err.code === '23505',
  );
  assert.deepEqual(await db.query('SELECT * FROM copied'), []);
  // The connection goes on.
  assert.deepEqual(await db.query<{ n: number }>('SELECT 1 AS n'), [{ n: 1 }]);
});

test('embedded database: COPY FROM STDIN streamed over several writes, and a CopyFail, as on PostgreSQL', async (t) => {
  const db = await openDb({});
  t.after(() => db.close());
  await db.query('CREATE TABLE streamed (n int, label text)');
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const stream = client.query(copyFromStdin('COPY streamed (n, label) FROM STDIN'));
    for (let n = 0; n < 1000; n++) {
      // Each write in a tick of its own: the relay sees the data arrive in many batches.
      if (!stream.write(`${n}\tlabel ${n}\n`)) await new Promise((r) => stream.once('drain', r));
      if (n % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    stream.end();
    await finished(stream);
    assert.equal(stream.rowCount, 1000);
    await client.query('COMMIT');
    const [row] = (await client.query('SELECT count(*)::int AS n, sum(n)::int AS total FROM streamed')).rows;
    assert.deepEqual(row, { n: 1000, total: 999 * 500 });

    // A client that gives up mid-COPY (CopyFail): the statement fails, its rows are not kept.
    const failing = client.query(copyFromStdin('COPY streamed (n, label) FROM STDIN'));
    failing.write('5000\tnot kept\n');
    await new Promise((r) => setImmediate(r));
    failing.destroy(new Error('the file could not be read'));
    await finished(failing).catch(() => {});
    assert.equal((await client.query('SELECT count(*)::int AS n FROM streamed')).rows[0].n, 1000);
  } finally {
    client.release();
  }
});

test('embedded database: the relay refuses a COPY larger than it holds, and PGlite rolls it back', async () => {
  const pglite = await PGlite.create();
  try {
    await pglite.exec('CREATE TABLE held (v text)');
    const relay = new CopyInRelay((message) => pglite.execProtocolRaw(message), 64 * 1024);
    const reply = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
    assert.equal(reply(await relay.run(frontend('Q', 'BEGIN\0'))).slice(-6, -5), 'Z');
    assert.equal(reply(await relay.run(frontend('Q', 'COPY held FROM STDIN\0')))[0], 'G');
    for (let k = 0; k < 20; k++) assert.equal((await relay.run(frontend('d', `${'x'.repeat(8000)}\n`))).length, 0);
    const end = reply(await relay.run(frontend('c', '')));
    assert.match(end, /^E/, 'an ErrorResponse');
    assert.match(end, /holds at most 0\.0625 MiB/);
    assert.match(end, /Z\0\0\0\x05E$/, 'ready, in a failed transaction');
    await relay.run(frontend('Q', 'ROLLBACK\0'));
    assert.deepEqual((await pglite.query('SELECT count(*)::int AS n FROM held')).rows, [{ n: 0 }]);
    // Under the bound, the same relay copies.
    await relay.run(frontend('Q', 'COPY held FROM STDIN\0'));
    await relay.run(frontend('d', 'a\nb\n'));
    assert.match(reply(await relay.run(frontend('c', ''))), /COPY 2/);
    assert.deepEqual((await pglite.query('SELECT count(*)::int AS n FROM held')).rows, [{ n: 2 }]);
  } finally {
    await pglite.close();
  }
});

/** One frontend message: its type, its length, its body. */
function frontend(type: string, body: string): Uint8Array {
  const bytes = Buffer.from(body, 'utf8');
  const out = Buffer.alloc(5 + bytes.length);
  out.write(type, 0, 'latin1');
  out.writeInt32BE(4 + bytes.length, 1);
  bytes.copy(out, 5);
  return out;
}
