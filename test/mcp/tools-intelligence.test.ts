// The intelligence MCP tools through a real SDK Client: same services and answers as REST.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { allTools } from '../../src/mcp/tools/index.ts';
import { findClient } from '../../src/store/access.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { intelligenceWorld } from '../intelligence/world.ts';
import { answerOf, listAllTools, type ToolAnswer } from '../helpers/mcp.ts';

let t: TestApp;
let call: (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>;
let rest: (method: 'GET' | 'POST', url: string, payload?: unknown) => Promise<any>;
let client: Client;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  await refreshAll(t.db);
  const tc = await createTestClient(t.db, 'basic');
  const c = (await findClient(t.db, tc.clientId))!;
  const principal: Principal = { clientId: c.id, clientName: c.name, plan: c.plan, via: 'api_key' };
  const server = createMcpServer(allTools, { db: t.db, config: t.config, principal });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  call = async (name, args) => {
    return answerOf((await client.callTool({ name, arguments: args })) as never);
  };
  rest = async (method, url, payload) =>
    (
      await t.app.inject({
        method,
        url,
        headers: { ...tc.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        payload: payload ? JSON.stringify(payload) : undefined,
      })
    ).json();
});
after(() => t.close());

test('intelligence tools are listed with their required arguments', async () => {
  const { tools } = await listAllTools(t);
  const required = (name: string) => (tools.find((x) => x.name === name)!.inputSchema.required as string[]).sort();
  assert.deepEqual(required('company_cohort'), ['cohort', 'companyDomain']);
  assert.deepEqual(required('usage_metrics'), ['cohort', 'companyDomain']);
  assert.deepEqual(required('products_related_in_cohort'), ['cohort', 'companyDomain', 'productId']);
  assert.deepEqual(required('products_in_use'), ['companyDomain', 'productIds']);
});

const pick = (x: any, keys: string[]) => Object.fromEntries(keys.filter((k) => k in x).map((k) => [k, x[k]]));

test('tools answer what the REST routes answer, in their compact form, paged with total and nextPage', async () => {
  const cohort = (await call('company_cohort', { companyDomain: 'me.example', cohort: 'Defined' })).json();
  const restCohort = await rest('GET', '/api/companies/me.example/cohort/Defined');
  assert.deepEqual(cohort, { total: restCohort.totalElements, items: restCohort.content.map((p: any) => pick(p, ['domain', 'name'])), nextPage: null });
  const competitors = (await call('company_competitors', { companyDomain: 'me.example', size: 1 })).json();
  const restCompetitors = await rest('GET', '/api/companies/me.example/competitors?size=1');
  assert.equal(competitors.total, restCompetitors.totalElements);
  assert.deepEqual(
    competitors.items,
    restCompetitors.content.map((p: any) => pick(p, ['domain', 'name'])),
  );
  if (restCompetitors.totalPages > 1) assert.deepEqual(competitors.nextPage, { companyDomain: 'me.example', size: 1, page: 1 });

  const restUsage = await rest('GET', '/api/companies/me.example/cohort/default/metrics/usage');
  const usage = await call('usage_metrics', { companyDomain: 'me.example', cohort: 'default', size: 2 });
  assert.equal(usage.json().total, restUsage.length);
  assert.deepEqual(
    usage.json().items,
    restUsage.slice(0, 2).map((m: any) => pick(m, ['percentage', 'product', 'productId', 'vendorDomain', 'category'])),
  );
  assert.equal(usage.json().cohortSize, restUsage[0].cohortSize);
  const all = (await call('usage_metrics', { companyDomain: 'me.example', cohort: 'default', size: 200, detail: 'full' })).json();
  assert.deepEqual(all.items, restUsage, 'detail=full and a large page: the REST answer');

  const related = (await call('products_related_in_cohort', { companyDomain: 'me.example', productId: 'prd_crm_a', cohort: 'Default', detail: 'full' })).json();
  assert.deepEqual(related.items, await rest('GET', '/api/companies/me.example/products/prd_crm_a/related?cohort=Default'));
  assert.equal(typeof related.total, 'number');
  assert.deepEqual(
    (await call('products_in_use', { companyDomain: 'me.example', productIds: ['prd_crm_a', 'prd_nope'] })).json().items,
    await rest('POST', '/api/companies/me.example/products-in-use', { productIds: ['prd_crm_a', 'prd_nope'] }),
  );
  const details = await call('usage_metrics_details', { companyDomain: 'me.example', cohortCompanyDomain: ['diff.example'] });
  const row = details.json().items[0];
  assert.equal(row.companyDomain, 'diff.example');
  assert.ok(row.counts.different >= 1);
  assert.equal(row.products[0].different, true);
  assert.ok(
    row.products.every((r: any) => r.similar === undefined),
    'compact rows leave similar categories to the counts',
  );
  assert.deepEqual(
    details.links.map((l) => l.uri),
    ['stacklens://companies/me.example/comparison/diff.example'],
  );
  const fullDetails = (await call('usage_metrics_details', { companyDomain: 'me.example', cohortCompanyDomain: ['diff.example'], detail: 'full' })).json();
  const restDetails = await rest('POST', '/api/companies/me.example/metrics/details?cohortCompanyDomain=diff.example');
  assert.deepEqual(fullDetails.items[0].products, restDetails[0].products);
});

test('errors come back as isError results a model can act on', async () => {
  const missing = await call('company_cohort', { companyDomain: 'soft1.example', cohort: 'Defined' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /not configured/);
  const tooMany = await call('products_in_use', { companyDomain: 'me.example', productIds: Array.from({ length: 101 }, (_, i) => `p${i}`) });
  assert.equal(tooMany.isError, true);
  assert.match(tooMany.text, /at most 100/);
});
