// Plan permissions, X-On-Behalf-Of-User (403 missing, 400 malformed) and the audit trail
// of exports and AI calls: time, client, on-behalf user, action, parameters, result count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
});
after(() => t.close());

const call = (method: 'GET' | 'POST', url: string, c: TestClient, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...c.headers, ...headers } });

async function auditRows(clientId: string) {
  return t.db.query<Record<string, any>>('SELECT at, client_id, on_behalf_of, action, params, result_count FROM audit_log WHERE client_id = $1 ORDER BY id', [
    clientId,
  ]);
}

test('a read-only plan gets 403 naming the missing permission for exports, AI and purchases', async () => {
  for (const [method, url, permission] of [
    ['GET', '/api/categories?export=true', 'export'],
    ['POST', '/api/ai/find-customers-of-products?prompt=crm', 'ai'],
    ['POST', '/api/profiles/purchase', 'purchase'],
  ] as const) {
    const res = await call(method, url, basic, { 'x-on-behalf-of-user': 'ana@example.com' });
    assert.equal(res.statusCode, 403, url);
    assert.deepEqual(Object.keys(res.json()).sort(), ['error', 'message', 'path', 'requestId', 'status']);
    assert.equal(res.json().error, 'Forbidden');
    assert.match(res.json().message, new RegExp(`Permission '${permission}' is required.*'basic' plan`));
  }
  // Reads need no permission.
  assert.equal((await call('GET', '/api/categories', basic)).statusCode, 200);
});

test('X-On-Behalf-Of-User: 403 naming the header when missing, 400 when not an email', async () => {
  const missing = await call('POST', '/api/ai/find-customers-of-products?prompt=crm', full);
  assert.equal(missing.statusCode, 403);
  assert.match(missing.json().message, /X-On-Behalf-Of-User header is required/);
  for (const bad of ['not-an-email', 'a@b', '<script>@x.com', `${'x'.repeat(250)}@example.com`]) {
    const res = await call('GET', '/api/categories?export=true', full, { 'x-on-behalf-of-user': bad });
    assert.equal(res.statusCode, 400, bad);
    assert.match(res.json().message, /X-On-Behalf-Of-User header: .* is not a valid email address/);
  }
  assert.deepEqual(await auditRows(full.clientId), [], 'refused actions write no audit row');
});

test('each export and AI call writes one audit row: time, client, user, action, parameters, result count', async () => {
  const before = Date.now();
  // The test world is empty: the AI call answers 404 (nothing recognized) and is audited all the same.
  const ai = await call('POST', '/api/ai/find-customers-of-products?prompt=crm%20tools&size=5', full, { 'x-on-behalf-of-user': 'Ana.Lopez@Example.com' });
  assert.equal(ai.statusCode, 404, ai.body);
  const exp = await call('GET', '/api/categories?export=true', full, { 'x-on-behalf-of-user': 'bo@example.org' });
  assert.equal(exp.statusCode, 200);
  const categories = exp.body.trimEnd().split('\r\n').length - 1;
  const rows = await auditRows(full.clientId);
  assert.equal(rows.length, 2);
  const [a, e] = rows;
  assert.ok(a!.at instanceof Date && a!.at.getTime() >= before - 5000);
  assert.deepEqual(
    { ...a, at: undefined, params: undefined },
    {
      at: undefined,
      params: undefined,
      client_id: full.clientId,
      on_behalf_of: 'ana.lopez@example.com',
      action: 'ai.find_customers_of_products',
      result_count: 0,
    },
  );
  assert.deepEqual({ prompt: a!.params.prompt, size: a!.params.size }, { prompt: 'crm tools', size: 5 });
  assert.deepEqual(
    { ...e, at: undefined, params: undefined },
    { at: undefined, params: undefined, client_id: full.clientId, on_behalf_of: 'bo@example.org', action: 'categories.export', result_count: categories },
  );
});
