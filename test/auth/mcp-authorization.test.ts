// Authorization of /mcp per the MCP spec: protected-resource metadata (RFC 9728) at both
// addresses, the authorization-server metadata (RFC 8414), the WWW-Authenticate challenge
// of every 401, the RFC 8707 `resource` parameter of the token endpoint and audience-bound
// tokens (an MCP token is refused by REST and a REST token by /mcp), and the external
// identity provider named by the metadata and holding tokens to the MCP audience.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { createClient } from '../../src/auth/clients.ts';
import { listenInRange, listenServer } from '../helpers/ports.ts';

const API = 'http://stacklens.test';
const MCP = 'http://stacklens.test/mcp';
const METADATA = 'http://stacklens.test/.well-known/oauth-protected-resource/mcp';

const initBody = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const mcpHeaders = { host: 'stacklens.test', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('built-in authorization server', () => {
  let t: TestApp;
  let c: TestClient;
  before(async () => {
    t = await createTestApp();
    c = await createTestClient(t.db, 'full');
  });
  after(() => t.close());

  const token = (params: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, ...params },
    });
  const mcpPost = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/mcp', headers: { ...mcpHeaders, ...headers }, payload: initBody });

  test('protected-resource metadata at the path-suffixed and the root address', async () => {
    for (const url of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(res.json(), {
        resource: MCP,
        authorization_servers: [API],
        bearer_methods_supported: ['header'],
        scopes_supported: ['read', 'write'],
        resource_name: 'Stacklens MCP server',
        resource_documentation: `${API}/docs`,
      });
      assert.match(String(res.headers['cache-control']), /max-age=300/);
    }
    const extra = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp?x=1' });
    assert.equal(extra.statusCode, 400);
  });

  test('authorization-server metadata (RFC 8414) names the token endpoint of the issuer the resource metadata names', async () => {
    const prm = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' })).json();
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    assert.equal(res.statusCode, 200);
    const as = res.json();
    assert.equal(as.issuer, prm.authorization_servers[0]);
    assert.equal(as.token_endpoint, `${API}/oauth/token`);
    assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token', 'client_credentials']);
    assert.equal(as.authorization_endpoint, `${API}/oauth/authorize`);
  });

  test('every 401 of /mcp names the metadata; an error code only when credentials were sent', async () => {
    const none = await mcpPost({});
    assert.equal(none.statusCode, 401);
    assert.equal(none.headers['www-authenticate'], `Bearer resource_metadata="${METADATA}"`);
    const badKey = await mcpPost({ 'x-api-key': 'sl_nope' });
    assert.equal(badKey.statusCode, 401);
    assert.equal(badKey.headers['www-authenticate'], `Bearer resource_metadata="${METADATA}"`);
    const badToken = await mcpPost({ authorization: 'Bearer a.b.c' });
    assert.equal(badToken.statusCode, 401);
    assert.match(
      String(badToken.headers['www-authenticate']),
      new RegExp(`^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${METADATA}"$`),
    );
    const malformed = await mcpPost({ authorization: 'Digest abc' });
    assert.equal(malformed.statusCode, 401);
    assert.match(String(malformed.headers['www-authenticate']), /^Bearer error="invalid_request", .*resource_metadata=/);
    // REST: no credentials → a challenge without an error code too.
    const rest = await t.app.inject({ method: 'GET', url: '/api/me' });
    assert.equal(rest.headers['www-authenticate'], 'Bearer realm="stacklens"');
  });

  test('the resource parameter (RFC 8707) names the audience; tokens work only there', async () => {
    const forMcp = await token({ resource: MCP });
    assert.equal(forMcp.statusCode, 200, forMcp.body);
    const mcpToken = forMcp.json().access_token;
    assert.equal(decodeJwt(mcpToken).aud, MCP);
    const forApi = await token({ audience: API });
    const apiToken = forApi.json().access_token;
    assert.equal(decodeJwt(apiToken).aud, API);
    assert.equal(decodeJwt((await token({ resource: API })).json().access_token).aud, API, 'resource may name the API too');
    assert.equal(decodeJwt((await token({ audience: MCP, resource: MCP })).json().access_token).aud, MCP);

    assert.equal((await mcpPost({ authorization: `Bearer ${mcpToken}` })).statusCode, 200);
    const restOnMcp = await mcpPost({ authorization: `Bearer ${apiToken}` });
    assert.equal(restOnMcp.statusCode, 401);
    assert.match(restOnMcp.json().error.message, /'aud' claim/);
    assert.match(String(restOnMcp.headers['www-authenticate']), /error="invalid_token"/);

    const me = (tok: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tok}` } });
    assert.equal((await me(apiToken)).statusCode, 200);
    const mcpOnRest = await me(mcpToken);
    assert.equal(mcpOnRest.statusCode, 401);
    assert.match(mcpOnRest.json().message, /'aud' claim/);
  });

  test('unknown or conflicting targets are invalid_target; neither is invalid_request', async () => {
    for (const params of [{ resource: 'https://other.example/mcp' }, { resource: `${MCP}/` }, { audience: API, resource: MCP }] as Record<string, string>[]) {
      const res = await token(params);
      assert.equal(res.statusCode, 400, JSON.stringify(params));
      assert.equal(res.json().error, 'invalid_target');
    }
    const neither = await token({});
    assert.equal(neither.statusCode, 400);
    assert.equal(neither.json().error, 'invalid_request');
    assert.match(neither.json().error_description, /'audience' \(or 'resource', RFC 8707\)/);
  });

  test('an SDK client connects over HTTP with a token for the MCP resource', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const mcpToken = (await token({ resource: MCP })).json().access_token;
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${mcpToken}` } } }));
    assert.ok((await client.listTools()).tools.length > 0);
    await client.close();
  });
});

describe('external identity provider', () => {
  const ISSUER = 'https://idp.example.com/';
  const AUDIENCE = 'https://api.stacklens.example';
  let t: TestApp;
  let server: http.Server;
  let key: CryptoKey;

  before(async () => {
    const pair = await generateKeyPair('RS256');
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' };
    server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    const port = await listenInRange((p) => listenServer(server, p));
    t = await createTestApp({ env: { AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`, AUTH_AUDIENCE: AUDIENCE } });
    await createClient(t.db, { name: 'idp-app', plan: 'full', externalId: 'idp-app' });
  });
  after(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  const idpToken = (aud: string) =>
    new SignJWT({ azp: 'idp-app' })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-1' })
      .setIssuer(ISSUER)
      .setSubject('idp-app')
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  test('the metadata names the identity provider as the authorization server', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' });
    assert.deepEqual(res.json().authorization_servers, [ISSUER]);
    assert.equal(res.json().resource, MCP);
  });

  test('/mcp takes provider tokens for the MCP resource; REST keeps AUTH_AUDIENCE', async () => {
    const mcp = (tok: string) => t.app.inject({ method: 'POST', url: '/mcp', headers: { ...mcpHeaders, authorization: `Bearer ${tok}` }, payload: initBody });
    const me = (tok: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tok}` } });
    const forMcp = await idpToken(MCP);
    const forApi = await idpToken(AUDIENCE);
    assert.equal((await mcp(forMcp)).statusCode, 200);
    const refused = await mcp(forApi);
    assert.equal(refused.statusCode, 401);
    assert.match(String(refused.headers['www-authenticate']), new RegExp(`error="invalid_token".*resource_metadata="${METADATA}"`));
    assert.equal((await me(forApi)).statusCode, 200);
    assert.equal((await me(forMcp)).statusCode, 401);
  });
});
