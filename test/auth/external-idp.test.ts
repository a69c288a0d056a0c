// External identity provider mode: tokens from an Auth0/Keycloak-style issuer, verified
// against a JWKS this test serves itself; mapped to clients by client_id / azp / sub.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createClient, setClientEnabled } from '../../src/auth/clients.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { currentSigningKey } from '../../src/auth/signing-keys.ts';
import { listenInRange, listenServer } from '../helpers/ports.ts';

const ISSUER = 'https://idp.example.com/';
const AUDIENCE = 'https://api.stacklens.example';
let t: TestApp;
let server: http.Server;
let idpKey: CryptoKey;
let attackerKey: CryptoKey;
let attackerJwk: JWK;
let port: number;

before(async () => {
  const idp = await generateKeyPair('RS256');
  idpKey = idp.privateKey;
  const publicJwk = { ...(await exportJWK(idp.publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' };
  const attacker = await generateKeyPair('RS256');
  attackerKey = attacker.privateKey;
  attackerJwk = { ...(await exportJWK(attacker.publicKey)), kid: 'evil-1', alg: 'RS256' };
  server = http.createServer((req, res) => {
    const body = req.url === '/jwks' ? { keys: [publicJwk] } : req.url === '/evil-jwks' ? { keys: [attackerJwk] } : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
  });
  port = await listenInRange((p) => listenServer(server, p));
  t = await createTestApp({ env: { AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`, AUTH_AUDIENCE: AUDIENCE } });
});
after(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

async function idpToken(claims: JWTPayload, opts: { key?: CryptoKey; kid?: string; header?: Record<string, unknown>; iss?: string; aud?: string } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'idp-1', typ: 'JWT', ...opts.header } as any)
    .setIssuer(opts.iss ?? ISSUER)
    .setAudience(opts.aud ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(opts.key ?? idpKey);
}

const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });

test('a provider token maps to the client registered with its client_id, azp or sub', async () => {
  const auth0 = await createClient(t.db, { name: 'auth0-app', plan: 'full', externalId: 'AbC123xyz' });
  const keycloak = await createClient(t.db, { name: 'kc-app', plan: 'basic', externalId: 'reporting-service' });
  const bySub = await createClient(t.db, { name: 'sub-app', plan: 'basic', externalId: 'svc@clients' });
  const cases: [JWTPayload, string][] = [
    [{ sub: 'AbC123xyz@clients', azp: 'AbC123xyz' }, auth0.clientId], // Auth0 M2M shape
    [{ sub: 'f3b1-uuid', azp: 'reporting-service' }, keycloak.clientId], // Keycloak shape
    [{ sub: 'x', client_id: 'AbC123xyz', azp: 'reporting-service' }, auth0.clientId], // client_id wins (RFC 9068)
    [{ sub: 'svc@clients' }, bySub.clientId],
  ];
  for (const [claims, expected] of cases) {
    const res = await me(await idpToken(claims));
    assert.equal(res.statusCode, 200, `${JSON.stringify(claims)}: ${res.body}`);
    assert.equal(res.json().clientId, expected);
    assert.equal(res.json().authenticatedWith, 'access_token');
  }
});

test('an unknown client is 403 naming it; a disabled one is 401', async () => {
  const res = await me(await idpToken({ sub: 'stranger', azp: 'stranger' }));
  assert.equal(res.statusCode, 403);
  assert.equal(res.json().error, 'Forbidden');
  assert.match(res.json().message, /'stranger' is not registered.*--external-id/);
  const c = await createClient(t.db, { name: 'soon-off', plan: 'full', externalId: 'soon-off' });
  await setClientEnabled(t.db, c.clientId, false);
  const off = await me(await idpToken({ azp: 'soon-off', sub: 'soon-off' }));
  assert.equal(off.statusCode, 401);
});

test('wrong issuer, wrong audience, expired, unknown kid, HS256 and jku-pointed keys are all 401', async () => {
  await createClient(t.db, { name: 'target', plan: 'full', externalId: 'target' });
  const claims = { azp: 'target', sub: 'target' };
  assert.equal((await me(await idpToken(claims))).statusCode, 200, 'control case');
  const refused = [
    await idpToken(claims, { iss: 'https://evil.example.com/' }),
    await idpToken(claims, { aud: 'https://other-api.example' }),
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(1_600_000_000)
      .setExpirationTime(1_600_000_600)
      .sign(idpKey),
    await idpToken(claims, { kid: 'unknown-kid' }),
    await idpToken(claims, { key: attackerKey, kid: 'idp-1' }),
    // The JWKS URL comes from configuration only: a token pointing at the attacker's keys is refused.
    await idpToken(claims, { key: attackerKey, kid: 'evil-1', header: { jku: `http://127.0.0.1:${port}/evil-jwks`, jwk: attackerJwk } }),
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'idp-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('shared-secret-guess-000000000000')),
  ];
  for (const token of refused) {
    const res = await me(token);
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
  }
});

test('the service does not issue or accept its own tokens in this mode; API keys still work', async () => {
  const c = await createClient(t.db, { name: 'local', plan: 'full' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: AUDIENCE },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().error, 'invalid_request');
  assert.match(res.json().error_description, /idp\.example\.com/);
  const ownKey = await currentSigningKey(t.db);
  const ownToken = await new SignJWT({ client_id: c.clientId })
    .setProtectedHeader({ alg: 'ES256', kid: ownKey.kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setSubject(c.clientId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti('j')
    .sign(ownKey.privateKey);
  assert.equal((await me(ownToken)).statusCode, 401);
  const key = await createApiKey(t.db, c.clientId);
  const viaKey = await t.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-api-key': key.apiKey } });
  assert.equal(viaKey.statusCode, 200);
});

test('an unreachable provider JWKS fails closed (503), never open', async () => {
  const down = await createTestApp({ env: { AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: `http://127.0.0.1:${port}/missing-jwks`, AUTH_AUDIENCE: AUDIENCE } });
  try {
    await createClient(down.db, { name: 'x', plan: 'full', externalId: 'x' });
    const res = await down.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${await idpToken({ azp: 'x', sub: 'x' })}` } });
    assert.equal(res.statusCode, 503);
    assert.match(res.json().message, /AUTH_JWKS_URL/);
  } finally {
    await down.close();
  }
});
