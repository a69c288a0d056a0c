// Purchases' credit side at the service level: grants and refunds with their ledger entries, as
// the CLI calls them (the purchase itself is tested through the doors: test/http/profiles-purchase).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { createTestClient } from '../helpers/auth.ts';
import type { Db } from '../../src/store/db.ts';
import { getCredits, grantCredits } from '../../src/services/purchases.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
});
after(() => db.close());

test('grantCredits adds and removes with ledger entries; never below zero; unknown client 404', async () => {
  const c = await createTestClient(db, 'basic', 0);
  assert.equal(await grantCredits(db, c.clientId, 50, 'grant', 'inv-1'), 50);
  assert.equal(await grantCredits(db, c.clientId, -20, 'refund'), 30);
  await assert.rejects(grantCredits(db, c.clientId, -31), { status: 400, message: /negative/ });
  await assert.rejects(grantCredits(db, c.clientId, 0), { status: 400 });
  await assert.rejects(grantCredits(db, c.clientId, 1.5), { status: 400 });
  await assert.rejects(grantCredits(db, 'cli_nobody', 5), { status: 404 });
  const credits = await getCredits(db, c.clientId, { limit: 10 });
  assert.equal(credits.balance, 30);
  assert.deepEqual(credits.ledger.map((e) => [e.delta, e.reason, e.reference]), [[-20, 'refund', null], [50, 'grant', 'inv-1']]);
  assert.equal(credits.ledger.reduce((s, e) => s + e.delta, 0), credits.balance);
  await assert.rejects(getCredits(db, 'cli_nobody', { limit: 10 }), { status: 404 });
});
