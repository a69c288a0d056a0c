// The Admin API: the admin role on every admin route (walked from the records), each
// operation's happy path and refusals, secrets shown once, revocation seen at once, credits
// in the ledger, usage counts, the audit trail of every admin action with its actor and its
// filters and paging, and a refresh job followed to completion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { refreshPartition, startPartitionedRefresh } from '../../src/ingest/refresh.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { OPERATIONS } from '../../src/schemas/operations.ts';
import { checkAdminRole, type Operation } from '../../src/schemas/operation.ts';
import { getMeOp } from '../../src/schemas/account.ts';
import { insertRunningJob } from '../../src/store/jobs.ts';
import { EXAMPLE_WORLD } from '../helpers/example-world.ts';

let t: TestApp;
let admin: TestClient;
let plain: TestClient;

before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, {
    ...EXAMPLE_WORLD,
  });
  admin = await createTestClient(t.db, 'full', undefined, 'admin');
  plain = await createTestClient(t.db, 'full');
});
after(() => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : method === 'POST' ? { payload: {} } : {}) });
const asAdmin = (method: Method, url: string, payload?: unknown) => call(method, url, admin.headers, payload);

const ADMIN_OPS = OPERATIONS.filter((op) => op.role === 'admin');
const SAMPLE: Record<string, string> = { clientId: 'cli_sample', keyId: 'key_sample', planId: 'team', jobId: '1', userId: 'usr_sample' };
const urlOf = (op: Operation) => `/api${op.http.path.replace(/:(\w+)/g, (_m, name: string) => SAMPLE[name]!)}`;

