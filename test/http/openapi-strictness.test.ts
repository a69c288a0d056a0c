// The served OpenAPI document is exactly as strict as the server: what it documents as valid
// (its examples) is never refused with a 400, and what it documents as invalid (too long,
// empty where minLength is 1, too many items) is refused. Walks every /api operation of
// the document, so a new operation is covered without editing this file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { MAX_PATH_PARAM } from '../../src/schemas/params.ts';
import { MAX_ID_LENGTH } from '../../src/schemas/text.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { operationsOf, sendCall, validCall, type Call, type Param } from '../helpers/openapi-calls.ts';

let t: TestApp;
let client: TestClient;
let doc: any;
before(async () => {
  t = await createTestApp();
  // An admin: the Admin API's operations are held to the document like every other.
  client = await createTestClient(t.db, 'full', undefined, 'admin');
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
after(() => t.close());

const operations = () => operationsOf(doc, '/api/');
const send = (call: Call) => sendCall(t.app, call, client.headers);

test('the documented examples of every operation are accepted (never a 400)', async () => {
  const ops = operations();
  assert.ok(ops.length >= 25, `${ops.length} operations`);
  for (const { path, method, op } of ops) {
    const res = await send(validCall(path, method, op));
    assert.notEqual(res.statusCode, 400, `${method.toUpperCase()} ${path}: ${res.body}`);
    assert.ok(res.statusCode < 500, `${method.toUpperCase()} ${path}: ${res.statusCode} ${res.body}`);
  }
});

/** Documented-invalid values of a parameter's schema, each with why it is invalid. */
function invalidValues(schema: Record<string, any>): { value: unknown; why: string }[] {
  const out: { value: unknown; why: string }[] = [];
  if (schema.type === 'string' && typeof schema.maxLength === 'number')
    out.push({ value: 'a'.repeat(schema.maxLength + 1), why: `longer than maxLength ${schema.maxLength}` });
  if (schema.type === 'string' && schema.minLength === 1) out.push({ value: '', why: 'empty, minLength 1' });
  if (schema.type === 'array' && typeof schema.maxItems === 'number') {
    const item = schema.items?.examples?.[0] ?? 'a';
    out.push({ value: Array.from({ length: schema.maxItems + 1 }, () => item), why: `more than maxItems ${schema.maxItems}` });
  }
  if (schema.type === 'array' && typeof schema.items?.maxLength === 'number')
    out.push({ value: ['a'.repeat(schema.items.maxLength + 1)], why: `an item longer than maxLength ${schema.items.maxLength}` });
  if (schema.type === 'integer' && typeof schema.maximum === 'number') out.push({ value: schema.maximum + 1, why: `above maximum ${schema.maximum}` });
  if (schema.type === 'integer' && typeof schema.minimum === 'number') out.push({ value: schema.minimum - 1, why: `below minimum ${schema.minimum}` });
  return out;
}

test('documented-invalid path and query parameters are refused', async () => {
  let checked = 0;
  for (const { path, method, op } of operations()) {
    const base = validCall(path, method, op);
    for (const param of (op.parameters ?? []) as Param[]) {
      if (param.in === 'header') continue; // headers: see the next test
      for (const { value, why } of invalidValues(param.schema)) {
        // An empty path segment is another URL, not an empty parameter.
        if (param.in === 'path' && value === '') continue;
        const call = { ...base, params: new Map(base.params) };
        call.params.set(`${param.in}:${param.name}`, { param, value });
        const res = await send(call);
        const where: string = `${method.toUpperCase()} ${path} ${param.in} ${param.name} ${why}`;
        // Over the router's limit a path parameter is refused by the router: 414 URI Too Long.
        const tooLongForRouter: boolean = param.in === 'path' && typeof value === 'string' && value.length > MAX_PATH_PARAM;
        // More items than documented is refused with the operation's documented 413.
        const tooMany: boolean = why.startsWith('more than maxItems') && Boolean(op.responses['413']);
        const expected: number = tooLongForRouter ? 414 : tooMany ? 413 : 400;
        assert.equal(res.statusCode, expected, `${where}: ${res.body.slice(0, 300)}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 40, `${checked} invalid parameters checked`);
});

test('documented-invalid headers and bodies are refused', async () => {
  const op = (path: string, method: string) => doc.paths[path][method];
  const call = (path: string, method: string) => validCall(path, method, op(path, method));

  // X-On-Behalf-Of-User where an action is attributed: longer than documented, not an email.
  const ai = call('/api/ai/find-customers-of-products', 'post');
  const header = [...ai.params.values()].find((p) => p.param.name === 'x-on-behalf-of-user')!.param;
  assert.equal(header.schema.maxLength, 254);
  for (const value of [`${'a'.repeat(243)}@example.com`, 'not-an-email']) {
    ai.params.set('header:x-on-behalf-of-user', { param: header, value });
    assert.equal((await send(ai)).statusCode, 400, value.slice(0, 20));
  }

  // Idempotency-Key: the documented pattern.
  const purchase = call('/api/profiles/purchase', 'post');
  const key = [...purchase.params.values()].find((p) => p.param.name === 'idempotency-key')!.param;
  assert.equal(key.schema.pattern, '^[\\x21-\\x7e]{1,255}$');
  for (const value of ['has space', 'k'.repeat(256)]) {
    purchase.params.set('header:idempotency-key', { param: key, value });
    const res = await send(purchase);
    assert.equal(res.statusCode, 400, value.slice(0, 20));
    assert.match(res.json().message, /Idempotency-Key must be 1-255 visible ASCII characters/);
  }

  // Bodies: empty and over-long lists, blank items, an empty filter set.
  const body = async (path: string, method: string, payload: unknown) => {
    const c = call(path, method);
    c.body = payload;
    return send(c);
  };
  const details = '/api/companies/{companyDomain}/cohort/{cohort}/metrics/details';
  const domains = op(details, 'post').requestBody.content['application/json'].schema.anyOf[1].properties.cohortCompanyDomain;
  assert.deepEqual([domains.minItems, domains.maxItems], [1, 50]);
  const empty = await body(details, 'post', { cohortCompanyDomain: [] });
  assert.equal(empty.statusCode, 400);
  assert.match(empty.json().message, /cohortCompanyDomain: give 1 to 50 company domains to compare with/);
  assert.equal((await body(details, 'post', { cohortCompanyDomain: Array.from({ length: 51 }, (_, i) => `c${i}.example`) })).statusCode, 413);
  const noBody = await body(details, 'post', undefined);
  assert.equal(noBody.statusCode, 400, 'the body of the first form is required');
  assert.match(noBody.json().message, /cohortCompanyDomain: give 1 to 50/);

  const inUse = '/api/companies/{companyDomain}/products-in-use';
  assert.equal((await body(inUse, 'post', { productIds: [] })).statusCode, 400);
  assert.equal((await body(inUse, 'post', { productIds: [''] })).statusCode, 400);
  assert.equal((await body(inUse, 'post', { productIds: ['x'.repeat(MAX_ID_LENGTH + 1)] })).statusCode, 400);

  const search = op('/api/profiles/search', 'post').requestBody.content['application/json'].schema;
  assert.equal(search.minProperties, 1, 'the at-least-one-filter rule is in the schema');
  assert.equal((await body('/api/profiles/search', 'post', {})).statusCode, 400);
  assert.equal((await body('/api/profiles/purchase', 'post', { profileIds: [] })).statusCode, 400);
});

test('one bad domain, one 400 wording, on every operation that takes a domain', async () => {
  const messages = new Set<string>();
  let checked = 0;
  for (const { path, method, op } of operations()) {
    for (const param of (op.parameters ?? []) as Param[]) {
      if (param.in !== 'path' || !/Domain$/.test(param.name)) continue;
      const call = validCall(path, method, op);
      call.params.set(`path:${param.name}`, { param, value: 'not_a_domain' });
      const res = await send(call);
      assert.equal(res.statusCode, 400, `${method.toUpperCase()} ${path}`);
      messages.add(res.json().message.replace(/^params\.\w+: /, ''));
      checked++;
    }
  }
  assert.ok(checked >= 14, `${checked} operations`);
  assert.deepEqual([...messages], ["'not_a_domain' is not a valid domain name"]);
});

test('the MCP door gives the same bad domain the same wording (the tools share the schemas)', async () => {
  const { client } = await connectMcp(t, 'full', undefined, 'analyst@example.com', undefined, 'all');
  const { tools } = await client.listTools();
  let checked = 0;
  for (const tool of tools) {
    const props = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
    if (!('companyDomain' in props) || !(tool.inputSchema.required ?? []).includes('companyDomain')) continue;
    const failure = await client
      .callTool({
        name: tool.name,
        arguments: {
          companyDomain: 'not_a_domain',
          prompt: 'x',
          cohort: 'Default',
          productId: 'prd_x',
          productIds: ['prd_x'],
          cohortCompanyDomain: ['example.com'],
        },
      })
      .then(
        (res) => JSON.stringify(res),
        (err: Error) => err.message,
      );
    assert.match(failure, /companyDomain: 'not_a_domain' is not a valid domain name/, tool.name);
    checked++;
  }
  assert.ok(checked >= 8, `${checked} tools`);
});
