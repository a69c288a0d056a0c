// Usage counting costs no database write per request: counts are kept in memory and written
// by one statement per flush, adding to what other processes (or earlier flushes) wrote.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { UsageRecorder } from '../../src/services/usage.ts';
import { findUsage } from '../../src/store/usage.ts';

const db = await createTestDb();
after(() => db.close());

/** The same database, counting the statements sent through it. */
function counting(inner: Db): { db: Db; statements: () => number } {
  let n = 0;
  const db = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'query' || prop === 'queryArrays') return (...args: unknown[]) => (n++, (value as (...a: unknown[]) => unknown).apply(target, args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, statements: () => n };
}

test('1,000 requests: no statement until the flush, then one; two recorders add up', async () => {
  const { db: watched, statements } = counting(db);
  const a = new UsageRecorder(watched, 60_000);
  const b = new UsageRecorder(watched, 60_000);
  for (let i = 0; i < 1000; i++) a.note('cli_a', i % 2 ? 'getMe' : 'searchCompanies', i % 10 === 0 ? 404 : 200);
  b.note('cli_a', 'getMe', 500);
  assert.equal(statements(), 0, 'nothing written on the request path');
  await a.flush();
  assert.equal(statements(), 1, 'one statement for the whole batch');
  await b.flush();
  await a.flush();
  assert.equal(statements(), 2, 'an empty flush writes nothing');
  const today = new Date().toISOString().slice(0, 10);
  const rows = await findUsage(db, 'cli_a', today, today);
  assert.deepEqual(
    rows.map((r) => [r.operation, r.requests, r.errors]),
    [
      ['getMe', 501, 1],
      ['searchCompanies', 500, 100],
    ],
  );
});
