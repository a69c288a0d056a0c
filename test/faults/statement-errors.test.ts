// A statement that is wrong (our bug, or the database's refusal of it) is not an outage: it
// must not become the 503 "database unavailable, retry" that invites clients to retry a
// permanent error, nor mark the database down. Both engines, on a healthy connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { DatabaseUnavailableError, faultOf } from '../../src/db/db-faults.ts';

const WRONG_STATEMENTS: Array<[what: string, sql: string, params: unknown[]]> = [
  ['more parameters than placeholders (PostgreSQL answers 08P01, a class-08 code)', 'SELECT $1::int AS n', [1, 2]],
  ['fewer parameters than placeholders', 'SELECT $1::int + $2::int AS n', [1]],
  ['a syntax error', 'SELEC 1', []],
  ['an unknown column', 'SELECT no_such_column FROM companies', []],
  ['a constraint violation', "INSERT INTO installs (company_id, product_id, first_verified, last_verified) VALUES ('x', 'y', now(), now())", []],
];

test('a wrong statement is an ordinary error, not a database fault; the connection goes on serving', async () => {
  const db = await createTestDb();
  try {
    for (const [what, sql, params] of WRONG_STATEMENTS) {
      const err = await db.query(sql, params).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof Error, `${what}: the statement failed`);
      assert.ok(!(err instanceof DatabaseUnavailableError), `${what}: reported as unavailability (${err.message})`);
      assert.equal(faultOf(err), undefined, `${what}: classified as a fault`);
      const [row] = await db.query<{ n: number }>('SELECT 1 AS n');
      assert.equal(row!.n, 1, `${what}: the next statement is served`);
    }
  } finally {
    await db.close();
  }
});
