// The Admin API on the console's people (/api/admin/users): create (a generated password shown
// once), list, update (role, name, password: sessions end), disable/enable; an admin cannot
// demote or disable themselves; every change audited under the acting person; refused to
// anyone but an admin (a console admin or an admin API client).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { createUser } from '../../src/services/console-users.ts';
import { CONSOLE_CLIENT_ID } from '../../src/auth/console-client.ts';

let t: TestApp;
let adminClient: TestClient;
const PASSWORD = 'admin password 1';
let admin: { cookie: string; csrf: string; id: string };

async function signIn(email: string, password: string) {
  const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password } });
  return { res, cookie: String(res.headers['set-cookie']).split(';', 1)[0]!, csrf: res.statusCode === 200 ? (res.json().csrfToken as string) : '' };
}

before(async () => {
  // scrypt (tens of ms of CPU per password) counts against the request's 2 s database budget
  // on a loaded machine; these tests are about access rules, not time limits.
  t = await createTestApp({ env: { DATABASE_READ_TIMEOUT_MS: '30000' } });
  adminClient = await createTestClient(t.db, 'basic', 0, 'admin');
  const { user } = await createUser(t.db, { email: 'boss@example.com', name: 'Boss', role: 'admin', password: PASSWORD });
  const s = await signIn('boss@example.com', PASSWORD);
  admin = { cookie: s.cookie, csrf: s.csrf, id: user.id };
});
after(() => t.close());

const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf }, ...(method === 'POST' ? { payload: payload ?? {} } : {}) });

test('create with a generated password (shown once), list, get; the new person signs in', async () => {
  const res = await asAdmin('POST', '/api/admin/users', { email: 'New.Person@Example.com', name: 'New Person', role: 'viewer' });
  assert.equal(res.statusCode, 200, res.body);
  const { user, password } = res.json();
  assert.deepEqual(
    { ...user, id: undefined, createdAt: undefined },
    { id: undefined, createdAt: undefined, email: 'new.person@example.com', name: 'New Person', role: 'viewer', disabled: false, disabledAt: null },
  );
  assert.match(password, /^[A-Za-z0-9_-]{20}$/);
  assert.equal((await signIn('new.person@example.com', password)).res.statusCode, 200);

  const withOwn = await asAdmin('POST', '/api/admin/users', { email: 'own@example.com', name: 'Own', role: 'analyst', password: 'my own password' });
  assert.equal(withOwn.statusCode, 200);
  assert.equal(withOwn.json().password, undefined);

  const list = await asAdmin('GET', '/api/admin/users?size=50');
  assert.equal(list.statusCode, 200);
  const emails = list.json().content.map((u: { email: string }) => u.email);
  assert.ok(emails.includes('new.person@example.com') && emails.includes('boss@example.com'));
  assert.doesNotMatch(list.body, /scrypt|password/i);
  const one = await asAdmin('GET', `/api/admin/users/${user.id}`);
  assert.equal(one.json().email, 'new.person@example.com');
  assert.equal((await asAdmin('GET', '/api/admin/users/usr_nobody')).statusCode, 404);
});

