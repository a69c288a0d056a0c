// The access version is read once per round trip, not once per API-key request (SharedReads),
// and each request still sees every change committed before it arrived; a request waits for
// a shared read within its own limits (withinRequestLimits). Then the whole thing under
// concurrent load on both engines: a key revoked between bursts is refused by every later
// request, with fewer version reads than requests.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { SharedReads, createApiKey, revokeApiKey, verifyApiKey } from '../../src/auth/api-keys.ts';
import { createClient } from '../../src/auth/clients.ts';
import { withinRequestLimits } from '../../src/db/db.ts';
import { DatabaseUnavailableError } from '../../src/db/db-faults.ts';
import { withQueryLimits } from '../../src/db/query-limits.ts';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';

/** A value "in the database" and reads of it that end when the test says so. */
function controlledSource() {
  let value = 1;
  const reads: Array<{ saw: number; end: () => void; fail: (err: Error) => void }> = [];
  const readOnce = () =>
    new Promise<number>((resolve, reject) => {
      const saw = value; // what a statement begun now sees
      reads.push({ saw, end: () => resolve(saw), fail: reject });
    });
  return { reads, readOnce, set: (v: number) => (value = v) };
}

const tick = () => new Promise((r) => setImmediate(r));

test('callers during a read in flight share the next read, begun after it ends', async () => {
  const src = controlledSource();
  const shared = new SharedReads(src.readOnce);
  const first = shared.read();
  assert.equal(src.reads.length, 1);
  // A change commits while the first read is in flight (it began before): later callers must see it.
  src.set(2);
  const later = Array.from({ length: 5 }, () => shared.read());
  await tick();
  assert.equal(src.reads.length, 1, 'no second read while the first is in flight');
  src.reads[0]!.end();
  assert.equal(await first, 1);
  await tick();
  assert.equal(src.reads.length, 2, 'one read for all five waiting callers');
  src.reads[1]!.end();
  assert.deepEqual(await Promise.all(later), [2, 2, 2, 2, 2], 'every later caller saw the change');
  // Idle again: the next caller begins its own read at once.
  const alone = shared.read();
  assert.equal(src.reads.length, 3);
  src.reads[2]!.end();
  assert.equal(await alone, 2);
});

test('a failed read fails its own callers only; the waiting ones get the next read', async () => {
  const src = controlledSource();
  const shared = new SharedReads(src.readOnce);
  const first = shared.read();
  const waiting = shared.read();
  src.reads[0]!.fail(new Error('connection lost'));
  await assert.rejects(first, /connection lost/);
  await tick();
  src.reads[1]!.end();
  assert.equal(await waiting, 1);
});

test('a request waits for a shared read within its own time limit and its own client', async () => {
  let finish!: (v: string) => void;
  const slow = new Promise<string>((r) => (finish = r));
  await assert.rejects(
    withQueryLimits({ deadline: Date.now() + 30 }, () => withinRequestLimits(slow)),
    (err) => err instanceof DatabaseUnavailableError && err.fault === 'timeout',
  );
  const gone = new AbortController();
  const waiting = withQueryLimits({ signal: gone.signal }, () => withinRequestLimits(slow));
  gone.abort();
  await assert.rejects(waiting, (err) => err instanceof DatabaseUnavailableError && err.fault === 'aborted');
  const patient = withQueryLimits({ deadline: Date.now() + 10_000 }, () => withinRequestLimits(slow));
  finish('answer');
  assert.equal(await patient, 'answer', 'the shared work went on for those still waiting');
  assert.equal(await withinRequestLimits(Promise.resolve(7)), 7, 'outside a request: no limits');
});

let db: Db;
before(async () => {
  db = await createTestDb();
});
after(() => db.close());

test('concurrent API-key requests: fewer version reads than requests, and a revocation refuses every later request', async () => {
  const client = await createClient(db, { name: 'shared reads', plan: 'full' });
  const key = await createApiKey(db, client.clientId);
  const other = await createApiKey(db, client.clientId);
  assert.ok(await verifyApiKey(db, key.apiKey), 'cached from now on');
  assert.ok(await verifyApiKey(db, other.apiKey));
  // Count the statements that read the access version while 50 requests verify at once.
  let versionReads = 0;
  const query = db.queryArrays.bind(db);
  db.queryArrays = ((sql: string, params?: unknown[]) => {
    if (/FROM access_version/.test(sql)) versionReads++;
    return query(sql, params as never);
  }) as typeof db.queryArrays;
  try {
    const burst = await Promise.all(Array.from({ length: 50 }, () => verifyApiKey(db, key.apiKey)));
    assert.ok(burst.every(Boolean), 'all 50 accepted');
    assert.ok(versionReads >= 1 && versionReads < 50, `${versionReads} version reads for 50 requests`);
    await revokeApiKey(db, key.id);
    const after = await Promise.all(Array.from({ length: 50 }, (_, i) => verifyApiKey(db, i % 2 ? key.apiKey : other.apiKey)));
    assert.deepEqual(
      after.map((c) => Boolean(c)),
      after.map((_, i) => i % 2 === 0),
      'the revoked key refused by every later request; the other key accepted',
    );
  } finally {
    db.queryArrays = query;
  }
});
