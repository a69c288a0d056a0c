// Console sign-in: POST/GET/DELETE /console/api/session, the cookie's flags, CSRF on
// cookie-authenticated writes, roles (viewer/analyst/admin) on exports, purchases and the
// Admin API, idle and absolute expiry, disabled people, on-behalf attribution of a purchase,
// and the cookie never counting on /mcp.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { createUser } from '../../src/services/console-users.ts';
import { CONSOLE_CLIENT_ID } from '../../src/auth/console-client.ts';
import { hashSecret } from '../../src/auth/secrets.ts';
import { randomBytes } from 'node:crypto';
import { setClock } from '../../src/clock.ts';
import { redisAnswers } from '../helpers/redis.ts';
import { hashPassword, verifyPassword } from '../../src/auth/passwords.ts';
import { findConsoleUser, updateConsoleUser } from '../../src/store/console-users.ts';

let t: TestApp;
const PASSWORD = 'correct horse battery';
const people = { viewer: 'vera@example.com', analyst: 'anna@example.com', admin: 'adam@example.com' } as const;

before(async () => {
  // DATABASE_READ_TIMEOUT_MS: scrypt's CPU counts against a request's 2 s database budget on a
  // loaded machine; these tests are about access rules, not time limits.
  t = await createTestApp({
    env: { CONSOLE_SESSION_IDLE_SECONDS: '600', CONSOLE_SESSION_TTL_SECONDS: '3600', CONSOLE_LOGIN_MAX_FAILURES: '3', DATABASE_READ_TIMEOUT_MS: '30000' },
  });
  for (const [role, email] of Object.entries(people)) await createUser(t.db, { email, name: role, role, password: PASSWORD });
  await insertWorld(t.db, {
    companies: [{ id: 'cmp_acme', domain: 'acme.com', name: 'Acme Corp' }],
    people: [
      { id: 'per_ada', full_name: 'Ada Lovelace', company_id: 'cmp_acme' },
      { id: 'per_bob', full_name: 'Bob Builder', company_id: 'cmp_acme' },
    ],
    contacts: [{ person_id: 'per_ada', kind: 'email', value: 'ada@acme.com', type: 'work', verified: true }],
  });
});
after(() => t.close());
afterEach(() => setClock());

interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: Record<string, any>;
}

async function signIn(email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<Session> {
  const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password }, headers });
  assert.equal(res.statusCode, 200, res.body);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = setCookie.split(';', 1)[0]!;
  return { cookie, csrf: res.json().csrfToken, setCookie, body: res.json() };
}

const withSession = (
  s: Session,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  extra: { headers?: Record<string, string>; payload?: object; csrf?: boolean } = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: s.cookie, ...(extra.csrf === false ? {} : { 'x-csrf-token': s.csrf }), ...extra.headers },
    ...(extra.payload ? { payload: extra.payload } : {}),
  });

test('sign in: 200 with the person and a CSRF token; the cookie is HttpOnly, SameSite=Strict, Path=/, not Secure over http', async () => {
  const s = await signIn('Anna@Example.com'); // any case
  assert.deepEqual(Object.keys(s.body).sort(), ['csrfToken', 'expiresAt', 'user']);
  assert.deepEqual({ ...s.body.user, id: undefined }, { id: undefined, email: 'anna@example.com', name: 'analyst', role: 'analyst' });
  assert.match(s.body.user.id, /^usr_/);
  assert.match(s.setCookie, /^stacklens_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600$/);
  // The database keeps only the token's hash.
  const token = s.cookie.split('=')[1]!;
  const rows = await t.db.query<{ id_hash: string }>('SELECT id_hash FROM console_sessions');
  assert.ok(rows.some((r) => r.id_hash === hashSecret(token)));
  assert.ok(!rows.some((r) => r.id_hash === token));
  // GET answers the same person and the same CSRF token (after a reload).
  const again = await withSession(s, 'GET', '/console/api/session', { csrf: false });
  assert.equal(again.statusCode, 200);
  assert.equal(again.json().csrfToken, s.csrf);
  assert.equal(again.headers['cache-control'], 'no-store');
});

