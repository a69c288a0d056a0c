// GET /api/profiles/{id}, POST /api/profiles/purchase and GET /api/credits: shapes, charging,
// all-or-nothing, idempotency, permissions, and exactly-once under concurrency.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb } from '../helpers/db.ts';
import { DEFAULT_DB_TIMEOUTS } from '../../src/db/db.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';

let t: TestApp;
let basic: TestClient;

const USER = { 'x-on-behalf-of-user': 'buyer@example.com' };

before(async () => {
  // 50 concurrent purchases of one client race here: above its default share of requests in
  // flight, more statements waiting for a connection than the load-shedding limit (50), and, on a
  // loaded machine, longer than the standard bulkhead's default 2 s queue wait, the 2 s wait
  // for a connection and a light request's 2 s for its database work (PGlite has one
  // connection: the 50 transactions take turns). The race, not the service's protections
  // (tested on their own), is what these tests hold.
  t = await createTestApp({
    db: await createTestDb({ timeouts: { ...DEFAULT_DB_TIMEOUTS, acquireMs: 60_000 } }),
    env: {
      MAX_CONCURRENT_REQUESTS_PER_CLIENT: '64',
      BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS: '60000',
      OVERLOAD_MAX_DB_WAITING: '0',
      DATABASE_READ_TIMEOUT_MS: '60000',
    },
  });
  basic = await createTestClient(t.db, 'basic');
  await insertWorld(t.db, {
    companies: [{ id: 'cmp_acme', domain: 'acme.com', name: 'Acme Corp' }],
    people: [
      {
        id: 'per_ada',
        full_name: 'Ada Lovelace',
        title: 'CTO',
        seniority: 'C-Level',
        function: 'Engineering',
        company_id: 'cmp_acme',
        country: 'GB',
        city: 'London',
        linkedin_url: 'https://linkedin.com/in/ada',
      },
      { id: 'per_bob', full_name: 'Bob Builder', company_id: 'cmp_acme' },
      { id: 'per_cy', full_name: 'Cy Nophone' },
      ...Array.from({ length: 120 }, (_, i) => ({ id: `per_n${String(i).padStart(3, '0')}`, full_name: `Bulk ${i}` })),
    ],
    contacts: [
      { person_id: 'per_ada', kind: 'email', value: 'ada@acme.com', type: 'work', verified: true },
      { person_id: 'per_ada', kind: 'email', value: 'ada@home.example', type: 'personal', verified: false },
      { person_id: 'per_ada', kind: 'phone', value: '+44 20 7946 0000', type: 'mobile' },
      { person_id: 'per_bob', kind: 'email', value: 'bob@acme.com', type: 'work', verified: true },
    ],
  });
});
after(async () => {
  await t.close();
  await t.db.close(); // given to the app, so not closed by it
});

