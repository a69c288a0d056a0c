// Access rules walked from the operation records, on both doors: every REST address and
// every MCP tool refuses without credentials (401) and with a bad key (401); where the
// record names a permission, a plan without it gets 403 on both doors; where the record
// is attributed, a call without the on-behalf user gets 403. A new operation is covered
// the moment its record is listed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { OPERATIONS } from '../../src/schemas/operations.ts';
import { conditionOf, type HttpMethod, type Operation } from '../../src/schemas/operation.ts';
import { allTools } from '../../src/mcp/tools/index.ts';

let t: TestApp;
before(async () => {
  // This file sends a bad key to every REST address and every tool from one address: more
  // failures than the per-address limit allows (its 429 is tested in test/auth). Raised here
  // so each refusal shows what authentication answers.
  t = await createTestApp({ env: { AUTH_MAX_FAILURES_PER_ADDRESS: '100000' } });
});
after(() => t.close());

/** A valid value for each path parameter and each required argument the records use. */
const SAMPLE: Record<string, unknown> = {
  companyDomain: 'example.com',
  domains: ['example.com'],
  vendorDomain: 'example.com',
  cohort: 'Default',
  productId: 'prd_x',
  profileId: 'per_x',
  categoryId: 'cat_x',
  industryId: 'ind_x',
  prompt: 'crm',
  productIds: ['prd_x'],
  profileIds: ['per_x'],
  body: {},
  url: 'example.com',
  crm: 'hubspot',
  runId: 'crmsync_x',
};

/** The flag that makes the permission apply (export=true), if the permission depends on one. */
const flagOf = (op: Operation) => conditionOf(op.permission);

/** Every REST address of every record: [record, method, url with sample path parameters and the flag set]. */
function addresses(): [Operation, HttpMethod, string][] {
  return OPERATIONS.flatMap((op) => {
    const flag = flagOf(op);
    const query = flag ? `?${flag}=true` : '';
    return [op.http, ...(op.http.aliases ?? [])].map((a): [Operation, HttpMethod, string] => {
      const path = (a.path ?? op.http.path).replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(SAMPLE[name])));
      return [op, a.method ?? op.http.method, `/api${path}${query}`];
    });
  });
}

const rest = (method: HttpMethod, url: string, headers: Record<string, string>) =>
  t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });

const USER = { 'x-on-behalf-of-user': 'ana@example.com' };

test('every record is served on REST, and the MCP tools are the records with a binding, in the order of the list', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const served = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, { operationId: string }>>(doc.paths)) {
    if (path.startsWith('/api/')) for (const op of Object.values(item)) served.add(op.operationId);
  }
  const ids = OPERATIONS.flatMap((op) => [op.id, ...(op.http.aliases ?? []).map((a) => a.id)]);
  assert.deepEqual([...served].sort(), [...ids].sort(), 'the /api operations of the document are exactly the records');
  // The tool list is derived from the one list: its operations with an MCP binding, in its order.
  assert.deepEqual(
    allTools.map((tool) => tool.operation.id),
    OPERATIONS.filter((op) => op.mcp).map((op) => op.id),
  );
});

test('REST: 401 without credentials and with a bad key, on every address', async () => {
  for (const [, method, url] of addresses()) {
    const none = await rest(method, url, USER);
    assert.equal(none.statusCode, 401, `${method} ${url} without credentials`);
    const bad = await rest(method, url, { ...USER, 'x-api-key': 'sk_live_not-a-real-key' });
    assert.equal(bad.statusCode, 401, `${method} ${url} with a bad key`);
    assert.equal(bad.json().status, 401);
  }
});

test('REST: 403 without the permission, and 403 without X-On-Behalf-Of-User where attributed', async () => {
  let checked = 0;
  for (const [op, method, url] of addresses()) {
    if (op.permission === undefined) continue;
    // Fresh clients per address: the walk would otherwise spend the plans' export quotas.
    const [basic, full] = [await createTestClient(t.db, 'basic'), await createTestClient(t.db, 'full')];
    const refused = await rest(method, url, { ...basic.headers, ...USER });
    assert.equal(refused.statusCode, 403, `${method} ${url}: ${refused.body}`);
    assert.match(refused.json().message, /^Permission '\w+' is required/);
    if (op.attributed) {
      const anonymous = await rest(method, url, full.headers);
      assert.equal(anonymous.statusCode, 403, `${method} ${url}: ${anonymous.body}`);
      assert.match(anonymous.json().message, /X-On-Behalf-Of-User header is required/);
    }
    checked++;
  }
  assert.ok(checked >= 9, 'exports, AI helpers and the purchase are all walked');
});

test('MCP: 401 without credentials and with a bad key, for every tool', async () => {
  for (const tool of allTools) {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: {} } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'x' };
    const none = await t.app.inject({ method: 'POST', url: '/mcp', headers, payload: call });
    assert.equal(none.statusCode, 401, `${tool.name} without credentials`);
    const bad = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...headers, 'x-api-key': 'sk_live_not-a-real-key' }, payload: call });
    assert.equal(bad.statusCode, 401, `${tool.name} with a bad key`);
  }
});

test('MCP: 403 without the permission, and 403 without onBehalfOfUser where attributed', async () => {
  const withoutPermission = await connectMcp(t, 'basic');
  const withPermission = await connectMcp(t, 'full');
  let checked = 0;
  for (const tool of allTools) {
    const op = tool.operation;
    const flag = flagOf(op);
    // A tool whose input has no such flag cannot ask for what the permission guards.
    if (op.permission === undefined || (flag && !(flag in op.input.shape))) continue;
    const args: Record<string, unknown> = flag ? { [flag]: true } : {};
    for (const [name, schema] of Object.entries(op.input.shape)) {
      if (!(name in args) && !(schema as { isOptional(): boolean }).isOptional()) args[name] = SAMPLE[name];
    }
    const refused = await withoutPermission.call(tool.name, { ...args, ...(op.attributed ? { onBehalfOfUser: 'ana@example.com' } : {}) });
    assert.equal(refused.isError, true, tool.name);
    assert.match(refused.text, /^Error 403: Permission '\w+' is required/, tool.name);
    if (op.attributed) {
      const anonymous = await withPermission.call(tool.name, args);
      assert.equal(anonymous.isError, true, tool.name);
      assert.match(anonymous.text, /^Error 403: The onBehalfOfUser argument .* is required/, tool.name);
    }
    checked++;
  }
  assert.equal(checked, 7, 'companies_search (export), profiles_purchase, the three AI helpers, detect_technologies and enrich_companies');
  await withoutPermission.client.close();
  await withPermission.client.close();
});