test('over https the cookie is __Host-stacklens_session (Secure, Path=/, no Domain), and only that name is read; over http only the plain name', async () => {
  const https = await createTestApp({ db: t.db, env: { PUBLIC_URL: 'https://stacklens.example', DATABASE_READ_TIMEOUT_MS: '30000' } });
  try {
    const res = await https.app.inject({ method: 'POST', url: '/console/api/session', payload: { email: people.viewer, password: PASSWORD } });
    assert.equal(res.statusCode, 200);
    const setCookie = String(res.headers['set-cookie']);
    assert.match(setCookie, /^__Host-stacklens_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    assert.doesNotMatch(setCookie, /Domain=/i);
    const token = setCookie.split(';', 1)[0]!.split('=')[1]!;
    const me = (app: TestApp, cookie: string) => app.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    assert.equal((await me(https, `__Host-stacklens_session=${token}`)).statusCode, 200);
    // The plain name could be set by a sibling subdomain or a plain-http page: not read over https.
    assert.equal((await me(https, `stacklens_session=${token}`)).statusCode, 401);
    assert.equal((await https.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: `stacklens_session=${token}` } })).statusCode, 401);
    // Over http (local use) browsers refuse the prefix: the plain name, and only it.
    assert.equal((await me(t, `stacklens_session=${token}`)).statusCode, 200);
    assert.equal((await me(t, `__Host-stacklens_session=${token}`)).statusCode, 401);
    const out = await https.app.inject({
      method: 'DELETE',
      url: '/console/api/session',
      headers: { cookie: `__Host-stacklens_session=${token}`, 'x-csrf-token': res.json().csrfToken },
    });
    assert.equal(out.statusCode, 204);
    assert.match(String(out.headers['set-cookie']), /^__Host-stacklens_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0; Secure$/);
  } finally {
    await https.close();
  }
});

test('bad credentials: 401 with one message for an unknown email and a wrong password; no cookie', async () => {
  for (const [email, password] of [
    ['nobody@example.com', PASSWORD],
    [people.viewer, 'wrong password!'],
  ]) {
    const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().message, 'Sign-in failed: unknown email or wrong password');
    assert.equal(res.headers['set-cookie'], undefined);
  }
  const missing = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email: people.viewer } });
  assert.equal(missing.statusCode, 400);
  assert.match(missing.json().message, /password/);
  const noCookie = await t.app.inject({ method: 'GET', url: '/console/api/session' });
  assert.equal(noCookie.statusCode, 401);
  // Each refusal is audited with the attempted email and why (never the password).
  const rows = await t.db.query<{ on_behalf_of: string; outcome: string; params: Record<string, unknown> }>(
    "SELECT on_behalf_of, outcome, params FROM audit_log WHERE action = 'console.sign_in' AND outcome = 'failure' ORDER BY id",
  );
  assert.deepEqual(
    rows.slice(-2).map((r) => [r.on_behalf_of, r.params.reason]),
    [
      ['nobody@example.com', 'unknown email'],
      [people.viewer, 'wrong password'],
    ],
  );
  assert.ok(!JSON.stringify(rows).includes('wrong password!'));
});

const signInFrom = (app: TestApp, email: string, password: string, ip: string) =>
  app.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password }, remoteAddress: ip });
const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

/** An app on the test database with its own (fresh) throttle counters. */
async function throttleApp(env: Record<string, string>): Promise<TestApp> {
  return createTestApp({ db: t.db, env: { DATABASE_READ_TIMEOUT_MS: '30000', ...env } });
}

/** Freezes the clock at the current time; returns a function that moves it on. */
function frozenClock(): (ms: number) => void {
  let at = Date.now();
  setClock(() => at);
  return (ms) => {
    at += ms;
  };
}

test('guessing from one address: after CONSOLE_LOGIN_MAX_FAILURES each attempt waits longer (1 s, doubling, at most CONSOLE_LOGIN_MAX_DELAY_SECONDS), the right password too; then the owner gets in', async () => {
  const email = 'target@example.com';
  await createUser(t.db, { email, name: 'Target', role: 'viewer', password: PASSWORD });
  const wait = frozenClock();
  const attempt = (password: string) => signInFrom(t, email, password, '10.0.0.1');
  for (let i = 0; i < 3; i++) assert.equal((await attempt('guess number ' + i)).statusCode, 401);
  const waits: number[] = [];
  for (let i = 0; i < 8; i++) {
    const held = await attempt(PASSWORD); // the right password waits its turn too: no guessing through the throttle
    assert.equal(held.statusCode, 429);
    assert.equal(held.json().status, 429);
    assert.equal(held.json().error, 'Too Many Requests');
    assert.match(held.json().message, /^Too many sign-in attempts for this email; retry after \d+ s$/);
    waits.push(retryAfter(held));
    wait(retryAfter(held) * 1000);
    assert.equal((await attempt('another guess ' + i)).statusCode, 401);
  }
  assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 60, 60]);
  wait(60_000);
  assert.equal((await attempt(PASSWORD)).statusCode, 200, 'slowed, never locked out');
});