async function auditEntries(query: string) {
  const res = await asAdmin('GET', `/api/admin/audit?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().entries as Array<{ id: number; actor: string | null; action: string; outcome: string; params: Record<string, unknown> }>;
}

test('every admin operation lives under /admin, is tagged Admin and needs the admin role; nothing else does', () => {
  assert.ok(ADMIN_OPS.length >= 20, `${ADMIN_OPS.length} admin operations`);
  for (const op of OPERATIONS) {
    const underAdmin = op.http.path.startsWith('/admin/');
    assert.equal(underAdmin, op.role === 'admin', op.id);
    assert.equal(op.tag === 'Admin', op.role === 'admin', op.id);
    if (op.role) assert.equal(op.mcp, undefined, `${op.id} must have no MCP tool`);
  }
  // The rule that keeps a forgotten role from being served: refused at start-up.
  assert.throws(() => checkAdminRole({ ...getMeOp, http: { method: 'GET', path: '/admin/oops' } }), /does not name role 'admin'/);
});

test('403 naming the missing role on every admin route for a non-admin, before validation, audited as denied', async () => {
  for (const op of ADMIN_OPS) {
    // A body that breaks every rule: the role is checked first, so it is never read.
    const res = await call(op.http.method, urlOf(op), plain.headers, op.http.method === 'POST' ? { fuzzUnknownField: 1 } : undefined);
    assert.equal(res.statusCode, 403, `${op.id}: ${res.body}`);
    const body = res.json();
    assert.equal(body.status, 403);
    assert.equal(body.error, 'Forbidden');
    assert.match(body.message, /^Role 'admin' is required for this operation; this client has no role/, op.id);
  }
  const denied = await auditEntries(`outcome=denied&clientId=${plain.clientId}&size=200`);
  assert.equal(denied.length, ADMIN_OPS.length);
  assert.deepEqual(new Set(denied.map((e) => e.params.operation)), new Set(ADMIN_OPS.map((op) => op.id)));
  assert.ok(denied.every((e) => e.action === 'admin.denied' && e.actor === plain.clientId));
});

test('/me tells the role', async () => {
  assert.equal((await asAdmin('GET', '/api/me')).json().role, 'admin');
  assert.equal((await call('GET', '/api/me', plain.headers)).json().role, null);
});

test('clients: create shows the secret once; get and list never; update, disable, enable, rotate', async () => {
  const created = await asAdmin('POST', '/api/admin/clients', { name: 'Acme data team', plan: 'basic', credits: 7 });
  assert.equal(created.statusCode, 200, created.body);
  const { client, clientSecret, tokenUrl, audience } = created.json();
  assert.equal(client.name, 'Acme data team');
  assert.equal(client.plan, 'basic');
  assert.equal(client.credits, 7);
  assert.equal(client.role, null);
  assert.match(clientSecret, /^[A-Za-z0-9_-]{43}$/);
  assert.match(tokenUrl, /\/oauth\/token$/);
  // The secret works as printed.
  const token = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret, audience },
  });
  assert.equal(token.statusCode, 200, token.body);

  const got = await asAdmin('GET', `/api/admin/clients/${client.clientId}`);
  assert.equal(got.statusCode, 200);
  assert.deepEqual(got.json(), client);
  const list = await asAdmin('GET', '/api/admin/clients?size=200');
  assert.ok(list.json().content.some((c: { clientId: string }) => c.clientId === client.clientId));
  for (const res of [got, list]) assert.ok(!res.body.includes(clientSecret), 'the secret is never shown again');
  const firstPage = (await asAdmin('GET', '/api/admin/clients?size=1')).json();
  assert.equal(firstPage.content.length, 1);
  assert.equal(firstPage.totalPages, firstPage.totalElements);

  const updated = await asAdmin('POST', `/api/admin/clients/${client.clientId}`, { name: 'Acme', plan: 'full' });
  assert.equal(updated.statusCode, 200, updated.body);
  assert.equal(updated.json().name, 'Acme');
  assert.equal(updated.json().plan, 'full');
  assert.equal(updated.json().role, null, 'a field not given keeps its value');

  // An access token in use (so its client sits in the token cache) is refused at once after disable.
  const bearer = { authorization: `Bearer ${token.json().access_token}` };
  assert.equal((await call('GET', '/api/me', bearer)).statusCode, 200);
  const disabled = await asAdmin('POST', `/api/admin/clients/${client.clientId}/disable`);
  assert.equal(disabled.json().disabled, true);
  assert.equal((await call('GET', '/api/me', bearer)).statusCode, 401, 'the token is refused from the next request');
  assert.equal(
    (
      await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret, audience },
      })
    ).statusCode,
    401,
  );
  assert.equal((await asAdmin('POST', `/api/admin/clients/${client.clientId}/enable`)).json().disabled, false);

  const rotated = await asAdmin('POST', `/api/admin/clients/${client.clientId}/rotate-secret`);
  assert.equal(rotated.statusCode, 200);
  assert.notEqual(rotated.json().clientSecret, clientSecret);
  const old = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret, audience },
  });
  assert.equal(old.statusCode, 401);

  const actions = (await auditEntries(`clientId=${admin.clientId}&size=200`)).filter((e) => e.params.clientId === client.clientId).map((e) => e.action);
  for (const a of ['admin.clients.create', 'admin.clients.update', 'admin.clients.disable', 'admin.clients.enable', 'admin.clients.rotate_secret'])
    assert.ok(actions.includes(a), a);
  const all = await asAdmin('GET', '/api/admin/audit?size=200');
  assert.ok(!all.body.includes(clientSecret) && !all.body.includes(rotated.json().clientSecret), 'no secret in the audit log');
});

test('clients: refusals in the error shape (unknown, invalid, empty change, self-demotion, self-disable)', async () => {
  const cases: [Method, string, unknown, number, RegExp][] = [
    ['GET', '/api/admin/clients/cli_nope', undefined, 404, /no client 'cli_nope'/],
    ['GET', '/api/admin/clients/bad%20id', undefined, 400, /clientId/],
    ['POST', '/api/admin/clients', { name: 'x', plan: 'nope' }, 400, /plan: no plan named 'nope'/],
    ['POST', '/api/admin/clients', { name: '', plan: 'basic' }, 400, /name/],
    ['POST', '/api/admin/clients', { name: 'x', plan: 'basic', secret: 'mine' }, 400, /secret/],
    ['POST', '/api/admin/clients', { name: 'x\u0000', plan: 'basic' }, 400, /name/],
    ['POST', '/api/admin/clients', { name: 'x', plan: 'basic', role: 'root' }, 400, /role/],
    ['POST', '/api/admin/clients', { name: 'x'.repeat(201), plan: 'basic' }, 400, /name/],
    ['POST', `/api/admin/clients/${plain.clientId}`, {}, 400, /at least one field/],
    ['POST', `/api/admin/clients/${plain.clientId}`, { plan: 'nope' }, 400, /no plan named 'nope'/],
    ['POST', '/api/admin/clients/cli_nope', { name: 'x' }, 404, /no client 'cli_nope'/],
    ['POST', `/api/admin/clients/${admin.clientId}`, { role: null }, 409, /cannot remove its own admin role/],
    ['POST', `/api/admin/clients/${admin.clientId}/disable`, undefined, 409, /cannot disable itself/],
    ['POST', '/api/admin/clients/cli_nope/enable', undefined, 404, /no client/],
    ['POST', '/api/admin/clients/cli_nope/rotate-secret', undefined, 404, /no client/],
  ];
  for (const [method, url, payload, status, message] of cases) {
    const res = await asAdmin(method, url, payload);
    assert.equal(res.statusCode, status, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`);
    assert.equal(res.json().status, status);
    assert.match(res.json().message, message, url);
  }
  const failures = await auditEntries(`outcome=failure&action=admin.clients.update&clientId=${admin.clientId}`);
  assert.ok(failures.some((e) => /cannot remove its own admin role/.test(String(e.params.error))));
});

