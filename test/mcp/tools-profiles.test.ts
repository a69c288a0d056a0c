// The people MCP tools through a real SDK Client (in-memory transport): same services and
// answers as the REST routes, permissions and on-behalf user enforced, errors as isError.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { connectMcp, listAllTools } from '../helpers/mcp.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, {
    companies: [{ id: 'cmp_acme', domain: 'acme.com', name: 'Acme Corp' }],
    people: [
      { id: 'per_ada', full_name: 'Ada Lovelace', title: 'CTO', company_id: 'cmp_acme' },
      { id: 'per_bob', full_name: 'Bob Builder' },
    ],
    contacts: [{ person_id: 'per_ada', kind: 'email', value: 'ada@acme.com', type: 'work', verified: true }],
  });
});
after(() => t.close());

const connect = (plan: 'full' | 'basic', credits?: number) => connectMcp(t, plan, credits);

test('tools are listed with input schemas', async () => {
  const { tools } = await listAllTools(t, 'basic');
  const names = tools.map((x) => x.name);
  for (const n of ['profiles_search', 'profile_get', 'profiles_purchase', 'credits_balance']) assert.ok(names.includes(n), n);
  const purchase = tools.find((x) => x.name === 'profiles_purchase')!;
  assert.deepEqual((purchase.inputSchema.required as string[]).sort(), ['profileIds']);
  assert.equal(purchase.annotations?.readOnlyHint, false);
});

test('search, purchase, get and balance: same answers as REST', async () => {
  const { call, clientId } = await connect('full', 3);
  const page = await call('profiles_search', { query: 'acme', size: 5 });
  assert.deepEqual(page.json().items, [{ id: 'per_ada', fullName: 'Ada Lovelace', title: 'CTO', companyDomain: 'acme.com', country: 'US' }]);
  assert.equal(page.json().total, 1);
  assert.equal(page.json().nextPage, null);
  assert.doesNotMatch(page.text, /ada@acme\.com/);

  const bought = await call('profiles_purchase', { profileIds: ['per_ada', 'per_x'], onBehalfOfUser: 'agent@example.com', idempotencyKey: 'mcp-1' });
  assert.equal(bought.isError, false, bought.text);
  assert.deepEqual(bought.json(), {
    results: [
      { profileId: 'per_ada', status: 'purchased', emails: [{ value: 'ada@acme.com', type: 'work', verified: true }], phones: [] },
      { profileId: 'per_x', status: 'not_found', emails: [], phones: [] },
    ],
    charged: 1,
    balance: 2,
    replayed: false,
  });
  const replay = await call('profiles_purchase', { profileIds: ['per_ada', 'per_x'], onBehalfOfUser: 'agent@example.com', idempotencyKey: 'mcp-1' });
  assert.equal(replay.json().replayed, true);

  const one = await call('profile_get', { profileId: 'per_ada', detail: 'full' });
  assert.equal(one.json().purchased, true);
  assert.deepEqual(one.json().emails, [{ value: 'ada@acme.com', type: 'work', verified: true }]);

  const balance = await call('credits_balance', {});
  assert.equal(balance.json().clientId, clientId);
  assert.equal(balance.json().balance, 2);
});

test('errors come back as isError results naming the problem', async () => {
  const basic = await connect('basic');
  const denied = await basic.call('profiles_purchase', { profileIds: ['per_ada'], onBehalfOfUser: 'a@example.com' });
  assert.equal(denied.isError, true);
  assert.match(denied.text, /Error 403: Permission 'purchase'/);

  const full = await connect('full', 0);
  const noUser = await full.call('profiles_purchase', { profileIds: ['per_ada'] });
  assert.match(noUser.text, /Error 403: .*onBehalfOfUser/);
  const poor = await full.call('profiles_purchase', { profileIds: ['per_bob'], onBehalfOfUser: 'a@example.com' });
  assert.match(poor.text, /Error 402: Not enough credits/);
  const tooMany = await full.call('profiles_purchase', { profileIds: Array.from({ length: 101 }, (_, i) => `p${i}`), onBehalfOfUser: 'a@example.com' });
  assert.match(tooMany.text, /Error 413/);
  const noFilter = await full.call('profiles_search', { query: ' ' });
  assert.match(noFilter.text, /Error 400: .*meaningful filter/);
  const missing = await full.call('profile_get', { profileId: 'per_nobody' });
  assert.match(missing.text, /Error 404: .*'per_nobody'/);
  const tooLarge = await full.call('profiles_search', { size: 500, query: 'a' });
  assert.equal(tooLarge.isError, true);
  assert.match(tooLarge.text, /^Error 400: Invalid arguments for profiles_search: size: size must be a whole number from 1 to 200/);
});