test('concurrent guesses take their slots before the password is checked: against a limit of 2, at most 2 are checked', async () => {
  const app = await throttleApp({ CONSOLE_LOGIN_MAX_FAILURES: '2' });
  try {
    frozenClock();
    const fromOne = 'concurrent.one@example.com';
    const fromMany = 'concurrent.many@example.com';
    for (const email of [fromOne, fromMany]) await createUser(t.db, { email, name: 'C', role: 'viewer', password: PASSWORD });
    const one = await Promise.all(Array.from({ length: 16 }, (_, i) => signInFrom(app, fromOne, `guess ${i} of many`, '10.1.1.1')));
    const many = await Promise.all(Array.from({ length: 16 }, (_, i) => signInFrom(app, fromMany, `guess ${i} of many`, `10.1.2.${i + 1}`)));
    for (const [email, answers] of [
      [fromOne, one],
      [fromMany, many],
    ] as const) {
      const statuses = answers.map((r) => r.statusCode);
      assert.equal(statuses.filter((s) => s === 401).length, 2, `${email}: ${statuses.join(' ')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 14);
      const checked = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'console.sign_in' AND on_behalf_of = $1", [
        email,
      ]);
      assert.equal(checked[0]!.n, 2, `${email}: passwords checked`);
    }
  } finally {
    await app.close();
  }
});

test('a new address does not start the count afresh: guesses at one account from many addresses are slowed per account', async () => {
  const email = 'hunted@example.com';
  await createUser(t.db, { email, name: 'Hunted', role: 'viewer', password: PASSWORD });
  const wait = frozenClock();
  for (let i = 1; i <= 3; i++) assert.equal((await signInFrom(t, email, 'a guess ' + i, `10.2.0.${i}`)).statusCode, 401);
  const next = await signInFrom(t, email, 'a guess 4', '10.2.0.4');
  assert.equal(next.statusCode, 429);
  assert.match(next.json().message, /for this email/);
  assert.equal(retryAfter(next), 1);
  // Other accounts are not slowed by it.
  assert.equal((await signInFrom(t, people.viewer, PASSWORD, '10.2.0.5')).statusCode, 200);
  wait(1000);
  assert.equal((await signInFrom(t, email, 'a guess 5', '10.2.0.6')).statusCode, 401);
});

test('an address that fails across many emails (spraying) is slowed at ten times the per-email count; IPv6 addresses count by their /64', async () => {
  const app = await throttleApp({ CONSOLE_LOGIN_MAX_FAILURES: '1' });
  try {
    frozenClock();
    // Ten addresses of one /64, each spraying one email: one address as far as the throttle goes.
    for (let i = 1; i <= 10; i++)
      assert.equal((await signInFrom(app, `sprayed${i}@example.com`, 'spray-password', `2001:db8:7:1::${i.toString(16)}`)).statusCode, 401, `attempt ${i}`);
    const stopped = await signInFrom(app, 'fresh@example.com', 'spray-password', '2001:db8:7:1:ffff:1:2:3');
    assert.equal(stopped.statusCode, 429);
    assert.match(stopped.json().message, /Too many sign-in attempts from this address/);
    assert.equal(retryAfter(stopped), 1);
    // The next /64 is another address.
    assert.equal((await signInFrom(app, 'fresh@example.com', 'spray-password', '2001:db8:7:2::1')).statusCode, 401);
  } finally {
    await app.close();
  }
});

test('behind one address (a proxy), a flood of failed sign-ins slows the others sharing it but never locks them out', async () => {
  const app = await throttleApp({ CONSOLE_LOGIN_MAX_FAILURES: '1', CONSOLE_LOGIN_MAX_DELAY_SECONDS: '60' });
  try {
    const wait = frozenClock();
    const proxy = '10.3.3.3';
    for (let i = 1; i <= 10; i++) assert.equal((await signInFrom(app, `flood${i}@example.com`, 'flood-password', proxy)).statusCode, 401);
    for (let i = 0; i < 6; i++) {
      const held = await signInFrom(app, `flood-more${i}@example.com`, 'flood-password', proxy);
      if (held.statusCode === 429) wait(retryAfter(held) * 1000);
      assert.equal((await signInFrom(app, `flood-again${i}@example.com`, 'flood-password', proxy)).statusCode, 401);
    }
    // A person behind the same proxy waits at most the longest delay, then gets in.
    const held = await signInFrom(app, people.analyst, PASSWORD, proxy);
    assert.equal(held.statusCode, 429);
    assert.ok(retryAfter(held) >= 1 && retryAfter(held) <= 60, `Retry-After ${retryAfter(held)}`);
    wait(retryAfter(held) * 1000);
    assert.equal((await signInFrom(app, people.analyst, PASSWORD, proxy)).statusCode, 200);
  } finally {
    await app.close();
  }
});

test('the owner is slowed, not locked out: while others flood the account, sign-in from an address the owner used before goes through at once', async () => {
  const app = await throttleApp({ CONSOLE_LOGIN_MAX_FAILURES: '1' });
  try {
    const wait = frozenClock();
    const email = 'owner@example.com';
    await createUser(t.db, { email, name: 'Owner', role: 'viewer', password: PASSWORD });
    assert.equal((await signInFrom(app, email, PASSWORD, '10.4.0.1')).statusCode, 200); // the owner's usual address
    // Attackers from many addresses keep the account's count up.
    assert.equal((await signInFrom(app, email, 'attack 1', '10.5.0.1')).statusCode, 401);
    const attacked = await signInFrom(app, email, 'attack 2', '10.5.0.2');
    assert.equal(attacked.statusCode, 429);
    // The owner's known address is not held by the account's count...
    assert.equal((await signInFrom(app, email, PASSWORD, '10.4.0.1')).statusCode, 200);
    // ...a new one waits, at most CONSOLE_LOGIN_MAX_DELAY_SECONDS, then gets in.
    const away = await signInFrom(app, email, PASSWORD, '10.6.0.1');
    assert.equal(away.statusCode, 429);
    assert.ok(retryAfter(away) <= 60);
    wait(retryAfter(away) * 1000);
    assert.equal((await signInFrom(app, email, PASSWORD, '10.6.0.1')).statusCode, 200);
  } finally {
    await app.close();
  }
});

test('with REDIS_URL, instances share the sign-in slots: concurrent guesses spread over two instances are checked at most twice against a limit of 2', async (tc) => {
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(url))) return tc.skip(`Redis unreachable at ${url}`);
  const env = { CONSOLE_LOGIN_MAX_FAILURES: '2', REDIS_URL: url };
  const [a, b] = [await throttleApp(env), await throttleApp(env)];
  try {
    // Counts outlive a test run in Redis: a fresh email and address each run.
    const run = randomBytes(4).toString('hex');
    const email = `shared.${run}@example.com`;
    await createUser(t.db, { email, name: 'Shared', role: 'viewer', password: PASSWORD });
    const ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.9`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signInFrom(i % 2 ? a : b, email, `guess ${i} of many`, ip)));
    assert.equal(answers.filter((r) => r.statusCode === 401).length, 2, answers.map((r) => r.statusCode).join(' '));
    assert.equal(answers.filter((r) => r.statusCode === 429).length, 10);
  } finally {
    await a.close();
    await b.close();
  }
});

