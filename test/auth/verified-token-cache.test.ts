// A token whose signature verified is kept by its text (the signature check is the dearest
// part of a bearer request), but only while it is inside its validity window and its key is
// still published; the client checks run on every request regardless.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtectedHeader } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { setClock } from '../../src/clock.ts';
import { KEY_CACHE_MS } from '../../src/auth/signing-keys.ts';
import { setClientEnabled } from '../../src/auth/clients.ts';

// Each test has its own database: one moves the key set's clock, the other retires its key.
let t: TestApp;
let client: TestClient;
beforeEach(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
});
afterEach(async () => {
  setClock();
  await t.close();
});

async function getToken(): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, audience: 'http://stacklens.test' },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().access_token;
}

const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });

test('a kept token still expires, and still stops when its client is disabled', async () => {
  const token = await getToken();
  assert.equal((await me(token)).statusCode, 200);
  assert.equal((await me(token)).statusCode, 200, 'second use, from the kept verification');
  const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
  setClock(() => (exp + 60) * 1000);
  const expired = await me(token);
  assert.equal(expired.statusCode, 401);
  assert.match(expired.json().message, /expired/);
  setClock();

  const other = await getToken();
  assert.equal((await me(other)).statusCode, 200);
  await setClientEnabled(t.db, client.clientId, false);
  assert.equal((await me(other)).statusCode, 401, 'disabled client, though the token verified before');
  await setClientEnabled(t.db, client.clientId, true);
});

test('a kept token is refused once its signing key is no longer published', async () => {
  const token = await getToken();
  assert.equal((await me(token)).statusCode, 200);
  const { kid } = decodeProtectedHeader(token);
  await t.db.query(`UPDATE signing_keys SET retired_at = now() - interval '2 days', published_until = now() - interval '1 day' WHERE kid = $1`, [kid]);
  // The key set is re-read after KEY_CACHE_MS; the token itself is still within its lifetime.
  const later = Date.now() + KEY_CACHE_MS + 1000;
  setClock(() => later);
  const res = await me(token);
  assert.equal(res.statusCode, 401, res.body);
  assert.match(res.json().message, /unknown key/);
});