test('a role granted through the API applies from the next request; an admin cannot be made by a non-admin', async () => {
  const other = await createTestClient(t.db, 'basic');
  assert.equal((await call('GET', '/api/admin/plans', other.headers)).statusCode, 403);
  assert.equal((await call('POST', `/api/admin/clients/${other.clientId}`, plain.headers, { role: 'admin' })).statusCode, 403);
  assert.equal((await asAdmin('POST', `/api/admin/clients/${other.clientId}`, { role: 'admin' })).json().role, 'admin');
  assert.equal((await call('GET', '/api/admin/plans', other.headers)).statusCode, 200);
  await asAdmin('POST', `/api/admin/clients/${other.clientId}`, { role: null });
  assert.equal((await call('GET', '/api/admin/plans', other.headers)).statusCode, 403);
});

test('API keys: created key shown once and works; list without secrets; revoked key refused at once', async () => {
  const owner = await createTestClient(t.db, 'basic');
  const created = await asAdmin('POST', `/api/admin/clients/${owner.clientId}/keys`, { name: 'crm-sync' });
  assert.equal(created.statusCode, 200, created.body);
  const { key, apiKey } = created.json();
  assert.match(apiKey, new RegExp(`^sl_${key.prefix}_`));
  assert.equal(key.name, 'crm-sync');
  assert.equal(key.revoked, false);
  // Used once, so the key sits in the server's key cache when it is revoked.
  assert.equal((await call('GET', '/api/me', { 'x-api-key': apiKey })).statusCode, 200);
  assert.equal((await call('GET', '/api/me', { 'x-api-key': apiKey })).statusCode, 200);

  const list = await asAdmin('GET', `/api/admin/clients/${owner.clientId}/keys`);
  assert.equal(list.statusCode, 200);
  assert.equal(list.json().totalElements, 2, 'the helper key and the new one');
  assert.ok(!list.body.includes(apiKey) && !list.body.includes(owner.apiKey), 'never a key in a listing');
  assert.ok(list.json().content.every((k: Record<string, unknown>) => !('apiKey' in k) && !('keyHash' in k)));

  const revoked = await asAdmin('POST', `/api/admin/keys/${key.id}/revoke`);
  assert.equal(revoked.statusCode, 200);
  assert.equal(revoked.json().revoked, true);
  const refused = await call('GET', '/api/me', { 'x-api-key': apiKey });
  assert.equal(refused.statusCode, 401, 'refused on the very next request');
  assert.equal((await call('GET', '/api/me', owner.headers)).statusCode, 200, 'the other key still works');
  // By prefix too, and twice is harmless.
  assert.equal((await asAdmin('POST', `/api/admin/keys/${key.prefix}/revoke`)).statusCode, 200);

  assert.equal((await asAdmin('POST', '/api/admin/keys/key_nope/revoke')).statusCode, 404);
  assert.equal((await asAdmin('POST', '/api/admin/clients/cli_nope/keys', {})).statusCode, 404);
  assert.equal((await asAdmin('GET', '/api/admin/clients/cli_nope/keys')).statusCode, 404);
  assert.equal((await asAdmin('POST', `/api/admin/clients/${owner.clientId}/keys`, { name: 'x'.repeat(201) })).statusCode, 400);

  const audit = await auditEntries(`clientId=${admin.clientId}&size=200`);
  assert.ok(audit.some((e) => e.action === 'admin.keys.create' && e.params.keyId === key.id && e.actor === admin.clientId));
  assert.ok(audit.some((e) => e.action === 'admin.keys.revoke' && e.params.keyId === key.id));
  const all = await asAdmin('GET', '/api/admin/audit?size=200');
  assert.ok(!all.body.includes(apiKey), 'no key in the audit log');
});