const purchase = (client: TestClient, profileIds: unknown, extra: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/profiles/purchase', headers: { ...client.headers, ...USER, ...extra }, payload: { profileIds } as object });
const profile = (client: TestClient, id: string) => t.app.inject({ method: 'GET', url: `/api/profiles/${encodeURIComponent(id)}`, headers: client.headers });
const credits = (client: TestClient, query = '') => t.app.inject({ method: 'GET', url: `/api/credits${query}`, headers: client.headers });

async function ledgerSum(clientId: string): Promise<number> {
  const [row] = await t.db.query<{ s: number }>('SELECT coalesce(sum(delta), 0)::int AS s FROM credit_ledger WHERE client_id = $1', [clientId]);
  return row!.s;
}
async function balance(clientId: string): Promise<number> {
  const [row] = await t.db.query<{ credits: number }>('SELECT credits FROM api_clients WHERE id = $1', [clientId]);
  return row!.credits;
}

const ADA_SUMMARY = {
  id: 'per_ada',
  fullName: 'Ada Lovelace',
  title: 'CTO',
  seniority: 'C-Level',
  function: 'Engineering',
  companyName: 'Acme Corp',
  companyDomain: 'acme.com',
  country: 'GB',
  city: 'London',
  linkedinUrl: 'https://linkedin.com/in/ada',
};
const ADA_EMAILS = [
  { value: 'ada@acme.com', type: 'work', verified: true },
  { value: 'ada@home.example', type: 'personal', verified: false },
];
const ADA_PHONES = [{ value: '+44 20 7946 0000', type: 'mobile' }];

test('profile, purchase, profile again: exact shapes, one credit, ledger and audit', async () => {
  const buyer = await createTestClient(t.db, 'full', 10);
  const before = await profile(buyer, 'per_ada');
  assert.equal(before.statusCode, 200);
  assert.deepEqual(before.json(), { ...ADA_SUMMARY, purchased: false, purchasedAt: null });

  const res = await purchase(buyer, ['per_ada', 'per_missing', 'per_ada', 'per_cy']);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    results: [
      { profileId: 'per_ada', status: 'purchased', emails: ADA_EMAILS, phones: ADA_PHONES },
      { profileId: 'per_missing', status: 'not_found', emails: [], phones: [] },
      { profileId: 'per_cy', status: 'purchased', emails: [], phones: [] },
    ],
    charged: 2,
    balance: 8,
  });

  const after = await profile(buyer, 'per_ada');
  const body = after.json();
  assert.match(body.purchasedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  assert.deepEqual(body, { ...ADA_SUMMARY, purchased: true, purchasedAt: body.purchasedAt, emails: ADA_EMAILS, phones: ADA_PHONES });

  // Buying again costs nothing and still returns the contacts.
  const again = await purchase(buyer, ['per_ada']);
  assert.deepEqual(again.json(), {
    results: [{ profileId: 'per_ada', status: 'already_purchased', emails: ADA_EMAILS, phones: ADA_PHONES }],
    charged: 0,
    balance: 8,
  });

  const c = await credits(buyer);
  assert.equal(c.statusCode, 200);
  const cb = c.json();
  assert.equal(cb.clientId, buyer.clientId);
  assert.equal(cb.balance, 8);
  assert.deepEqual(
    cb.ledger.map((e: any) => [e.delta, e.reason, e.reference]),
    [
      [-1, 'purchase', 'per_cy'],
      [-1, 'purchase', 'per_ada'],
      [10, 'initial_grant', 'full'],
    ],
  );
  for (const e of cb.ledger) {
    assert.deepEqual(Object.keys(e).sort(), ['createdAt', 'delta', 'id', 'reason', 'reference']);
    assert.ok(!Number.isNaN(Date.parse(e.createdAt)));
  }
  assert.ok(cb.ledger[0].id > cb.ledger[1].id);
  assert.equal(await ledgerSum(buyer.clientId), 8);
  assert.deepEqual((await credits(buyer, '?limit=1')).json().ledger.length, 1);
  assert.equal((await credits(buyer, '?limit=0')).statusCode, 400);

  const audits = await t.db.query<Record<string, any>>(
    "SELECT on_behalf_of, params, result_count FROM audit_log WHERE client_id = $1 AND action = 'profiles.purchase' ORDER BY id",
    [buyer.clientId],
  );
  assert.deepEqual(
    audits.map((a) => [a.on_behalf_of, a.params.profileIds, a.params.outcome, a.result_count]),
    [
      ['buyer@example.com', 3, 'completed', 2],
      ['buyer@example.com', 1, 'completed', 0],
    ],
  );

  // Another client has not purchased it: no contacts.
  const other = await createTestClient(t.db, 'full', 1);
  assert.deepEqual((await profile(other, 'per_ada')).json(), { ...ADA_SUMMARY, purchased: false, purchasedAt: null });
});

test('unknown profile is 404 naming it', async () => {
  const res = await profile(basic, 'per_nobody');
  assert.equal(res.statusCode, 404);
  assert.match(res.json().message, /'per_nobody'/);
  assert.equal((await profile(basic, ' ')).statusCode, 400);
});