test('a password hashed with the earlier scrypt cost signs in, and is rehashed at the current cost; a wrong password rehashes nothing', async () => {
  const email = 'old.hash@example.com';
  const { user } = await createUser(t.db, { email, name: 'Old', role: 'viewer', password: PASSWORD });
  const oldHash = await hashPassword(PASSWORD, { ln: 15, r: 8, p: 1 });
  await updateConsoleUser(t.db, user.id, { passwordHash: oldHash });
  const stored = async () => (await findConsoleUser(t.db, user.id))!.passwordHash;
  assert.equal((await signInFrom(t, email, 'not the password', '10.7.0.1')).statusCode, 401);
  assert.equal(await stored(), oldHash);
  assert.equal((await signInFrom(t, email, PASSWORD, '10.7.0.1')).statusCode, 200);
  const rehashed = await stored();
  assert.match(rehashed, /^\$scrypt\$ln=17,r=8,p=1\$/);
  assert.equal(await verifyPassword(PASSWORD, rehashed), true);
  assert.equal((await signInFrom(t, email, PASSWORD, '10.7.0.1')).statusCode, 200);
  assert.equal(await stored(), rehashed, 'a current hash is kept');
});

test('with the cookie, /api answers as the person acting through the console client', async () => {
  const s = await signIn(people.viewer);
  const me = await withSession(s, 'GET', '/api/me', { csrf: false });
  assert.equal(me.statusCode, 200, me.body);
  const body = me.json();
  assert.equal(body.clientId, CONSOLE_CLIENT_ID);
  assert.equal(body.authenticatedWith, 'console_session');
  assert.equal(body.role, 'viewer');
  assert.deepEqual(body.user, { ...s.body.user });
  assert.deepEqual(body.permissions, { export: false, ai: true, purchase: false }, 'a viewer may not export or buy');
  // An API key on the same request wins over the cookie.
  const client = await createTestClient(t.db, 'basic');
  const keyed = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: s.cookie, ...client.headers } });
  assert.equal(keyed.json().clientId, client.clientId);
  assert.equal(keyed.json().authenticatedWith, 'api_key');
});