test('plans: list, get, create needs the rate limits, partial change keeps the rest', async () => {
  const list = await asAdmin('GET', '/api/admin/plans');
  assert.ok(list.json().content.some((p: { id: string }) => p.id === 'full'));
  assert.equal((await asAdmin('GET', '/api/admin/plans/full')).json().id, 'full');
  assert.equal((await asAdmin('GET', '/api/admin/plans/nope')).statusCode, 404);

  const incomplete = await asAdmin('POST', '/api/admin/plans/team', { canExport: true });
  assert.equal(incomplete.statusCode, 400);
  assert.match(incomplete.json().message, /a new plan needs/);
  const made = await asAdmin('POST', '/api/admin/plans/team', {
    description: 'Teams',
    canExport: true,
    requestsPerMinute: 600,
    aiRequestsPerMinute: 30,
    exportRequestsPerMinute: 10,
  });
  assert.equal(made.statusCode, 200, made.body);
  assert.equal(made.json().created, true);
  const changed = await asAdmin('POST', '/api/admin/plans/team', { requestsPerMinute: 900 });
  assert.equal(changed.json().created, false);
  assert.deepEqual(changed.json().plan, { ...made.json().plan, requestsPerMinute: 900 });

  assert.equal(
    (await asAdmin('POST', '/api/admin/plans/Bad_Plan', { requestsPerMinute: 1, aiRequestsPerMinute: 1, exportRequestsPerMinute: 1 })).statusCode,
    400,
  );
  assert.equal((await asAdmin('POST', '/api/admin/plans/team', { requestsPerMinute: 0 })).statusCode, 400);
  assert.equal((await asAdmin('POST', '/api/admin/plans/team', { canExport: 'yes' })).statusCode, 400);

  // The watch limits: a new plan got basic's; each may be set alone, 0 included; a bad one is a 400 naming it.
  assert.deepEqual([made.json().plan.maxMonitors, made.json().plan.maxWebhooks, made.json().plan.eventsPerDay], [10, 2, 10_000]);
  const watch = await asAdmin('POST', '/api/admin/plans/team', { maxMonitors: 0, maxWebhooks: 7, eventsPerDay: 123 });
  assert.equal(watch.statusCode, 200, watch.body);
  assert.deepEqual(watch.json().plan, { ...changed.json().plan, maxMonitors: 0, maxWebhooks: 7, eventsPerDay: 123 });
  assert.deepEqual((await asAdmin('GET', '/api/admin/plans/team')).json(), watch.json().plan);
  for (const [field, value] of [
    ['maxMonitors', -1],
    ['maxWebhooks', 1.5],
    ['eventsPerDay', 2 ** 31],
    ['eventsPerDay', '100'],
  ] as const) {
    const bad = await asAdmin('POST', '/api/admin/plans/team', { [field]: value });
    assert.equal(bad.statusCode, 400, `${field}: ${value}`);
    assert.match(bad.json().message, new RegExp(field), bad.body);
  }
  const sets = await auditEntries('action=admin.plans.set&outcome=success');
  assert.ok(sets.filter((e) => e.params.planId === 'team').length >= 2);
});

