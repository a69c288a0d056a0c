// A standard OAuth client library (openid-client v6) discovers the server metadata and
// obtains a token from the listening service, with client_secret_basic and _post.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { freePortInRange } from '../helpers/ports.ts';

let t: TestApp;
let c: TestClient;
let origin: string;
before(async () => {
  const port = await freePortInRange();
  origin = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { PUBLIC_URL: origin } });
  await t.app.listen({ host: '127.0.0.1', port });
  c = await createTestClient(t.db, 'full');
});
after(() => t.close());

for (const [name, auth] of [
  ['client_secret_basic', () => oidc.ClientSecretBasic(c.clientSecret)],
  ['client_secret_post', () => oidc.ClientSecretPost(c.clientSecret)],
] as const) {
  test(`openid-client discovery + clientCredentialsGrant (${name}); the token calls the API`, async () => {
    const config = await oidc.discovery(new URL(origin), c.clientId, undefined, auth(), {
      algorithm: 'oauth2', // RFC 8414 metadata at /.well-known/oauth-authorization-server
      execute: [oidc.allowInsecureRequests], // plain http on 127.0.0.1 in this test only
    });
    assert.equal(config.serverMetadata().token_endpoint, `${origin}/oauth/token`);
    const tokens = await oidc.clientCredentialsGrant(config, { audience: origin });
    assert.equal(tokens.token_type, 'bearer'); // the library lower-cases it
    assert.ok(tokens.expires_in! > 0 && tokens.expires_in! <= 3600);
    const res = await fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { clientId: string }).clientId, c.clientId);
  });
}

test('openid-client surfaces refusals: invalid_client (post), the Basic challenge (basic), invalid_target', async () => {
  const opts = { algorithm: 'oauth2' as const, execute: [oidc.allowInsecureRequests] };
  const post = await oidc.discovery(new URL(origin), c.clientId, undefined, oidc.ClientSecretPost('wrong'), opts);
  await assert.rejects(oidc.clientCredentialsGrant(post, { audience: origin }), (err: any) => err.error === 'invalid_client' && err.status === 401);
  // With Basic, the 401 carries WWW-Authenticate (RFC 6749 §5.2), which the library reports as a challenge.
  const basic = await oidc.discovery(new URL(origin), c.clientId, undefined, oidc.ClientSecretBasic('wrong'), opts);
  await assert.rejects(oidc.clientCredentialsGrant(basic, { audience: origin }), (err: any) => err.status === 401 && err.cause?.[0]?.scheme === 'basic');
  const good = await oidc.discovery(new URL(origin), c.clientId, undefined, oidc.ClientSecretBasic(c.clientSecret), opts);
  await assert.rejects(oidc.clientCredentialsGrant(good, { audience: 'https://elsewhere.example' }), (err: any) => err.error === 'invalid_target');
});
