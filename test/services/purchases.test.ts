// Service-level credit operations used by the CLI (and later by MCP tools).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { createTestClient } from '../helpers/auth.ts';
import type { Db } from '../../src/db/db.ts';
import { getCredits, grantCredits } from '../../src/services/purchases.ts';
import { PERMISSIVE_PLAN } from '../helpers/plans.ts';

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
  assert.deepEqual(
    credits.ledger.map((e) => [e.delta, e.reason, e.reference]),
    [
      [-20, 'refund', null],
      [50, 'grant', 'inv-1'],
    ],
  );
  assert.equal(
    credits.ledger.reduce((s, e) => s + e.delta, 0),
    credits.balance,
  );
  await assert.rejects(getCredits(db, 'cli_nobody', { limit: 10 }), { status: 404 });
});

test('an export stopped half-way is audited with the rows delivered and completed=false', async () => {
  const { insertWorld } = await import('../helpers/fixtures.ts');
  const { exportProfiles } = await import('../../src/services/profiles.ts');
  await insertWorld(db, { people: Array.from({ length: 30 }, (_, i) => ({ id: `per_${String(i).padStart(2, '0')}`, full_name: `P ${i}`, function: 'Ops' })) });
  const principal = {
    clientId: 'cli_x',
    clientName: 'x',
    via: 'api_key' as const,
    plan: PERMISSIVE_PLAN,
  };
  const file = await exportProfiles(db, principal, 'a@example.com', { functions: ['ops'] });
  let n = 0;
  for await (const _row of file.rows) if (++n === 7) break; // the consumer goes away (client disconnect)
  const [entry] = await db.query<Record<string, any>>("SELECT on_behalf_of, params, result_count FROM audit_log WHERE action = 'profiles.export'");
  assert.equal(entry!.result_count, 7);
  assert.equal(entry!.params.completed, false);
  assert.deepEqual(entry!.params.functions, ['ops']);
});
