// Db.transaction, the one transaction idiom: commits what fn wrote when it resolves, rolls
// all of it back when it throws, honours READ ONLY, and leaves the connection usable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
});
after(() => db.close());

const industries = async () => (await db.query<{ id: string }>('SELECT id FROM industries ORDER BY id')).map((r) => r.id);

test('a transaction that resolves commits every statement and returns fn result', async () => {
  const result = await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_a', 'A')`);
    await tx.query(`INSERT INTO industries (id, name) VALUES ($1::text, $2::text)`, ['ind_b', 'B']);
    return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM industries'))[0]!.n;
  });
  assert.equal(result, 2);
  assert.deepEqual(await industries(), ['ind_a', 'ind_b']);
});

test('a transaction that throws rolls everything back and rethrows', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_c', 'C')`);
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_d', 'D')`);
      await tx.query(`INSERT INTO industries (id, name) VALUES ('ind_a', 'duplicate')`);
    }),
    /duplicate key/,
  );
  assert.deepEqual(await industries(), ['ind_a', 'ind_b'], 'neither ind_c nor ind_d survived');
});

test('readOnly refuses writes; queryArrays reads rows as arrays inside and outside', async () => {
  await assert.rejects(
    db.transaction((tx) => tx.query(`INSERT INTO industries (id, name) VALUES ('ind_e', 'E')`), { readOnly: true }),
    /read-only transaction/,
  );
  const rows = await db.transaction((tx) => tx.queryArrays<[string, string]>('SELECT id, name FROM industries ORDER BY id'), {
    readOnly: true,
    isolation: 'repeatable read',
  });
  assert.deepEqual(rows, [
    ['ind_a', 'A'],
    ['ind_b', 'B'],
  ]);
  assert.deepEqual(await db.queryArrays('SELECT id FROM industries WHERE id = $1', ['ind_b']), [['ind_b']]);
});

test('a statement text that opens a transaction of its own and fails mid-way does not leave its pooled connection aborted', async () => {
  // pg-boss sends `BEGIN; …; COMMIT;` as one text; a failure inside left the transaction open.
  await assert.rejects(
    db.query(`BEGIN; INSERT INTO industries (id, name) VALUES ('ind_f', 'F'); INSERT INTO industries (id, name) VALUES ('ind_a', 'duplicate'); COMMIT;`),
    /duplicate key/,
  );
  // The pool hands out the connection released last: the same one.
  assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
  await db.query(`BEGIN; INSERT INTO industries (id, name) VALUES ('ind_g', 'G')`);
  assert.deepEqual(await industries(), ['ind_a', 'ind_b'], 'neither the failed text nor the one left open wrote anything');
});