test('credits: a grant shows in the balance and the ledger with its reason; refusals', async () => {
  const c = await createTestClient(t.db, 'basic', 0);
  const granted = await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: 500, reason: 'annual contract', reference: 'INV-7' });
  assert.equal(granted.statusCode, 200, granted.body);
  assert.deepEqual(granted.json(), { clientId: c.clientId, amount: 500, balance: 500 });
  await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: -20, reason: 'correction' });

  const credits = (await asAdmin('GET', `/api/admin/clients/${c.clientId}/credits`)).json();
  assert.equal(credits.balance, 480);
  assert.equal(credits.ledger.totalElements, 2);
  assert.deepEqual(
    credits.ledger.content.map((e: { delta: number; reason: string; reference: string | null }) => [e.delta, e.reason, e.reference]),
    [
      [-20, 'correction', null],
      [500, 'annual contract', 'INV-7'],
    ],
  );
  const second = (await asAdmin('GET', `/api/admin/clients/${c.clientId}/credits?page=1&size=1`)).json();
  assert.equal(second.ledger.content[0].delta, 500);
  assert.equal(second.ledger.totalPages, 2);

  const below = await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: -1000, reason: 'x' });
  assert.equal(below.statusCode, 400);
  assert.match(below.json().message, /negative/);
  assert.equal((await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: 0, reason: 'x' })).statusCode, 400);
  assert.equal((await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: 5 })).statusCode, 400, 'reason required');
  assert.equal((await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: 1.5, reason: 'x' })).statusCode, 400);
  assert.equal((await asAdmin('POST', '/api/admin/clients/cli_nope/credits', { amount: 5, reason: 'x' })).statusCode, 404);
  assert.equal((await asAdmin('GET', '/api/admin/clients/cli_nope/credits')).statusCode, 404);
  const grants = await auditEntries(`action=admin.credits.grant&clientId=${admin.clientId}`);
  assert.ok(
    grants.some((e) => e.params.clientId === c.clientId && e.params.amount === 500 && e.params.reason === 'annual contract' && e.params.balance === 500),
  );
  assert.ok(grants.some((e) => e.outcome === 'failure' && e.params.amount === -1000));
});

test('usage: requests per day and operation, errors counted', async () => {
  const c = await createTestClient(t.db, 'full');
  for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/api/me', c.headers)).statusCode, 200);
  assert.equal((await call('GET', '/api/companies/nope.example/firmographics', c.headers)).statusCode, 404);
  const usage = await asAdmin('GET', `/api/admin/clients/${c.clientId}/usage`);
  assert.equal(usage.statusCode, 200, usage.body);
  const u = usage.json();
  const today = new Date().toISOString().slice(0, 10);
  assert.equal(u.to, today);
  assert.equal(u.totalRequests, 4);
  assert.equal(u.totalErrors, 1);
  assert.deepEqual(u.byOperation[0], { operation: 'getMe', requests: 3, errors: 0 });
  assert.ok(u.rows.every((r: { day: string }) => r.day === today));

  assert.equal((await asAdmin('GET', `/api/admin/clients/${c.clientId}/usage?from=2026-02-01&to=2026-01-01`)).statusCode, 400);
  assert.equal((await asAdmin('GET', `/api/admin/clients/${c.clientId}/usage?from=2024-01-01&to=2026-01-01`)).statusCode, 400);
  assert.equal((await asAdmin('GET', `/api/admin/clients/${c.clientId}/usage?from=2026-02-30`)).statusCode, 400);
  assert.equal((await asAdmin('GET', '/api/admin/clients/cli_nope/usage')).statusCode, 404);
  const empty = (await asAdmin('GET', `/api/admin/clients/${c.clientId}/usage?from=2020-01-01&to=2020-01-31`)).json();
  assert.equal(empty.totalRequests, 0);
});

