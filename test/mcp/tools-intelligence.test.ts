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

let t: TestApp;
let call: (name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string; json: () => any }>;
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
    const res = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
    return { isError: res.isError === true, text: res.content[0]!.text, json: () => JSON.parse(res.content[0]!.text) };
  };
  rest = async (method, url, payload) =>
    (await t.app.inject({ method, url, headers: { ...tc.headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, payload: payload ? JSON.stringify(payload) : undefined })).json();
});
after(() => t.close());

test('intelligence tools are listed with their required arguments', async () => {
  const { tools } = await client.listTools();
  const required = (name: string) => (tools.find((x) => x.name === name)!.inputSchema.required as string[]).sort();
  assert.deepEqual(required('company_cohort'), ['cohort', 'companyDomain']);
  assert.deepEqual(required('usage_metrics'), ['cohort', 'companyDomain']);
  assert.deepEqual(required('products_related_in_cohort'), ['cohort', 'companyDomain', 'productId']);
  assert.deepEqual(required('products_in_use'), ['companyDomain', 'productIds']);
});

test('tools answer exactly what the REST routes answer', async () => {
  assert.deepEqual((await call('company_cohort', { companyDomain: 'me.example', cohort: 'Defined' })).json(), await rest('GET', '/api/companies/me.example/cohort/Defined'));
  assert.deepEqual((await call('company_competitors', { companyDomain: 'me.example', size: 200 })).json(), await rest('GET', '/api/companies/me.example/competitors?size=200'));
  assert.deepEqual((await call('usage_metrics', { companyDomain: 'me.example', cohort: 'default' })).json(), await rest('GET', '/api/companies/me.example/cohort/default/metrics/usage'));
  assert.deepEqual(
    (await call('products_related_in_cohort', { companyDomain: 'me.example', productId: 'prd_crm_a', cohort: 'Default' })).json(),
    await rest('GET', '/api/companies/me.example/products/prd_crm_a/related?cohort=Default'),
  );
  assert.deepEqual(
    (await call('products_in_use', { companyDomain: 'me.example', productIds: ['prd_crm_a', 'prd_nope'] })).json(),
    await rest('POST', '/api/companies/me.example/products-in-use', { productIds: ['prd_crm_a', 'prd_nope'] }),
  );
  const details = (await call('usage_metrics_details', { companyDomain: 'me.example', cohortCompanyDomain: ['diff.example'] })).json();
  assert.equal(details[0].products[0].different, true);
});

test('errors come back as isError results a model can act on', async () => {
  const missing = await call('company_cohort', { companyDomain: 'soft1.example', cohort: 'Defined' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /not configured/);
  const tooMany = await call('products_in_use', { companyDomain: 'me.example', productIds: Array.from({ length: 101 }, (_, i) => `p${i}`) });
  assert.equal(tooMany.isError, true);
  assert.match(tooMany.text, /at most 100/);
});
