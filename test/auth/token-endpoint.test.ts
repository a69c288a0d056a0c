// POST /oauth/token: JSON, form and Basic requests; every RFC 6749 §5.2 error; identical
// answers for unknown client / wrong secret / disabled; throttling per (client_id, address) and
// per address; metadata.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { setClientEnabled } from '../../src/auth/clients.ts';

const AUDIENCE = 'http://stacklens.test';
let t: TestApp;
let full: TestClient;
before(async () => {
  t = await createTestApp({ env: { TOKEN_MAX_FAILED_ATTEMPTS: '3', TOKEN_TTL_SECONDS: '900' } });
  full = await createTestClient(t.db, 'full');
});
after(() => t.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function token(payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/oauth/token', payload: payload as any, headers });
}

function assertOAuthError(res: { statusCode: number; json(): any; headers: Record<string, unknown> }, status: number, code: string) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  const body = res.json();
  assert.equal(body.error, code);
  assert.equal(typeof body.error_description, 'string');
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.ok(!('access_token' in body));
}

test('JSON body: a Bearer token with the RFC 9068 header and claims, not cacheable', async () => {
  const res = await token({ grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret, audience: AUDIENCE });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers.pragma, 'no-cache');
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
  assert.equal(body.token_type, 'Bearer');
  assert.equal(body.expires_in, 900);
  const header = decodeProtectedHeader(body.access_token);
  assert.equal(header.typ, 'at+jwt');
  assert.equal(header.alg, 'ES256');
  assert.equal(typeof header.kid, 'string');
  const claims = decodeJwt(body.access_token);
  assert.equal(claims.iss, AUDIENCE);
  assert.equal(claims.aud, AUDIENCE);
  assert.equal(claims.sub, full.clientId);
  assert.equal(claims.client_id, full.clientId);
  assert.equal(claims.exp! - claims.iat!, 900);
  assert.match(String(claims.jti), /^[0-9a-f-]{36}$/);
  const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${body.access_token}` } });
  assert.equal(me.statusCode, 200);
  assert.equal(me.json().clientId, full.clientId);
  assert.equal(me.json().authenticatedWith, 'access_token');
});

test('form body and HTTP Basic (client_secret_basic) both work; each token is unique', async () => {
  const viaForm = await token(form({ grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret, audience: AUDIENCE }), {
    'content-type': 'application/x-www-form-urlencoded',
  });
  assert.equal(viaForm.statusCode, 200, viaForm.body);
  const viaBasic = await token(form({ grant_type: 'client_credentials', audience: AUDIENCE }), {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: basic(full.clientId, full.clientSecret),
  });
  assert.equal(viaBasic.statusCode, 200, viaBasic.body);
  const basicJson = await token(
    { grant_type: 'client_credentials', audience: AUDIENCE, client_id: full.clientId },
    { authorization: basic(full.clientId, full.clientSecret) },
  );
  assert.equal(basicJson.statusCode, 200, basicJson.body);
  assert.notEqual(decodeJwt(viaForm.json().access_token).jti, decodeJwt(viaBasic.json().access_token).jti);
});

test('invalid_request: missing or repeated parameters, non-string values, both auth methods, bad bodies', async () => {
  const ok = { grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret, audience: AUDIENCE };
  const { grant_type: _g, ...noGrant } = ok;
  assertOAuthError(await token(noGrant), 400, 'invalid_request');
  const { audience: _a, ...noAudience } = ok;
  const r = await token(noAudience);
  assertOAuthError(r, 400, 'invalid_request');
  assert.match(r.json().error_description, /audience/);
  assertOAuthError(await token({ ...ok, audience: 42 }), 400, 'invalid_request');
  const repeated = await token(`${form(ok)}&audience=${encodeURIComponent(AUDIENCE)}`, { 'content-type': 'application/x-www-form-urlencoded' });
  assertOAuthError(repeated, 400, 'invalid_request');
  assert.match(repeated.json().error_description, /repeated/);
  const both = await token(ok, { authorization: basic(full.clientId, full.clientSecret) });
  assertOAuthError(both, 400, 'invalid_request');
  assert.match(both.json().error_description, /not both/);
  assertOAuthError(await token({ ...ok, client_secret: undefined }, { authorization: basic('cli_other', full.clientSecret) }), 400, 'invalid_request');
  assertOAuthError(await token('{"grant_type":', { 'content-type': 'application/json' }), 400, 'invalid_request');
  assertOAuthError(await token('[1,2]', { 'content-type': 'application/json' }), 400, 'invalid_request');
  assertOAuthError(await token('grant_type=client_credentials', { 'content-type': 'text/plain' }), 400, 'invalid_request');
  assertOAuthError(await token(ok, { authorization: 'Bearer abc' }), 400, 'invalid_request');
});

test('unsupported_grant_type, and a refused audience mints no token', async () => {
  const r = await token({ grant_type: 'password', client_id: full.clientId, client_secret: full.clientSecret, audience: AUDIENCE });
  assertOAuthError(r, 400, 'unsupported_grant_type');
  const aud = await token({ grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret, audience: 'https://other.example' });
  assertOAuthError(aud, 400, 'invalid_target');
  assert.match(aud.json().error_description, /stacklens\.test/);
});

test('invalid_client: unknown client, wrong secret and disabled client answer identically; Basic gets WWW-Authenticate', async () => {
  const other = await createTestClient(t.db, 'basic');
  const unknown = await token({ grant_type: 'client_credentials', client_id: 'cli_doesnotexist', client_secret: full.clientSecret, audience: AUDIENCE });
  const wrong = await token({ grant_type: 'client_credentials', client_id: other.clientId, client_secret: 'x'.repeat(43), audience: AUDIENCE });
  const disabledClient = await createTestClient(t.db, 'full');
  await setClientEnabled(t.db, disabledClient.clientId, false);
  const disabled = await token({
    grant_type: 'client_credentials',
    client_id: disabledClient.clientId,
    client_secret: disabledClient.clientSecret,
    audience: AUDIENCE,
  });
  for (const res of [unknown, wrong, disabled]) {
    assertOAuthError(res, 401, 'invalid_client');
    assert.equal(res.headers['www-authenticate'], undefined);
  }
  assert.deepEqual(unknown.json(), wrong.json());
  assert.deepEqual(unknown.json(), disabled.json());
  const viaBasic = await token({ grant_type: 'client_credentials', audience: AUDIENCE }, { authorization: basic(other.clientId, 'nope') });
  assertOAuthError(viaBasic, 401, 'invalid_client');
  assert.match(String(viaBasic.headers['www-authenticate']), /^Basic realm="stacklens"/);
  assert.deepEqual(viaBasic.json(), unknown.json());
  const malformedBasic = await token({ grant_type: 'client_credentials', audience: AUDIENCE }, { authorization: 'Basic !!!' });
  assertOAuthError(malformedBasic, 401, 'invalid_client');
  assert.match(String(malformedBasic.headers['www-authenticate']), /^Basic/);
  const noAuth = await token({ grant_type: 'client_credentials', audience: AUDIENCE });
  assertOAuthError(noAuth, 401, 'invalid_client');
  const idOnly = await token({ grant_type: 'client_credentials', audience: AUDIENCE, client_id: other.clientId });
  assertOAuthError(idOnly, 401, 'invalid_client');
});

test('repeated failures for one client_id from one address are throttled (429 + Retry-After); the client from another address, and other clients, are not', async () => {
  const victim = await createTestClient(t.db, 'full');
  const bystander = await createTestClient(t.db, 'full');
  const attempt = (c: TestClient, secret: string, remoteAddress = '10.20.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: secret, audience: AUDIENCE },
      remoteAddress,
    });
  for (let i = 0; i < 3; i++) assertOAuthError(await attempt(victim, `wrong-${i}`), 401, 'invalid_client');
  for (const secret of ['wrong-again', victim.clientSecret]) {
    const res = await attempt(victim, secret); // even the right secret waits here: no guessing through the throttle
    assert.equal(res.statusCode, 429);
    assert.match(String(res.headers['retry-after']), /^\d+$/);
    assert.ok(Number(res.headers['retry-after']) >= 1 && Number(res.headers['retry-after']) <= 300);
    assert.equal(res.json().status, 429);
    assert.equal(res.json().error, 'Too Many Requests');
    assert.match(res.json().message, /failed authentications for this client_id from this address/);
  }
  // Whoever knows the client id cannot deny it service: the client itself, elsewhere, gets its token.
  assert.equal((await attempt(victim, victim.clientSecret, '10.20.0.2')).statusCode, 200);
  assert.equal((await attempt(victim, victim.clientSecret, '2001:db8:20::1')).statusCode, 200);
  assert.equal((await attempt(bystander, bystander.clientSecret)).statusCode, 200);
});

test('failures over many client ids from one address count against the address: past AUTH_MAX_FAILURES_PER_ADDRESS they are answered 429', async () => {
  const app = await createTestApp({ db: t.db, env: { AUTH_MAX_FAILURES_PER_ADDRESS: '5', AUTH_FAILURE_WINDOW_SECONDS: '60' } });
  try {
    const c = await createTestClient(t.db, 'full');
    const attempt = (clientId: string, secret: string, remoteAddress = '10.21.0.1') =>
      app.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, audience: AUDIENCE },
        remoteAddress,
      });
    for (let i = 0; i < 5; i++) assertOAuthError(await attempt(`cli_random${i}`, 'guess'), 401, 'invalid_client');
    const refused = await attempt('cli_random_next', 'guess');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().status, 429);
    assert.match(refused.json().message, /Too many failed authentications from this address/);
    assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60);
    // A right secret from that address still gets its token; another address is not affected.
    assert.equal((await attempt(c.clientId, c.clientSecret)).statusCode, 200);
    assertOAuthError(await attempt('cli_random_next', 'guess', '10.21.0.2'), 401, 'invalid_client');
  } finally {
    await app.close();
  }
});

test('a success clears earlier failures', async () => {
  const c = await createTestClient(t.db, 'full');
  const attempt = (secret: string) => token({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: secret, audience: AUDIENCE });
  for (let i = 0; i < 2; i++) assert.equal((await attempt('bad')).statusCode, 401);
  assert.equal((await attempt(c.clientSecret)).statusCode, 200);
  for (let i = 0; i < 2; i++) assert.equal((await attempt('bad')).statusCode, 401);
  assert.equal((await attempt(c.clientSecret)).statusCode, 200);
});

test('metadata (RFC 8414) and JWKS: public keys only', async () => {
  const meta = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
  assert.equal(meta.statusCode, 200);
  assert.deepEqual(meta.json(), {
    issuer: AUDIENCE,
    authorization_endpoint: `${AUDIENCE}/oauth/authorize`,
    token_endpoint: `${AUDIENCE}/oauth/token`,
    jwks_uri: `${AUDIENCE}/.well-known/jwks.json`,
    registration_endpoint: `${AUDIENCE}/oauth/register`,
    revocation_endpoint: `${AUDIENCE}/oauth/revoke`,
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['read', 'write'],
    authorization_response_iss_parameter_supported: true,
  });
  const jwks = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  assert.equal(jwks.statusCode, 200);
  const { keys } = jwks.json();
  assert.ok(keys.length >= 1);
  for (const k of keys) {
    assert.equal(k.kty, 'EC');
    assert.equal(k.alg, 'ES256');
    assert.equal(k.use, 'sig');
    assert.equal(k.d, undefined, 'private key material must never be served');
  }
  const tok = (await token({ grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret, audience: AUDIENCE })).json()
    .access_token;
  assert.ok(keys.some((k: { kid: string }) => k.kid === decodeProtectedHeader(tok).kid));
});

test('ISSUER_URL and API_AUDIENCE configure iss, aud and the metadata (deployments behind a proxy)', async () => {
  const p = await createTestApp({ env: { ISSUER_URL: 'https://auth.example.com/', API_AUDIENCE: 'https://api.example.com' } });
  try {
    const c = await createTestClient(p.db, 'basic');
    const meta = (await p.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    assert.equal(meta.issuer, 'https://auth.example.com');
    assert.equal(meta.token_endpoint, 'https://auth.example.com/oauth/token');
    const res = await p.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: 'https://api.example.com' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const claims = decodeJwt(res.json().access_token);
    assert.equal(claims.iss, 'https://auth.example.com');
    assert.equal(claims.aud, 'https://api.example.com');
    const me = await p.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${res.json().access_token}` } });
    assert.equal(me.statusCode, 200);
    // The same token is foreign to a service with another audience.
    const foreign = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${res.json().access_token}` } });
    assert.equal(foreign.statusCode, 401);
  } finally {
    await p.close();
  }
});