test('402 when credits do not cover the new profiles; nothing is charged', async () => {
  const buyer = await createTestClient(t.db, 'full', 2);
  assert.equal((await purchase(buyer, ['per_ada'])).statusCode, 200);
  // per_ada is already bought (free), per_bob and per_cy need 2, the balance is 1.
  const res = await purchase(buyer, ['per_ada', 'per_bob', 'per_cy']);
  assert.equal(res.statusCode, 402);
  assert.deepEqual(Object.keys(res.json()).sort(), ['error', 'message', 'path', 'requestId', 'status']);
  assert.equal(res.json().error, 'Payment Required');
  assert.match(res.json().message, /needs 2 credit\(s\), the balance is 1; nothing was charged/);
  assert.equal(await balance(buyer.clientId), 1);
  assert.equal(await ledgerSum(buyer.clientId), 1);
  assert.equal((await profile(buyer, 'per_bob')).json().purchased, false);
  // Exactly covered works; already bought and unknown ids cost nothing even at zero.
  assert.equal((await purchase(buyer, ['per_bob', 'per_ada'])).json().charged, 1);
  const zero = await purchase(buyer, ['per_ada', 'per_nope']);
  assert.equal(zero.statusCode, 200);
  assert.deepEqual(
    zero.json().results.map((r: any) => r.status),
    ['already_purchased', 'not_found'],
  );
  assert.equal((await purchase(buyer, ['per_cy'])).statusCode, 402);
  const [audit] = await t.db.query<Record<string, any>>(
    "SELECT params, result_count FROM audit_log WHERE client_id = $1 AND params->>'outcome' = 'insufficient_credits' ORDER BY id LIMIT 1",
    [buyer.clientId],
  );
  assert.equal(audit!.params.profileIds, 3);
});

test('profileIds: 400 when missing, empty or blank; 413 above 100 ids, duplicates included', async () => {
  const buyer = await createTestClient(t.db, 'full', 500);
  for (const ids of [undefined, [], [''], ['  '], 'per_ada', [42]]) {
    const res = await purchase(buyer, ids);
    assert.equal(res.statusCode, 400, JSON.stringify(ids));
    assert.match(res.json().message, /profileIds/);
  }
  const many = Array.from({ length: 101 }, (_, i) => `per_n${String(i).padStart(3, '0')}`);
  const tooMany = await purchase(buyer, many);
  assert.equal(tooMany.statusCode, 413);
  assert.match(tooMany.json().message, /at most 100/);
  assert.equal(await balance(buyer.clientId), 500);
  // The limit is on the list as sent (the contract's maxItems): duplicates count.
  assert.equal((await purchase(buyer, [...many.slice(0, 100), many[0]!])).statusCode, 413);
  assert.equal(await balance(buyer.clientId), 500);
  // 100 ids with duplicates among them are answered once each.
  const ok = await purchase(buyer, [...many.slice(0, 50), ...many.slice(0, 50)]);
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.json().results.length, 50);
  assert.equal(ok.json().charged, 50);
  assert.equal(await balance(buyer.clientId), 450);
});

test('403 without the purchase permission or the on-behalf header, before validating the body', async () => {
  const noPerm = await purchase(basic, ['per_ada']);
  assert.equal(noPerm.statusCode, 403);
  assert.match(noPerm.json().message, /Permission 'purchase'/);
  const noPermBadBody = await purchase(basic, []);
  assert.equal(noPermBadBody.statusCode, 403);
  const buyer = await createTestClient(t.db, 'full', 5);
  const noUser = await t.app.inject({ method: 'POST', url: '/api/profiles/purchase', headers: buyer.headers, payload: { profileIds: ['per_ada'] } });
  assert.equal(noUser.statusCode, 403);
  assert.match(noUser.json().message, /X-On-Behalf-Of-User/);
  const badUser = await purchase(buyer, ['per_ada'], { 'x-on-behalf-of-user': 'nope' });
  assert.equal(badUser.statusCode, 400);
  assert.equal(await balance(buyer.clientId), 5);
  const anon = await t.app.inject({ method: 'POST', url: '/api/profiles/purchase', payload: { profileIds: ['per_ada'] } });
  assert.equal(anon.statusCode, 401);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/credits' })).statusCode, 401);
  // Credits need no special permission.
  assert.deepEqual((await credits(basic)).json(), { clientId: basic.clientId, balance: 0, ledger: [] });
});

