// The AI helper MCP tools: the same suggestions as /api/ai/*, the documented alias name,
// the ai permission and the on-behalf user enforced as on REST.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { aiWorld } from '../intelligence/ai-world.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, aiWorld());
  await refreshAll(t.db, { cohortParams: { defaultRelativeCut: 0, competitorsRelativeCut: 0 } });
});
after(() => t.close());

const USER = 'ann@example.com';

async function viaRest(path: string, params: Record<string, string | number>) {
  const c = await createTestClient(t.db, 'full');
  const res = await t.app.inject({
    method: 'POST',
    url: `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`,
    headers: { ...c.headers, 'x-on-behalf-of-user': USER },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

test('find_customers_of_products (and its alias) answers as the REST endpoint does', async () => {
  const { call } = await connectMcp(t, 'full');
  const tool = (await call('find_customers_of_products', { prompt: 'companies using Mailchimp', size: 5, detail: 'full', onBehalfOfUser: USER })).json();
  const rest = await viaRest('/api/ai/find-customers-of-products', { prompt: 'companies using Mailchimp', size: 5 });
  assert.deepEqual(tool.items, rest);
  assert.ok(tool.items.length > 0);
  assert.match(tool.understood, /Mailchimp/);
  const alias = (await call('FindCustomersOfProducts', { prompt: 'companies using Mailchimp', size: 5, onBehalfOfUser: USER })).json();
  assert.deepEqual(
    alias.items,
    tool.items.map((i: any) => ({
      companyName: i.companyName,
      companyDomain: i.companyDomain,
      productId: i.productId,
      product: i.product,
      evidence: i.evidence,
      probability: i.probability,
    })),
    'compact by default',
  );
});

test('find_techstacks_for_company and find_people_profiles answer as REST does, without contact details', async () => {
  const { call } = await connectMcp(t, 'full');
  const stack = (await call('find_techstacks_for_company', { companyDomain: 'target.example', detail: 'full', onBehalfOfUser: USER })).json();
  assert.deepEqual(stack.items, await viaRest('/api/ai/find-techstacks-for-company', { companyDomain: 'target.example' }));
  const people = await call('find_people_profiles', { prompt: 'CTO at target.example', detail: 'full', onBehalfOfUser: USER });
  assert.equal(people.isError, false, people.text);
  assert.equal(people.json().items[0].id, 'per_t1');
  assert.deepEqual(people.json().items, await viaRest('/api/ai/find-people-profiles', { prompt: 'CTO at target.example' }));
  assert.doesNotMatch(JSON.stringify(people.json().items), /@/);
});

test('plan, on-behalf user and validation rules as on REST', async () => {
  const basic = await connectMcp(t, 'basic');
  const denied = await basic.call('find_customers_of_products', { prompt: 'Mailchimp', onBehalfOfUser: USER });
  assert.match(denied.text, /^Error 403: Permission 'ai' is required/);
  const full = await connectMcp(t, 'full');
  assert.match((await full.call('find_customers_of_products', { prompt: 'Mailchimp' })).text, /^Error 403: .*onBehalfOfUser/);
  assert.match(
    (await full.call('find_customers_of_products', { prompt: '   ', onBehalfOfUser: USER })).text,
    /^Error 400: Invalid arguments for find_customers_of_products: prompt: /,
  );
  assert.match((await full.call('find_customers_of_products', { prompt: 'x', size: 500, onBehalfOfUser: USER })).text, /^Error 400: .*size: /);
  const nothing = await full.call('find_customers_of_products', { prompt: 'the best tools in the world', onBehalfOfUser: USER });
  assert.match(nothing.text, /^Error 404: .*understood/);
});