test('CSRF: a cookie-authenticated POST without X-CSRF-Token (or with a wrong one) is a 403 naming the rule', async () => {
  const s = await signIn(people.analyst);
  const url = '/api/profiles/purchase';
  const payload = { profileIds: ['per_bob'] };
  const none = await withSession(s, 'POST', url, { csrf: false, payload });
  assert.equal(none.statusCode, 403);
  assert.match(none.json().message, /X-CSRF-Token: missing.*must send the header X-CSRF-Token/);
  const other = await signIn(people.viewer);
  const wrong = await withSession(s, 'POST', url, { csrf: false, headers: { 'x-csrf-token': other.csrf }, payload });
  assert.equal(wrong.statusCode, 403);
  assert.match(wrong.json().message, /X-CSRF-Token: does not match this session/);
  // An API-key request needs no CSRF token (no cookie involved).
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases WHERE client_id = $1', [CONSOLE_CLIENT_ID]);
  assert.equal(row!.n, 0, 'nothing was bought');
});

test('roles: a viewer is refused exports and purchases (403 naming the role), an analyst may do both, only an admin the Admin API', async () => {
  const viewer = await signIn(people.viewer);
  const analyst = await signIn(people.analyst);
  const admin = await signIn(people.admin);

  const exportUrl = '/api/categories?export=true';
  const vExport = await withSession(viewer, 'GET', exportUrl);
  assert.equal(vExport.statusCode, 403);
  assert.match(vExport.json().message, /Role 'analyst' is required for exports; your role is 'viewer'/);
  const vBuy = await withSession(viewer, 'POST', '/api/profiles/purchase', { payload: { profileIds: ['per_ada'] } });
  assert.equal(vBuy.statusCode, 403);
  assert.match(vBuy.json().message, /Role 'analyst' is required for profile purchases; your role is 'viewer'/);
  const vAdmin = await withSession(viewer, 'GET', '/api/admin/clients');
  assert.equal(vAdmin.statusCode, 403);
  assert.match(vAdmin.json().message, /Role 'admin' is required.*your role is 'viewer'/);

  const aExport = await withSession(analyst, 'GET', exportUrl);
  assert.equal(aExport.statusCode, 200, aExport.body);
  assert.match(String(aExport.headers['content-type']), /text\/csv/);
  const aAdmin = await withSession(analyst, 'GET', '/api/admin/users');
  assert.equal(aAdmin.statusCode, 403);
  assert.match(aAdmin.json().message, /your role is 'analyst'/);

  const dExport = await withSession(admin, 'GET', exportUrl);
  assert.equal(dExport.statusCode, 200);
  const dAdmin = await withSession(admin, 'GET', '/api/admin/clients');
  assert.equal(dAdmin.statusCode, 200, dAdmin.body);
  assert.ok(
    dAdmin.json().content.some((c: { clientId: string }) => c.clientId === CONSOLE_CLIENT_ID),
    'the console client is an ordinary client the admin sees',
  );

  // The export is audited under the person.
  const [audited] = await t.db.query<{ on_behalf_of: string }>(
    "SELECT on_behalf_of FROM audit_log WHERE client_id = $1 AND action LIKE '%export%' ORDER BY id LIMIT 1",
    [CONSOLE_CLIENT_ID],
  );
  assert.equal(audited?.on_behalf_of, people.analyst);
});

