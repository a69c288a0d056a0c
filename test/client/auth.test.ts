// The typed client's credentials against the real server: client-credentials tokens
// fetched once and cached, renewed before they expire, renewed once after a 401; API keys;
// refused credentials as typed errors.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createStacklensClient, StacklensError } from '../../clients/typescript/src/index.ts';
import { now, setClock } from '../../src/clock.ts';
import { setClientEnabled } from '../../src/auth/clients.ts';
import { createCredentials, startClientTestServer, type ClientTestServer } from './server.ts';

const TTL_SECONDS = 600;
let s: ClientTestServer;
let creds: Awaited<ReturnType<typeof createCredentials>>;
before(async () => {
  s = await startClientTestServer({ env: { TOKEN_TTL_SECONDS: String(TTL_SECONDS) } });
  creds = await createCredentials(s.db, 'full');
});
after(() => s.close());
afterEach(() => {
  setClock();
  s.sent.length = 0;
});

/** Moves the server's auth clock (and the client's, when it shares it) forward. */
function advanceClock(ms: number): void {
  const t = now() + ms;
  setClock(() => t);
}

const tokenRequests = () => s.sent.filter((r) => r.path === '/oauth/token');
const apiRequests = () => s.sent.filter((r) => r.path.startsWith('/api/'));

test('client credentials: one token request, then the cached token for every call', async () => {
  const client = createStacklensClient({
    baseUrl: s.baseUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    audience: s.audience,
    fetch: s.fetch,
  });
  const me = await client.get('/api/me');
  assert.equal(me.clientId, creds.clientId);
  assert.equal(me.authenticatedWith, 'access_token');
  await Promise.all([client.get('/api/me'), client.get('/api/industries'), client.get('/api/me')]);
  assert.equal(tokenRequests().length, 1);
  assert.deepEqual(
    apiRequests().map((r) => r.status),
    [200, 200, 200, 200],
  );
});

test('concurrent first calls share one token request', async () => {
  const client = createStacklensClient({
    baseUrl: s.baseUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    audience: s.audience,
    fetch: s.fetch,
  });
  await Promise.all([client.get('/api/me'), client.get('/api/me'), client.get('/api/me')]);
  assert.equal(tokenRequests().length, 1);
});

test('a token is renewed shortly before it expires, not after', async () => {
  const client = createStacklensClient({
    baseUrl: s.baseUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    audience: s.audience,
    fetch: s.fetch,
    now,
    refreshMarginMs: 60_000,
  });
  await client.get('/api/me');
  advanceClock((TTL_SECONDS - 120) * 1000); // two minutes left: still used
  await client.get('/api/me');
  assert.equal(tokenRequests().length, 1);
  advanceClock(90_000); // 30 s left, inside the 60 s margin: renewed before the server would refuse it
  await client.get('/api/me');
  assert.equal(tokenRequests().length, 2);
  assert.deepEqual(
    apiRequests().map((r) => r.status),
    [200, 200, 200],
    'no call was refused on the way',
  );
});

test('a cached token the server refuses (401) is renewed once and the call repeated', async () => {
  // The client keeps its own (real) clock, so it still trusts its token when the server's
  // clock has passed the expiry: the case of a clock skew or a revoked token.
  const client = createStacklensClient({
    baseUrl: s.baseUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    audience: s.audience,
    fetch: s.fetch,
  });
  await client.get('/api/me');
  advanceClock((TTL_SECONDS + 60) * 1000);
  const me = await client.get('/api/me');
  assert.equal(me.clientId, creds.clientId);
  assert.deepEqual(
    s.sent.map((r) => `${r.path} ${r.status}`),
    ['/oauth/token 200', '/api/me 200', '/api/me 401', '/oauth/token 200', '/api/me 200'],
  );
});

test('a 401 after renewing is not retried again: the typed error carries the service body', async () => {
  const other = await createCredentials(s.db, 'full');
  const client = createStacklensClient({
    baseUrl: s.baseUrl,
    clientId: other.clientId,
    clientSecret: other.clientSecret,
    audience: s.audience,
    fetch: s.fetch,
  });
  await client.get('/api/me');
  await setClientEnabled(s.db, other.clientId, false);
  advanceClock((TTL_SECONDS + 60) * 1000); // the cached token is refused; a new one is not given to a disabled client
  const err = await client.get('/api/me').then(
    () => assert.fail('expected a StacklensError'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof StacklensError);
  assert.equal(err.status, 401);
  assert.equal(err.error, 'invalid_client');
  assert.deepEqual(
    s.sent.map((r) => `${r.path} ${r.status}`),
    ['/oauth/token 200', '/api/me 200', '/api/me 401', '/oauth/token 401'],
  );
});

test('a wrong secret is a StacklensError from the token endpoint, asked once', async () => {
  const client = createStacklensClient({ baseUrl: s.baseUrl, clientId: creds.clientId, clientSecret: 'wrong', audience: s.audience, fetch: s.fetch });
  await assert.rejects(client.get('/api/me'), (err: unknown) => {
    assert.ok(err instanceof StacklensError);
    assert.equal(err.status, 401);
    assert.equal(err.error, 'invalid_client');
    assert.match(err.message, /client/i);
    return true;
  });
  assert.equal(tokenRequests().length, 1);
  assert.equal(apiRequests().length, 0);
});

test('the wrong audience is refused by the token endpoint (invalid_target)', async () => {
  const client = createStacklensClient({ baseUrl: s.baseUrl, clientId: creds.clientId, clientSecret: creds.clientSecret, fetch: s.fetch });
  // The default audience is the origin of baseUrl; this server expects its PUBLIC_URL instead.
  await assert.rejects(client.get('/api/me'), (err: unknown) => err instanceof StacklensError && err.status === 400 && err.error === 'invalid_target');
});

test('API-key mode sends X-API-Key and asks for no token', async () => {
  const client = createStacklensClient({ baseUrl: s.baseUrl, apiKey: creds.apiKey, fetch: s.fetch });
  const me = await client.get('/api/me');
  assert.equal(me.clientId, creds.clientId);
  assert.equal(me.authenticatedWith, 'api_key');
  assert.equal(tokenRequests().length, 0);
  const bad = createStacklensClient({ baseUrl: s.baseUrl, apiKey: 'sk_nope', fetch: s.fetch });
  await assert.rejects(bad.get('/api/me'), (err: unknown) => {
    assert.ok(err instanceof StacklensError);
    assert.equal(err.status, 401);
    assert.equal(err.error, 'Unauthorized');
    assert.equal(err.path, '/api/me');
    assert.ok(err.requestId);
    return true;
  });
  assert.equal(apiRequests().length, 2, 'a refused API key is not retried');
});