test('Idempotency-Key: same key and body → stored response; different body → 422; bad key → 400', async () => {
  const buyer = await createTestClient(t.db, 'full', 5);
  const key = { 'idempotency-key': 'order-42' };
  const first = await purchase(buyer, ['per_ada', 'per_bob'], key);
  assert.equal(first.statusCode, 200);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const replay = await purchase(buyer, ['per_ada', 'per_bob'], key);
  assert.equal(replay.statusCode, 200);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.json(), first.json()); // still "purchased", charged 2: the stored answer
  assert.equal(await balance(buyer.clientId), 3);
  assert.equal(await ledgerSum(buyer.clientId), 3);

  const conflict = await purchase(buyer, ['per_ada'], key);
  assert.equal(conflict.statusCode, 422);
  assert.match(conflict.json().message, /Idempotency-Key/);
  const otherUser = await purchase(buyer, ['per_ada', 'per_bob'], { ...key, 'x-on-behalf-of-user': 'someone@example.com' });
  assert.equal(otherUser.statusCode, 422);

  // Keys are per client: another client may use the same key.
  const other = await createTestClient(t.db, 'full', 5);
  assert.equal((await purchase(other, ['per_ada'], key)).json().results[0].status, 'purchased');

  // A 402 is not stored: the same key works once credits allow.
  const poor = await createTestClient(t.db, 'full', 0);
  assert.equal((await purchase(poor, ['per_ada'], { 'idempotency-key': 'k1' })).statusCode, 402);
  await t.db.query('UPDATE api_clients SET credits = 1 WHERE id = $1', [poor.clientId]);
  assert.equal((await purchase(poor, ['per_ada'], { 'idempotency-key': 'k1' })).json().charged, 1);

  for (const bad of ['', 'has space', 'x'.repeat(256)]) {
    const res = await purchase(buyer, ['per_ada'], { 'idempotency-key': bad });
    assert.equal(res.statusCode, 400, bad);
    assert.match(res.json().message, /Idempotency-Key/);
  }
});

test('50 concurrent purchases of one profile by one client charge exactly one credit', async () => {
  const buyer = await createTestClient(t.db, 'full', 100);
  const responses = await Promise.all(Array.from({ length: 50 }, () => purchase(buyer, ['per_bob'])));
  const refused = responses.filter((r) => r.statusCode !== 200).map((r) => r.body);
  assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200], refused.slice(0, 3).join('\n'));
  const statuses = responses.map((r) => r.json().results[0].status);
  assert.equal(statuses.filter((s) => s === 'purchased').length, 1);
  assert.equal(statuses.filter((s) => s === 'already_purchased').length, 49);
  assert.equal(await balance(buyer.clientId), 99);
  assert.equal(await ledgerSum(buyer.clientId), 99); // initial 100 - 1: the ledger sum equals the balance
  const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases WHERE client_id = $1', [buyer.clientId]);
  assert.equal(n!.n, 1);
});

test('concurrent purchases racing for the last credits: all-or-nothing, never overdrawn', async () => {
  // The first winner pays for per_ada too (2 credits), the next two pay 1 each.
  const buyer = await createTestClient(t.db, 'full', 4);
  const ids = Array.from({ length: 10 }, (_, i) => `per_n1${String(i).padStart(2, '0')}`);
  const responses = await Promise.all(ids.map((id) => purchase(buyer, [id, 'per_ada'])));
  const ok = responses.filter((r) => r.statusCode === 200);
  assert.equal(ok.length, 3);
  assert.equal(responses.filter((r) => r.statusCode === 402).length, 7);
  assert.equal(await balance(buyer.clientId), 0);
  assert.equal(await ledgerSum(buyer.clientId), 0);
  // Every charge is one ledger row for one purchase row.
  const [row] = await t.db.query<{ p: number; l: number }>(
    "SELECT (SELECT count(*) FROM purchases WHERE client_id = $1)::int AS p, (SELECT count(*) FROM credit_ledger WHERE client_id = $1 AND reason = 'purchase')::int AS l",
    [buyer.clientId],
  );
  assert.deepEqual(row, { p: 4, l: 4 });
});

test('concurrent retries with one Idempotency-Key buy once and all get the same answer', async () => {
  const buyer = await createTestClient(t.db, 'full', 10);
  const responses = await Promise.all(Array.from({ length: 20 }, () => purchase(buyer, ['per_cy', 'per_bob'], { 'idempotency-key': 'retry-storm' })));
  assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200]);
  const bodies = new Set(responses.map((r) => r.body));
  assert.equal(bodies.size, 1);
  assert.equal(responses.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 19);
  assert.equal(await balance(buyer.clientId), 8);
  assert.equal(await ledgerSum(buyer.clientId), 8);
});