test('a purchase through the console is attributed to the person; naming someone else is refused', async () => {
  const analyst = await signIn(people.analyst);
  const bought = await withSession(analyst, 'POST', '/api/profiles/purchase', { payload: { profileIds: ['per_ada'] } });
  assert.equal(bought.statusCode, 200, bought.body);
  const [audit] = await t.db.query<{ on_behalf_of: string; client_id: string }>(
    "SELECT on_behalf_of, client_id FROM audit_log WHERE action LIKE '%purchase%' ORDER BY id DESC LIMIT 1",
  );
  assert.deepEqual(audit, { on_behalf_of: people.analyst, client_id: CONSOLE_CLIENT_ID });
  const [purchase] = await t.db.query<{ on_behalf_of: string }>("SELECT on_behalf_of FROM purchases WHERE client_id = $1 AND person_id = 'per_ada'", [
    CONSOLE_CLIENT_ID,
  ]);
  assert.equal(purchase?.on_behalf_of, people.analyst, 'the purchase row names the person');
  const other = await withSession(analyst, 'POST', '/api/profiles/purchase', {
    headers: { 'x-on-behalf-of-user': 'someone@else.com' },
    payload: { profileIds: ['per_bob'] },
  });
  assert.equal(other.statusCode, 403);
  assert.match(other.json().message, /acts for its own person \(anna@example.com\) only/);
});

test('sign out: 204, the cookie is cleared, the session no longer works; sign-out needs the CSRF token', async () => {
  const s = await signIn(people.viewer);
  const noCsrf = await withSession(s, 'DELETE', '/console/api/session', { csrf: false });
  assert.equal(noCsrf.statusCode, 403);
  const out = await withSession(s, 'DELETE', '/console/api/session');
  assert.equal(out.statusCode, 204);
  assert.match(String(out.headers['set-cookie']), /^stacklens_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
  const after = await withSession(s, 'GET', '/api/me', { csrf: false });
  assert.equal(after.statusCode, 401);
  assert.match(after.json().message, /console session has ended/);
  assert.equal((await withSession(s, 'GET', '/console/api/session')).statusCode, 401);
});

test('expiry: idle for CONSOLE_SESSION_IDLE_SECONDS ends a session; so does CONSOLE_SESSION_TTL_SECONDS however active', async () => {
  const start = Date.now();
  let at = start;
  setClock(() => at);
  const idle = await signIn(people.viewer);
  at = start + 540_000; // 9 min: still alive, and seen now
  assert.equal((await withSession(idle, 'GET', '/api/me')).statusCode, 200);
  at = start + 1_080_000; // 9 min after the last request: alive
  assert.equal((await withSession(idle, 'GET', '/api/me')).statusCode, 200);
  at += 601_000; // 10 min idle: ended
  assert.equal((await withSession(idle, 'GET', '/api/me')).statusCode, 401);

  at = start;
  const busy = await signIn(people.viewer);
  for (let m = 5; m < 60; m += 5) {
    at = start + m * 60_000;
    assert.equal((await withSession(busy, 'GET', '/api/me')).statusCode, 200, `minute ${m}`);
  }
  at = start + 3_600_000; // the absolute limit
  assert.equal((await withSession(busy, 'GET', '/api/me')).statusCode, 401);
});

test('a disabled person cannot sign in, and their open sessions end at once', async () => {
  const email = 'leaver@example.com';
  const { user } = await createUser(t.db, { email, name: 'Leaver', role: 'analyst', password: PASSWORD });
  const s = await signIn(email);
  const admin = await signIn(people.admin);
  const disabled = await withSession(admin, 'POST', `/api/admin/users/${user.id}/disable`, { payload: {} });
  assert.equal(disabled.statusCode, 200, disabled.body);
  assert.equal(disabled.json().disabled, true);
  assert.equal((await withSession(s, 'GET', '/api/me')).statusCode, 401);
  const again = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password: PASSWORD } });
  assert.equal(again.statusCode, 401);
  assert.match(again.json().message, /disabled/);
  const enabled = await withSession(admin, 'POST', `/api/admin/users/${user.id}/enable`, { payload: {} });
  assert.equal(enabled.json().disabled, false);
  await signIn(email);
});

test('the cookie never authenticates /mcp', async () => {
  const s = await signIn(people.admin);
  const res = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
  });
  assert.equal(res.statusCode, 401);
});
