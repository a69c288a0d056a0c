import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.ts';

test('defaults: 127.0.0.1:8080, ./data, PGlite, audience = public origin', () => {
  const c = loadConfig({});
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8080);
  assert.equal(c.dataDir, './data');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.publicUrl, 'http://127.0.0.1:8080');
  assert.equal(c.auth.audience, 'http://127.0.0.1:8080');
  assert.equal(c.auth.issuer, 'http://127.0.0.1:8080');
  assert.equal(c.auth.tokenTtlSeconds, 3600);
  assert.equal(c.auth.external, undefined);
});

test('PUBLIC_URL drives issuer and audience unless they are set', () => {
  const c = loadConfig({ PUBLIC_URL: 'https://api.example.com/', API_AUDIENCE: 'https://api.example.com/api' });
  assert.equal(c.publicUrl, 'https://api.example.com');
  assert.equal(c.auth.issuer, 'https://api.example.com');
  assert.equal(c.auth.audience, 'https://api.example.com/api');
});

test('bad values fail at boot naming each variable', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty', TOKEN_TTL_SECONDS: '5' }), (err: unknown) => {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /PORT/);
    assert.match(err.message, /TOKEN_TTL_SECONDS/);
    return true;
  });
});

test('external identity provider settings come as a set of three', () => {
  assert.throws(() => loadConfig({ AUTH_ISSUER: 'https://idp.example.com/' }), /must be set together/);
  const c = loadConfig({ AUTH_ISSUER: 'https://idp', AUTH_JWKS_URL: 'https://idp/jwks', AUTH_AUDIENCE: 'api' });
  assert.deepEqual(c.auth.external, { issuer: 'https://idp', jwksUrl: 'https://idp/jwks', audience: 'api' });
});