test('audit log: filters by action, outcome, client and time; keyset paging without overlap', async () => {
  const c = await createTestClient(t.db, 'basic', 0);
  for (let i = 1; i <= 5; i++) await asAdmin('POST', `/api/admin/clients/${c.clientId}/credits`, { amount: i, reason: `r${i}` });
  const mine = (e: { params: Record<string, unknown> }) => e.params.clientId === c.clientId;

  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await asAdmin('GET', `/api/admin/audit?action=admin.credits.grant&size=2${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json();
    assert.ok(page.entries.length <= 2);
    seen.push(...page.entries.map((e: { id: number }) => e.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  assert.equal(new Set(seen).size, seen.length, 'no entry twice');
  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => b - a),
    'newest first',
  );
  const all = await auditEntries('action=admin.credits.grant&size=200');
  assert.deepEqual(
    seen,
    all.map((e) => e.id),
  );
  assert.equal(all.filter(mine).length, 5);

  const future = await auditEntries(`from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
  assert.equal(future.length, 0);
  const past = await auditEntries(`to=2000-01-01T00:00:00Z`);
  assert.equal(past.length, 0);
  assert.ok((await auditEntries(`from=2000-01-01T00:00:00Z&action=admin.credits.grant`)).filter(mine).length === 5);
  assert.ok((await auditEntries('outcome=success&size=200')).every((e) => e.outcome === 'success'));
  assert.equal((await auditEntries(`clientId=cli_nobody`)).length, 0);

  for (const bad of ['outcome=maybe', 'from=yesterday', 'cursor=abc', 'size=0', 'size=201', 'action=a%20b', 'nope=1']) {
    const res = await asAdmin('GET', `/api/admin/audit?${bad}`);
    assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
  }
});

test('refresh job: started in the background, its progress and status readable to completion; one at a time', async () => {
  const started = await asAdmin('POST', '/api/admin/jobs/refresh', { full: true });
  assert.equal(started.statusCode, 200, started.body);
  const job = started.json();
  assert.equal(job.kind, 'refresh');
  assert.equal(job.status, 'running');
  assert.equal(job.startedBy, admin.clientId);
  assert.deepEqual(job.params, { full: true });

  let current = job;
  for (let i = 0; i < 400 && current.status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    current = (await asAdmin('GET', `/api/admin/jobs/${job.id}`)).json();
  }
  assert.equal(current.status, 'succeeded', JSON.stringify(current));
  assert.equal(current.result.kind, 'full');
  assert.equal(current.result.companies, 2);
  assert.equal(current.phase, 'cousage');
  assert.deepEqual([current.done, current.total], [1, 1], 'the last phase finished');
  assert.ok(current.finishedAt);
  const listed = (await asAdmin('GET', '/api/admin/jobs?kind=refresh')).json();
  assert.equal(listed.content[0].id, job.id);

  // Another process's running refresh blocks a start (409 naming it) until its heartbeat goes stale.
  const { started: other } = await insertRunningJob(t.db, { kind: 'refresh', params: {}, startedBy: 'elsewhere' }, 60_000);
  const refused = await asAdmin('POST', '/api/admin/jobs/refresh', {});
  assert.equal(refused.statusCode, 409);
  assert.match(refused.json().message, new RegExp(`already running \\(job ${other!.id}\\)`));
  await t.db.query(`UPDATE jobs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [other!.id]);
  const after = await asAdmin('POST', '/api/admin/jobs/refresh');
  assert.equal(after.statusCode, 200, after.body);
  const abandoned = (await asAdmin('GET', `/api/admin/jobs/${other!.id}`)).json();
  assert.equal(abandoned.status, 'failed');
  assert.match(abandoned.error, /abandoned/);

  assert.equal((await asAdmin('GET', '/api/admin/jobs/999999')).statusCode, 404);
  assert.equal((await asAdmin('GET', '/api/admin/jobs/abc')).statusCode, 400);
  assert.equal((await asAdmin('POST', '/api/admin/jobs/refresh', { full: 'yes' })).statusCode, 400);
  const audit = await auditEntries('action=admin.jobs.refresh');
  assert.ok(audit.some((e) => e.outcome === 'success' && e.params.jobId === job.id && e.actor === admin.clientId));
  assert.ok(audit.some((e) => e.outcome === 'failure'));
});

test('refresh runs: a partitioned run shows each partition, its worker and progress; admins only; 404 and 400 for unknown and malformed ids', async () => {
  const runId = await startPartitionedRefresh(t.db, 2);
  await refreshPartition(t.db, runId, 1, 'host:1:abc');
  const res = await asAdmin('GET', `/api/admin/refresh-runs/${runId}`);
  assert.equal(res.statusCode, 200, res.body);
  const run = res.json();
  assert.equal(run.runId, runId);
  assert.equal(run.computedAt, null, 'partition 0 is still open');
  assert.deepEqual(
    run.partitions.map((p: { part: number; state: string; worker: string | null; attempts: number; done: number; total: number | null }) => [
      p.part,
      p.state,
      p.worker,
      p.attempts,
      p.done === p.total,
    ]),
    [
      [0, 'pending', null, 0, false],
      [1, 'done', 'host:1:abc', 1, true],
    ],
  );
  await refreshPartition(t.db, runId, 0, 'host:2:def');
  assert.ok((await asAdmin('GET', `/api/admin/refresh-runs/${runId}`)).json().computedAt, 'finished by its last partition');
  assert.equal((await asAdmin('GET', '/api/admin/refresh-runs/999999')).statusCode, 404);
  assert.equal((await asAdmin('GET', '/api/admin/refresh-runs/abc')).statusCode, 400);
  assert.equal((await t.app.inject({ method: 'GET', url: `/api/admin/refresh-runs/${runId}`, headers: plain.headers })).statusCode, 403);
});
