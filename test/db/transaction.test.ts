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
