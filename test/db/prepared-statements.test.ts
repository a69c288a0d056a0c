// Named prepared statements (db/db.ts): a parameterized statement is prepared once per
// connection and then only bound and executed; with preparedStatements: false (behind a
// transaction-mode pooler) nothing is prepared. Checked in the server's own view of the
// connection's prepared statements, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';

/** Runs a never-seen statement twice on one connection; how many prepared copies it left. */
async function preparedCopies(db: Db): Promise<{ copies: number; values: string[] }> {
  const text = `SELECT $1::text AS v /* ${randomBytes(6).toString('hex')} */`;
  return db.transaction(async (tx) => {
    const values = [(await tx.query<{ v: string }>(text, ['a']))[0]!.v, (await tx.query<{ v: string }>(text, ['b']))[0]!.v];
    const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [text]);
    return { copies: row!.n, values };
  });
}

test('parameterized statements are prepared once per connection and give each call its own values', async () => {
  const db = await createTestDb();
  try {
    assert.deepEqual(await preparedCopies(db), { copies: 1, values: ['a', 'b'] });
  } finally {
    await db.close();
  }
});

test('preparedStatements: false prepares nothing', async () => {
  const db = await createTestDb({ preparedStatements: false });
  try {
    assert.deepEqual(await preparedCopies(db), { copies: 0, values: ['a', 'b'] });
  } finally {
    await db.close();
  }
});
