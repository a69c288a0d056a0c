// Bearer-token verification: forged, foreign, expired and tampered tokens are 401s;
// disabled clients and rotated secrets stop tokens within the client-cache bound;
// signing-key rotation keeps earlier tokens valid.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, base64url, decodeProtectedHeader, generateKeyPair, type JWTPayload } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { setClock } from '../../src/clock.ts';
import { currentSigningKey, rotateSigningKey } from '../../src/auth/signing-keys.ts';
import { CLIENT_CACHE_MS } from '../../src/auth/client-cache.ts';
import { rotateClientSecret, setClientEnabled } from '../../src/auth/clients.ts';

const AUDIENCE = 'http://stacklens.test';
let t: TestApp;
let full: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
});
after(() => t.close());
afterEach(() => setClock());

const offset = (ms: number) => setClock(() => Date.now() + ms);

async function getToken(c: TestClient): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: AUDIENCE },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().access_token;
}

function me(token: string) {
  return t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
}

async function assertRefused(token: string, message?: RegExp) {
  const res = await me(token);
  assert.equal(res.statusCode, 401, res.body);
  assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
  assert.equal(res.json().status, 401);
  assert.equal(res.json().error, 'Unauthorized');
  if (message) assert.match(res.json().message, message);
}

/** Signs claims with the service's real signing key (to test claim checks, not signatures). */
async function signWithServiceKey(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const key = await currentSigningKey(t.db);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: full.clientId, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt', ...header } as any)
    .setIssuer(String(claims.iss ?? AUDIENCE))
    .setSubject(String(claims.sub ?? full.clientId))
    .setAudience((claims.aud as string) ?? AUDIENCE)
    .setIssuedAt(claims.iat ?? now)
    .setExpirationTime(claims.exp ?? now + 600)
    .setJti(claims.jti ?? crypto.randomUUID())
    .sign(key.privateKey);
}

test('a token signed by the service with the right claims is accepted (control case)', async () => {
  const res = await me(await signWithServiceKey({}));
  assert.equal(res.statusCode, 200, res.body);
});

test('alg "none" is refused', async () => {
  const good = await getToken(full);
  const [, payload] = good.split('.');
  const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: decodeProtectedHeader(good).kid }));
  await assertRefused(`${header}.${payload}.`);
  await assertRefused(`${header}.${payload}`);
});

test('HS256 signed with the public key (algorithm confusion) is refused', async () => {
  const good = await getToken(full);
  const kid = decodeProtectedHeader(good).kid!;
  const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
  const publicJwk = jwks.keys.find((k: { kid: string }) => k.kid === kid);
  for (const secret of [JSON.stringify(publicJwk), publicJwk.x]) {
    const forged = await new SignJWT({ client_id: full.clientId })
      .setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' })
      .setIssuer(AUDIENCE)
      .setSubject(full.clientId)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('x')
      .sign(new TextEncoder().encode(secret));
    await assertRefused(forged);
  }
});

test('wrong audience, wrong issuer, wrong typ, missing claims: refused', async () => {
  await assertRefused(await signWithServiceKey({ aud: 'https://other.example' }), /'aud' claim/);
  await assertRefused(await signWithServiceKey({ iss: 'https://evil.example' }), /'iss' claim/);
  await assertRefused(await signWithServiceKey({}, { typ: 'JWT' }), /'typ'/);
  await assertRefused(await signWithServiceKey({ client_id: undefined }));
  await assertRefused(await signWithServiceKey({ sub: 'cli_someoneelse' }), /same client/);
  await assertRefused(await signWithServiceKey({ client_id: 'cli_nobody', sub: 'cli_nobody' }), /no longer exists/);
});

test('expired tokens are refused; a few seconds of clock skew are tolerated', async () => {
  const tok = await getToken(full); // expires in 3600 s
  offset(3600_000 + 5_000);
  assert.equal((await me(tok)).statusCode, 200, 'within the clock tolerance');
  offset(3600_000 + 60_000);
  await assertRefused(tok, /expired/);
  setClock();
  const future = await signWithServiceKey({ iat: Math.floor(Date.now() / 1000) + 3600, exp: Math.floor(Date.now() / 1000) + 7200 });
  await assertRefused(future, /'iat' claim/);
});

