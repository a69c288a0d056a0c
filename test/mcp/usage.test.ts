// MCP calls in the usage records: a tool call or resource read over /mcp counts as a REST
// request of the same operation does (per client, UTC day and operation; failures —
// bad arguments, not found, refused — as errors too), and the Admin API reports them with
// the REST requests, through a real SDK client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';

let t: TestApp;
let url: string;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, {
    industries: [{ id: 'ind_software', name: 'Software' }],
    companies: [{ id: 'cmp_a', domain: 'a.example', name: 'A', industry_id: 'ind_software' }],
  });
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => t.close());

test('tool calls and resource reads count in usage_daily as REST requests do, and the Admin API shows them', async () => {
  const admin = await createTestClient(t.db, 'full', undefined, 'admin');
  const c = await createTestClient(t.db, 'full');
  const client = new Client({ name: 'usage', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: c.headers } }));
  assert.equal((await client.callTool({ name: 'companies_search', arguments: { query: 'A' } })).isError, undefined);
  assert.equal((await client.callTool({ name: 'companies_search', arguments: { query: 'A', page: 1 } })).isError, undefined);
  assert.equal((await client.callTool({ name: 'companies_search', arguments: { size: 'many' } })).isError, true, 'bad arguments');
  assert.equal((await client.callTool({ name: 'company_firmographics', arguments: { companyDomain: 'nope.example' } })).isError, true, 'not found');
  assert.equal((await client.readResource({ uri: 'stacklens://reference/categories' })).contents.length, 1);
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), 'an unknown tool is no operation: not counted');
  await client.close();
  // And one REST request of the same operation, to the same rows.
  assert.equal((await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: c.headers, payload: { query: 'A' } })).statusCode, 200);

  const res = await t.app.inject({ method: 'GET', url: `/api/admin/clients/${c.clientId}/usage`, headers: admin.headers });
  assert.equal(res.statusCode, 200, res.body);
  const u = res.json();
  assert.deepEqual(u.byOperation, [
    { operation: 'searchCompanies', requests: 4, errors: 1 },
    { operation: 'companyFirmographics', requests: 1, errors: 1 },
    { operation: 'listCategories', requests: 1, errors: 0 },
  ]);
  assert.equal(u.totalRequests, 6);
  assert.equal(u.totalErrors, 2);
});

test('a call refused for want of a permission counts as an error, as a 403 on REST does', async () => {
  const admin = await createTestClient(t.db, 'full', undefined, 'admin');
  const c = await createTestClient(t.db, 'basic');
  const client = new Client({ name: 'usage', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: c.headers } }));
  const denied = await client.callTool({ name: 'companies_search', arguments: { export: true, onBehalfOfUser: 'a@b.co' } });
  assert.equal(denied.isError, true, 'the basic plan has no export permission');
  await client.close();
  const u = (await t.app.inject({ method: 'GET', url: `/api/admin/clients/${c.clientId}/usage`, headers: admin.headers })).json();
  assert.deepEqual(u.byOperation, [{ operation: 'searchCompanies', requests: 1, errors: 1 }]);
});
