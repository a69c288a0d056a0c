// API keys: shown once, stored hashed with a visible prefix, accepted as X-API-Key and
// Authorization: API-Key, refused from the next request after revocation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey, listKeys, revokeApiKey } from '../../src/auth/api-keys.ts';
import { createClient, setClientEnabled } from '../../src/auth/clients.ts';
import { hashSecret } from '../../src/auth/secrets.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/me', headers });

test('a key is stored only as a hash, with its prefix visible', async () => {
  const c = await createClient(t.db, { name: 'k', plan: 'basic' });
  const key = await createApiKey(t.db, c.clientId, 'ci');
  assert.match(key.apiKey, /^sl_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
  assert.equal(key.apiKey.slice(3, 15), key.prefix);
  const [row] = await t.db.query<Record<string, any>>('SELECT * FROM api_keys WHERE id = $1', [key.id]);
  assert.equal(row!.prefix, key.prefix);
  assert.equal(row!.key_hash, hashSecret(key.apiKey));
  assert.ok(!JSON.stringify(row).includes(key.apiKey.slice(16)), 'the secret part is not stored');
  const listed = await listKeys(t.db, c.clientId);
  assert.deepEqual(
    listed.map((k) => [k.id, k.prefix, k.name, k.revokedAt]),
    [[key.id, key.prefix, 'ci', null]],
  );
  await assert.rejects(createApiKey(t.db, 'cli_nobody'), /no client 'cli_nobody'/);
});

test('accepted as X-API-Key and as Authorization: API-Key; last use is recorded', async () => {
  const c = await createClient(t.db, { name: 'k2', plan: 'full' });
  const key = await createApiKey(t.db, c.clientId);
  for (const headers of [{ 'x-api-key': key.apiKey }, { authorization: `API-Key ${key.apiKey}` }] as Record<string, string>[]) {
    const res = await me(headers);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().clientId, c.clientId);
    assert.equal(res.json().authenticatedWith, 'api_key');
  }
  // Written in the background: wait for it (up to 10 s on a loaded machine), not a fixed number of ticks.
  let used: Date | null = null;
  for (const deadline = Date.now() + 10_000; !used && Date.now() < deadline;) {
    used = (await listKeys(t.db, c.clientId))[0]!.lastUsedAt;
    if (!used) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(used instanceof Date);
});

test('revocation (by id or prefix) takes effect on the next request; other keys keep working', async () => {
  const c = await createClient(t.db, { name: 'k3', plan: 'full' });
  const k1 = await createApiKey(t.db, c.clientId);
  const k2 = await createApiKey(t.db, c.clientId);
  assert.equal((await me({ 'x-api-key': k1.apiKey })).statusCode, 200);
  const revoked = await revokeApiKey(t.db, k1.id);
  assert.ok(revoked.revokedAt instanceof Date);
  const res = await me({ 'x-api-key': k1.apiKey });
  assert.equal(res.statusCode, 401);
  assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
  assert.match(res.json().message, /revoked/);
  assert.equal((await me({ 'x-api-key': k2.apiKey })).statusCode, 200);
  await revokeApiKey(t.db, k2.prefix);
  assert.equal((await me({ authorization: `API-Key ${k2.apiKey}` })).statusCode, 401);
  await assert.rejects(revokeApiKey(t.db, 'key_nope'), /no API key/);
});

test("a disabled client's keys are refused at once", async () => {
  const c = await createClient(t.db, { name: 'k4', plan: 'full' });
  const key = await createApiKey(t.db, c.clientId);
  await setClientEnabled(t.db, c.clientId, false);
  assert.equal((await me({ 'x-api-key': key.apiKey })).statusCode, 401);
  await setClientEnabled(t.db, c.clientId, true);
  assert.equal((await me({ 'x-api-key': key.apiKey })).statusCode, 200);
});

// Changes made by another process (the CLI, another instance) reach the database without
// passing through this process's code; plain SQL on the same database is exactly that.
test('changes made outside this process take effect on the next request, even for a key already served from the cache', async () => {
  const c = await createClient(t.db, { name: 'k5', plan: 'full' });
  const key = await createApiKey(t.db, c.clientId);
  const other = await createApiKey(t.db, c.clientId);
  const headers = { 'x-api-key': key.apiKey };
  for (let i = 0; i < 3; i++) assert.equal((await me(headers)).statusCode, 200);

  await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
  assert.equal((await me(headers)).statusCode, 401);
  await t.db.query('UPDATE api_keys SET revoked_at = NULL WHERE id = $1', [key.id]);
  assert.equal((await me(headers)).statusCode, 200);

  await t.db.query('UPDATE api_clients SET disabled_at = now() WHERE id = $1', [c.clientId]);
  assert.equal((await me({ 'x-api-key': other.apiKey })).statusCode, 401);
  assert.equal((await me(headers)).statusCode, 401);
  await t.db.query('UPDATE api_clients SET disabled_at = NULL WHERE id = $1', [c.clientId]);

  await t.db
    .query(`INSERT INTO plans (id, can_export, can_ai, can_purchase, initial_credits, requests_per_minute, ai_requests_per_minute, export_requests_per_minute)
                    VALUES ('k5-plan', false, false, false, 0, 7, 1, 1)`);
  assert.equal((await me(headers)).json().plan, 'full');
  await t.db.query(`UPDATE api_clients SET plan_id = 'k5-plan' WHERE id = $1`, [c.clientId]);
  const moved = (await me(headers)).json();
  assert.equal(moved.plan, 'k5-plan');
  assert.deepEqual(moved.permissions, { export: false, ai: false, purchase: false });
  await t.db.query(`UPDATE plans SET requests_per_minute = 8 WHERE id = 'k5-plan'`);
  assert.equal((await me(headers)).json().rateLimits.requestsPerMinute, 8);
});

test('usage stamps and credit changes do not count as access changes', async () => {
  const c = await createClient(t.db, { name: 'k6', plan: 'full' });
  const key = await createApiKey(t.db, c.clientId);
  const version = async () => (await t.db.query<{ version: number }>('SELECT version FROM access_version'))[0]!.version;
  const v = await version();
  await t.db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [key.id]);
  await t.db.query('UPDATE api_clients SET credits = credits + 1 WHERE id = $1', [c.clientId]);
  assert.equal(await version(), v);
  await revokeApiKey(t.db, key.id);
  assert.ok((await version()) > v);
});