test('bad input is a 400 naming the field; a taken email (any case) a 409', async () => {
  for (const [payload, rule] of [
    [{ email: 'not-an-email', name: 'X', role: 'viewer' }, /body\.email/],
    [{ email: 'x@example.com', name: 'X', role: 'root' }, /body\.role/],
    [{ email: 'x@example.com', name: 'X', role: 'viewer', password: 'short' }, /body\.password: must be at least 10 characters/],
    [{ email: 'x@example.com', name: '', role: 'viewer' }, /body\.name/],
  ] as const) {
    const res = await asAdmin('POST', '/api/admin/users', payload);
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.match(res.json().message, rule);
  }
  const taken = await asAdmin('POST', '/api/admin/users', { email: 'BOSS@example.com', name: 'Again', role: 'viewer' });
  assert.equal(taken.statusCode, 409);
  assert.match(taken.json().message, /boss@example.com' exists already/);
});

test('role changes count from the next request; a new password ends the sessions; an admin cannot demote or disable themselves', async () => {
  const { user } = await createUser(t.db, { email: 'riser@example.com', name: 'Riser', role: 'viewer', password: PASSWORD });
  const s = await signIn('riser@example.com', PASSWORD);
  const exportAs = () => t.app.inject({ method: 'GET', url: '/api/categories?export=true', headers: { cookie: s.cookie } });
  assert.equal((await exportAs()).statusCode, 403);
  const promoted = await asAdmin('POST', `/api/admin/users/${user.id}`, { role: 'analyst' });
  assert.equal(promoted.statusCode, 200, promoted.body);
  assert.equal(promoted.json().role, 'analyst');
  assert.equal((await exportAs()).statusCode, 200);

  const newPassword = await asAdmin('POST', `/api/admin/users/${user.id}`, { password: 'a brand new one' });
  assert.equal(newPassword.statusCode, 200);
  assert.equal((await exportAs()).statusCode, 401, 'the old session ended');
  assert.equal((await signIn('riser@example.com', PASSWORD)).res.statusCode, 401);
  assert.equal((await signIn('riser@example.com', 'a brand new one')).res.statusCode, 200);

  const demote = await asAdmin('POST', `/api/admin/users/${admin.id}`, { role: 'viewer' });
  assert.equal(demote.statusCode, 409);
  assert.match(demote.json().message, /cannot change their own role/);
  const disable = await asAdmin('POST', `/api/admin/users/${admin.id}/disable`);
  assert.equal(disable.statusCode, 409);
  assert.match(disable.json().message, /cannot disable themselves/);
  const empty = await asAdmin('POST', `/api/admin/users/${user.id}`, {});
  assert.equal(empty.statusCode, 400);
  assert.match(empty.json().message, /give at least one field/);
});

test('changes are audited under the acting person (the console client, the person as on-behalf user); an admin API client manages users too', async () => {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/users',
    headers: adminClient.headers,
    payload: { email: 'by-key@example.com', name: 'By key', role: 'viewer' },
  });
  assert.equal(created.statusCode, 200);
  const rows = await t.db.query<{ client_id: string; on_behalf_of: string | null; action: string; outcome: string; params: Record<string, unknown> }>(
    `SELECT client_id, on_behalf_of, action, outcome, params FROM audit_log WHERE action LIKE 'admin.users.%' ORDER BY id`,
  );
  const byPerson = rows.filter((r) => r.client_id === CONSOLE_CLIENT_ID);
  assert.ok(byPerson.length >= 4);
  for (const r of byPerson) {
    assert.equal(r.on_behalf_of, 'boss@example.com');
    assert.equal(r.params.actor, 'boss@example.com');
  }
  assert.ok(byPerson.some((r) => r.action === 'admin.users.update' && r.outcome === 'failure' && /own role/.test(String(r.params.error))));
  assert.ok(byPerson.some((r) => r.action === 'admin.users.update' && r.params.passwordChanged === true));
  const byKey = rows.at(-1)!;
  assert.deepEqual(
    [byKey.client_id, byKey.on_behalf_of, byKey.action, byKey.params.actor],
    [adminClient.clientId, null, 'admin.users.create', adminClient.clientId],
  );
  assert.ok(!JSON.stringify(rows).includes('a brand new one'), 'no password in the audit log');
  assert.ok(!JSON.stringify(rows).includes(created.json().password), 'no generated password in the audit log');
});

test('a viewer or analyst person, and a plain API client, are refused the users API (403) and the refusal is audited', async () => {
  await createUser(t.db, { email: 'plain@example.com', name: 'Plain', role: 'analyst', password: PASSWORD });
  const s = await signIn('plain@example.com', PASSWORD);
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie: s.cookie } });
  assert.equal(res.statusCode, 403);
  const plain = await createTestClient(t.db, 'full');
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: plain.headers })).statusCode, 403);
  const [denied] = await t.db.query<{ on_behalf_of: string }>(
    `SELECT on_behalf_of FROM audit_log WHERE action = 'admin.denied' AND client_id = $1 ORDER BY id DESC LIMIT 1`,
    [CONSOLE_CLIENT_ID],
  );
  assert.equal(denied?.on_behalf_of, 'plain@example.com');
});