test('a tampered payload or signature is refused', async () => {
  const other = await createTestClient(t.db, 'full');
  const good = await getToken(full);
  const [h, p, s] = good.split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  const swapped = base64url.encode(JSON.stringify({ ...claims, client_id: other.clientId, sub: other.clientId }));
  await assertRefused(`${h}.${swapped}.${s}`, /signature/);
  const longer = base64url.encode(JSON.stringify({ ...claims, exp: claims.exp + 86_400 }));
  await assertRefused(`${h}.${longer}.${s}`);
  const flipped = s!.slice(0, -2) + (s!.endsWith('AA') ? 'BB' : 'AA');
  await assertRefused(`${h}.${p}.${flipped}`);
  await assertRefused('not-a-jwt', /Malformed/);
  await assertRefused('a.b.c');
  await assertRefused(`${h}.${p}.${s}${'A'.repeat(9000)}`, /Malformed/);
});

test('an unknown kid, or a foreign key under our kid, is refused', async () => {
  const { privateKey } = await generateKeyPair('ES256');
  const sign = (kid: string) =>
    new SignJWT({ client_id: full.clientId })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
      .setIssuer(AUDIENCE)
      .setSubject(full.clientId)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('x')
      .sign(privateKey);
  await assertRefused(await sign('no-such-kid'), /unknown key/);
  await assertRefused(await sign((await currentSigningKey(t.db)).kid), /signature/);
  const noKid = await new SignJWT({ client_id: full.clientId })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
    .setIssuer(AUDIENCE)
    .setSubject(full.clientId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('10m')
    .setJti('x')
    .sign(privateKey);
  await assertRefused(noKid, /kid/);
});

test(`a disabled client's tokens are refused within the ${CLIENT_CACHE_MS / 1000} s bound, and again accepted when enabled`, async () => {
  const c = await createTestClient(t.db, 'full');
  const tok = await getToken(c);
  assert.equal((await me(tok)).statusCode, 200);
  await setClientEnabled(t.db, c.clientId, false);
  // API keys see it on the very next request...
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/me', headers: c.headers })).statusCode, 401);
  // ...tokens once the client cache entry is older than the bound.
  offset(CLIENT_CACHE_MS + 1000);
  await assertRefused(tok, /disabled/);
  await setClientEnabled(t.db, c.clientId, true);
  offset(2 * CLIENT_CACHE_MS + 2000);
  assert.equal((await me(tok)).statusCode, 200);
});

test('rotating the secret refuses earlier tokens (within the bound) and the old secret; new tokens work', async () => {
  const c = await createTestClient(t.db, 'full');
  // The client exists since a minute; its old token is from clearly before the rotation.
  await t.db.query(`UPDATE api_clients SET secret_rotated_at = now() - interval '1 minute' WHERE id = $1`, [c.clientId]);
  offset(-5000);
  const old = await getToken(c);
  setClock();
  assert.equal((await me(old)).statusCode, 200);
  const { clientSecret } = await rotateClientSecret(t.db, c.clientId);
  offset(CLIENT_CACHE_MS + 1000);
  await assertRefused(old, /rotated/);
  const refused = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: AUDIENCE },
  });
  assert.equal(refused.statusCode, 401);
  const fresh = await getToken({ ...c, clientSecret });
  assert.equal((await me(fresh)).statusCode, 200);
});

test('signing-key rotation: new tokens use the new key, earlier tokens stay valid, the JWKS publishes both', async () => {
  const before = await getToken(full);
  const oldKid = decodeProtectedHeader(before).kid;
  const rotated = await rotateSigningKey(t.db, 3600);
  assert.deepEqual(rotated.retired, [oldKid]);
  assert.equal(rotated.publishedForSeconds, 3600 + 300);
  const afterTok = await getToken(full);
  assert.equal(decodeProtectedHeader(afterTok).kid, rotated.kid);
  assert.equal((await me(before)).statusCode, 200);
  assert.equal((await me(afterTok)).statusCode, 200);
  const kids = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: { kid: string }) => k.kid);
  assert.deepEqual(kids.sort(), [oldKid, rotated.kid].sort());
});
