// Sign-in for people over OAuth 2.1, driven over HTTP (app.inject) with a console session as
// the browser's: dynamic registration and its limits, the authorization request's checks
// (exact redirect URI, PKCE S256 only, scopes, resource), consent (CSRF, deny), the code's
// single use, PKCE at the exchange, refresh rotation and reuse detection, revocation, the
// token's audience on /mcp and /api, and the person's role and scopes on MCP tools and REST.
// The whole flow with the MCP SDK's own OAuth client and a browser: people-oauth.browser.test.ts.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../../src/services/console-users.ts';
import { setClock } from '../../src/clock.ts';

const API = 'http://stacklens.test';
const MCP = 'http://stacklens.test/mcp';
const REDIRECT = 'http://127.0.0.1:7799/callback';
const PASSWORD = 'oauth-test-password-1';
const people = { viewer: 'vi@example.com', analyst: 'an@example.com' } as const;
const mcpHeaders = { host: 'stacklens.test', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('sign-in for people (authorization code + PKCE)', () => {
  let t: TestApp;
  const cookies: Record<string, string> = {};
  let clientId: string;

  before(async () => {
    t = await createTestApp({ env: { OAUTH_MAX_CLIENTS: '5', OAUTH_REGISTRATIONS_PER_HOUR: '4' } });
    for (const [role, email] of Object.entries(people)) {
      await createUser(t.db, { email, name: role, role: role as 'viewer', password: PASSWORD });
      const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password: PASSWORD } });
      assert.equal(res.statusCode, 200);
      cookies[role] = String(res.headers['set-cookie']).split(';')[0]!;
    }
    clientId = (await register({ client_name: 'Test Agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).json().client_id;
  });
  after(() => t.close());

  function register(body: unknown, ip = '10.9.0.1') {
    return t.app.inject({ method: 'POST', url: '/oauth/register', payload: body as object, remoteAddress: ip });
  }

  const authorizeQuery = (challenge: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-1',
      resource: MCP,
      ...extra,
    }).toString();

  /** The consent screen as the signed-in person sees it, and its form fields. */
  async function consent(role: keyof typeof people, query: string) {
    const res = await t.app.inject({ method: 'GET', url: `/oauth/authorize?${query}`, headers: { cookie: cookies[role]! } });
    const fields: Record<string, string> = {};
    for (const m of res.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&amp;/g, '&');
    return { res, fields };
  }

  async function decide(role: keyof typeof people, fields: Record<string, string>, decision: string, cookie = cookies[role]!) {
    return t.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields, decision }).toString(),
    });
  }

  /** A code for the person, through the consent screen. */
  async function codeFor(role: keyof typeof people, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const { res, fields } = await consent(role, authorizeQuery(challenge, extra));
    assert.equal(res.statusCode, 200, res.body);
    const allowed = await decide(role, fields, 'allow');
    assert.equal(allowed.statusCode, 302);
    const location = new URL(String(allowed.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.equal(location.searchParams.get('state'), 'st-1');
    assert.equal(location.searchParams.get('iss'), API);
    return { code: location.searchParams.get('code')!, verifier };
  }

  const token = (params: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams({ client_id: clientId, ...params }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, ...extra });

  async function signIn(role: keyof typeof people, extra: Record<string, string> = {}) {
    const { code, verifier } = await codeFor(role, extra);
    const res = await exchange(code, verifier);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { access_token: string; refresh_token: string; scope: string; expires_in: number };
  }

  /** A tools/call in a fresh MCP session; the initialize's answer when that is refused (401). */
  async function callTool(accessToken: string, name: string, args: Record<string, unknown>) {
    const headers = { ...mcpHeaders, authorization: `Bearer ${accessToken}` };
    const init = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers,
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    });
    if (init.statusCode !== 200) return init;
    const session = { ...headers, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    await t.app.inject({ method: 'POST', url: '/mcp', headers: session, payload: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    return t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: session,
      payload: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } },
    });
  }
  const toolResult = (res: { statusCode: number; body: string }) => {
    if (process.env.DEBUG_OAUTH) console.log(res.statusCode, res.body.slice(0, 400));
    const line = res.body.split('\n').find((l) => l.startsWith('data: {'));
    return (line ? JSON.parse(line.slice(6)) : JSON.parse(res.body)).result as { isError?: boolean; content: { text: string }[] };
  };

  test('metadata: RFC 8414 names the endpoints, S256 and the scopes; RFC 9728 points at this issuer', async () => {
    const as = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    assert.equal(as.authorization_endpoint, `${API}/oauth/authorize`);
    assert.equal(as.registration_endpoint, `${API}/oauth/register`);
    assert.equal(as.revocation_endpoint, `${API}/oauth/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(as.response_types_supported, ['code']);
    assert.ok(as.grant_types_supported.includes('authorization_code') && as.grant_types_supported.includes('refresh_token'));
    assert.ok(as.token_endpoint_auth_methods_supported.includes('none'));
    const prm = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' })).json();
    assert.deepEqual(prm.authorization_servers, [API]);
    assert.deepEqual(prm.scopes_supported, ['read', 'write']);
  });

  test('registration: redirect URIs must be https or loopback http, without fragment; metadata fields are checked', async () => {
    for (const [uri, rule] of [
      ['http://example.com/cb', /https, or http on localhost/],
      ['https://example.com/cb#frag', /fragment/],
      ['javascript:alert(1)', /https, or http/],
      ['not a url', /absolute URL/],
      ['https://user:pw@example.com/cb', /user name or password/],
    ] as const) {
      const res = await register({ redirect_uris: [uri] }, '10.9.1.1');
      assert.equal(res.statusCode, 400, uri);
      assert.equal(res.json().error, 'invalid_redirect_uri');
      assert.match(res.json().error_description, rule);
    }
    const noUris = await register({ client_name: 'x' }, '10.9.1.2');
    assert.equal(noUris.json().error, 'invalid_redirect_uri');
    const badMethod = await register({ redirect_uris: ['https://ok.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, '10.9.1.2');
    assert.equal(badMethod.json().error, 'invalid_client_metadata');
    assert.match(badMethod.json().error_description, /token_endpoint_auth_method/);
    const ok = await register({ client_name: 'Confidential', redirect_uris: ['https://ok.example/cb', 'http://localhost:3000/cb'] }, '10.9.1.2');
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().token_endpoint_auth_method, 'client_secret_basic');
    assert.match(ok.json().client_secret, /^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.query<{ secret_hash: string }>('SELECT secret_hash FROM oauth_clients WHERE id = $1', [ok.json().client_id]);
    assert.notEqual(row!.secret_hash, ok.json().client_secret, 'only the hash is stored');
    assert.equal(row!.secret_hash.length, 64);
  });

  test('registration limits: per address per hour (429), then the maximum of clients (403)', async () => {
    const body = { redirect_uris: ['https://ok.example/cb'], token_endpoint_auth_method: 'none' };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await register(body, '10.9.2.1')).statusCode);
    assert.deepEqual(
      statuses.slice(0, 4).every((s) => s === 201 || s === 403),
      true,
    );
    const limited = await register(body, '10.9.2.1');
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    // The table now holds its maximum (5: the test client, the confidential one, these).
    const full = await register(body, '10.9.2.2');
    assert.equal(full.statusCode, 403);
    assert.match(full.json().error_description, /limit of 5 registered OAuth clients/);
  });

  test('authorization request: unknown client or unregistered redirect URI is shown, never redirected', async () => {
    const { challenge } = pkce();
    const wrongRedirect = await consent('analyst', authorizeQuery(challenge, { redirect_uri: 'http://127.0.0.1:7799/other' }));
    assert.equal(wrongRedirect.res.statusCode, 400);
    assert.equal(wrongRedirect.res.headers.location, undefined);
    assert.match(wrongRedirect.res.body, /exact match required/);
    const unknownClient = await consent('analyst', authorizeQuery(challenge, { client_id: 'oac_nobody' }));
    assert.equal(unknownClient.res.statusCode, 400);
    assert.match(unknownClient.res.body, /not registered/);
  });

  test('authorization request: plain PKCE, no PKCE, a bad scope or a foreign resource go back to the client as errors', async () => {
    const { challenge } = pkce();
    for (const [extra, error, rule] of [
      [{ code_challenge_method: 'plain' }, 'invalid_request', /S256/],
      [{ code_challenge_method: '' }, 'invalid_request', /absent means plain/],
      [{ code_challenge: '' }, 'invalid_request', /PKCE is required/],
      [{ scope: 'read admin' }, 'invalid_scope', /'admin' is not offered/],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target', /resource/],
      [{ response_type: 'token' }, 'unsupported_response_type', /code/],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/oauth/authorize?${authorizeQuery(challenge, extra)}`, headers: { cookie: cookies.analyst! } });
      assert.equal(res.statusCode, 302, JSON.stringify(extra));
      const location = new URL(String(res.headers.location));
      assert.equal(location.searchParams.get('error'), error);
      assert.match(location.searchParams.get('error_description')!, rule);
      assert.equal(location.searchParams.get('state'), 'st-1');
    }
  });

  test('not signed in: the browser goes to the console sign-in, which comes back to the same request', async () => {
    const query = authorizeQuery(pkce().challenge);
    const res = await t.app.inject({ method: 'GET', url: `/oauth/authorize?${query}` });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, `/console?continue=${encodeURIComponent(`/oauth/authorize?${query}`)}`);
  });

  test('consent: names the client and scopes; a post without the CSRF token is refused; deny sends access_denied', async () => {
    const { res, fields } = await consent('analyst', authorizeQuery(pkce().challenge));
    assert.match(res.body, /Allow <span id="client-name">Test Agent<\/span>/);
    assert.match(res.body, /<strong>read<\/strong>/);
    assert.match(res.body, /<strong>write<\/strong>/);
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(String(res.headers['content-security-policy']), /form-action 'self' http:\/\/127\.0\.0\.1:7799/);
    const { csrf_token: _csrf, ...withoutCsrf } = fields;
    const forged = await decide('analyst', withoutCsrf, 'allow');
    assert.equal(forged.statusCode, 403);
    assert.equal(forged.headers.location, undefined);
    const otherPerson = await decide('analyst', fields, 'allow', cookies.viewer);
    assert.equal(otherPerson.statusCode, 403, "another person's session cannot use this form");
    const denied = await decide('analyst', fields, 'deny');
    assert.equal(denied.statusCode, 302);
    const location = new URL(String(denied.headers.location));
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('code'), null);
  });

  test('the code: PKCE verifier must match, redirect_uri must match, single use (a second use revokes the first grant)', async () => {
    const first = await codeFor('analyst');
    const wrongVerifier = await exchange(first.code, pkce().verifier);
    assert.equal(wrongVerifier.statusCode, 400);
    assert.equal(wrongVerifier.json().error, 'invalid_grant');
    assert.match(wrongVerifier.json().error_description, /code_verifier does not match/);
    // A refused exchange spent the code all the same: one attempt per code.
    assert.match((await exchange(first.code, first.verifier)).json().error_description, /used already/);

    const second = await codeFor('analyst');
    assert.match((await exchange(second.code, second.verifier, { redirect_uri: 'http://127.0.0.1:7799/x' })).json().error_description, /redirect_uri differs/);

    const third = await codeFor('analyst');
    const ok = await exchange(third.code, third.verifier);
    assert.equal(ok.statusCode, 200);
    const tokens = ok.json();
    const claims = decodeJwt(tokens.access_token);
    assert.equal(claims.aud, MCP);
    assert.equal(claims.client_id, clientId);
    assert.match(String(claims.sub), /^usr_/);
    assert.equal(tokens.scope, 'read write');
    assert.equal(toolResult(await callTool(tokens.access_token, 'credits_balance', {})).isError, undefined);
    const reused = await exchange(third.code, third.verifier);
    assert.equal(reused.json().error, 'invalid_grant');
    const after = await callTool(tokens.access_token, 'credits_balance', {});
    assert.equal(after.statusCode, 401, 'the grant of the reused code is revoked');
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(refreshed.json().error, 'invalid_grant');
  });

  test('an expired code is refused', async () => {
    const { code, verifier } = await codeFor('analyst');
    setClock(() => Date.now() + 61_000);
    try {
      assert.match((await exchange(code, verifier)).json().error_description, /expired/);
    } finally {
      setClock();
    }
  });

  test('codes and refresh tokens are stored as hashes only', async () => {
    const { code, verifier } = await codeFor('analyst');
    const tokens = (await exchange(code, verifier)).json();
    const codes = await t.db.query('SELECT 1 FROM oauth_codes WHERE code_hash = $1', [code]);
    assert.equal(codes.length, 0);
    const hashed = await t.db.query('SELECT 1 FROM oauth_codes WHERE code_hash = $1', [createHash('sha256').update(code).digest('hex')]);
    assert.equal(hashed.length, 1);
    assert.equal((await t.db.query('SELECT 1 FROM oauth_refresh_tokens WHERE token_hash = $1', [tokens.refresh_token])).length, 0);
  });

  test('refresh: rotates; the old refresh token sent again revokes the whole grant', async () => {
    const first = await signIn('analyst');
    const r1 = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.equal(r1.statusCode, 200, r1.body);
    const second = r1.json();
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(toolResult(await callTool(second.access_token, 'credits_balance', {})).isError, undefined);
    const narrowed = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, scope: 'read' });
    assert.equal(narrowed.json().scope, 'read');
    const widen = await token({ grant_type: 'refresh_token', refresh_token: narrowed.json().refresh_token, scope: 'read write admin' });
    assert.equal(widen.json().error, 'invalid_scope');

    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.equal(reuse.statusCode, 400);
    assert.match(reuse.json().error_description, /used already: the sign-in is revoked/);
    assert.equal((await callTool(second.access_token, 'credits_balance', {})).statusCode, 401, 'access tokens of the family die too');
    const latest = await token({ grant_type: 'refresh_token', refresh_token: widen.json().refresh_token ?? narrowed.json().refresh_token });
    assert.equal(latest.json().error, 'invalid_grant', 'the newest refresh token of the family is revoked as well');
  });

  test('revocation (RFC 7009): a refresh token or an access token ends the sign-in; unknown tokens answer 200', async () => {
    const a = await signIn('analyst');
    const form = (params: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(params).toString(),
      });
    assert.equal((await form({ client_id: clientId, token: 'nothing-of-ours' })).statusCode, 200);
    assert.equal((await form({ token: a.refresh_token })).statusCode, 401, 'the client must identify itself');
    assert.equal((await form({ client_id: clientId, token: a.refresh_token })).statusCode, 200);
    assert.equal((await callTool(a.access_token, 'credits_balance', {})).statusCode, 401);
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: a.refresh_token })).json().error, 'invalid_grant');

    const b = await signIn('analyst');
    assert.equal((await form({ client_id: clientId, token: b.access_token, token_type_hint: 'access_token' })).statusCode, 200);
    assert.equal((await callTool(b.access_token, 'credits_balance', {})).statusCode, 401);
  });

  test('audience: a token for /mcp is refused by /api and one for /api by /mcp', async () => {
    const mcpToken = (await signIn('analyst')).access_token;
    const onApi = await t.app.inject({ method: 'GET', url: '/api/credits', headers: { authorization: `Bearer ${mcpToken}` } });
    assert.equal(onApi.statusCode, 401);
    const apiToken = (await signIn('analyst', { resource: API })).access_token;
    assert.equal(decodeJwt(apiToken).aud, API);
    const onMcp = await callTool(apiToken, 'credits_balance', {});
    assert.equal(onMcp.statusCode, 401);
    assert.match(String(onMcp.headers['www-authenticate']), /invalid_token/);
    const ok = await t.app.inject({ method: 'GET', url: '/api/credits', headers: { authorization: `Bearer ${apiToken}` } });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('role: a viewer reads but may not call write tools (lists_upload, profiles_purchase); an analyst may', async () => {
    const viewer = await signIn('viewer');
    assert.equal(toolResult(await callTool(viewer.access_token, 'credits_balance', {})).isError, undefined);
    const upload = toolResult(await callTool(viewer.access_token, 'lists_upload', { name: 'Mine', rows: [{ domain: 'example.com' }] }));
    assert.equal(upload.isError, true);
    assert.match(upload.content[0]!.text, /Role 'analyst' is required for createList.*your role is 'viewer'/);
    const through = toolResult(
      await callTool(viewer.access_token, 'more_tools', { call: 'lists_upload', arguments: { name: 'Mine', rows: [{ domain: 'example.com' }] } }),
    );
    assert.equal(through.isError, true, 'a write reached through more_tools is held to the same role');
    assert.match(through.content[0]!.text, /Role 'analyst' is required for createList/);
    const purchase = toolResult(await callTool(viewer.access_token, 'profiles_purchase', { profileIds: ['prf_x'] }));
    assert.equal(purchase.isError, true);
    assert.match(purchase.content[0]!.text, /Role 'analyst' is required/);

    const analyst = await signIn('analyst');
    const uploaded = toolResult(await callTool(analyst.access_token, 'lists_upload', { name: 'Mine', rows: [{ domain: 'example.com' }] }));
    assert.equal(uploaded.isError, undefined, uploaded.content[0]?.text);
  });

  test('scope: a sign-in that granted read only may not call write tools, whatever the role', async () => {
    const readOnly = await signIn('analyst', { scope: 'read' });
    assert.equal(readOnly.scope, 'read');
    const upload = toolResult(await callTool(readOnly.access_token, 'lists_upload', { name: 'Mine', rows: [{ domain: 'example.com' }] }));
    assert.equal(upload.isError, true);
    assert.match(upload.content[0]!.text, /Scope 'write' is required/);
  });

  test("a disabled person's tokens stop working and cannot be refreshed", async () => {
    const { user } = await createUser(t.db, { email: 'gone@example.com', name: 'Gone', role: 'analyst', password: PASSWORD });
    const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'gone@example.com', password: PASSWORD } });
    cookies.gone = String(res.headers['set-cookie']).split(';')[0]!;
    const tokens = await signIn('gone' as keyof typeof people);
    await t.db.query('UPDATE console_users SET disabled_at = now() WHERE id = $1', [user.id]);
    assert.equal((await callTool(tokens.access_token, 'credits_balance', {})).statusCode, 401);
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json().error, 'invalid_grant');
  });

  test('at the limit of clients, the oldest client nobody is signed in through, registered over an hour ago, makes room', async () => {
    const body = { redirect_uris: ['https://ok.example/cb'], token_endpoint_auth_method: 'none' };
    for (let i = 0; (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_clients'))[0]!.n < 5; i++) {
      assert.equal((await register(body, `10.9.3.${i}`)).statusCode, 201);
    }
    // Everyone registered within the hour: nobody is evicted.
    assert.equal((await register(body, '10.9.4.1')).statusCode, 403);
    await signIn('analyst'); // a live grant through the test client
    const unused = await t.db.query<{ id: string }>(`SELECT id FROM oauth_clients WHERE id <> $1 ORDER BY created_at, id`, [clientId]);
    // The test client is the oldest, and each other client is an hour or more old, in turn.
    await t.db.query(`UPDATE oauth_clients SET created_at = now() - interval '1 day' WHERE id = $1`, [clientId]);
    for (const [i, c] of unused.entries()) {
      await t.db.query(`UPDATE oauth_clients SET created_at = now() - make_interval(hours => $2::int) WHERE id = $1`, [c.id, 10 - i]);
    }
    const added = await register(body, '10.9.4.2');
    assert.equal(added.statusCode, 201, added.body);
    const left = (await t.db.query<{ id: string }>('SELECT id FROM oauth_clients')).map((r) => r.id);
    assert.equal(left.length, 5);
    assert.ok(left.includes(clientId), 'a client a person is signed in through is kept');
    assert.ok(!left.includes(unused[0]!.id), 'the oldest unused client made room');
    assert.ok(left.includes(unused[1]!.id) && left.includes(added.json().client_id));
  });
});

describe('operator switch and external identity provider', () => {
  test('OAUTH_DYNAMIC_REGISTRATION=false: no registration endpoint in the metadata, registration refused', async () => {
    const t = await createTestApp({ env: { OAUTH_DYNAMIC_REGISTRATION: 'false' } });
    try {
      const as = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
      assert.equal(as.registration_endpoint, undefined);
      assert.equal(as.authorization_endpoint, `${API}/oauth/authorize`);
      const res = await t.app.inject({ method: 'POST', url: '/oauth/register', payload: { redirect_uris: ['https://ok.example/cb'] } });
      assert.equal(res.statusCode, 403);
      assert.match(res.json().error_description, /OAUTH_DYNAMIC_REGISTRATION=false/);
    } finally {
      await t.close();
    }
  });

  test('external identity provider: no sign-in endpoints here; the resource metadata names the provider', async () => {
    const t = await createTestApp({
      env: { AUTH_ISSUER: 'https://idp.example', AUTH_JWKS_URL: 'https://idp.example/jwks', AUTH_AUDIENCE: 'https://api.example' },
    });
    try {
      assert.equal((await t.app.inject({ method: 'GET', url: '/oauth/authorize?client_id=x' })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'POST', url: '/oauth/register', payload: {} })).statusCode, 404);
      const prm = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' })).json();
      assert.deepEqual(prm.authorization_servers, ['https://idp.example']);
      assert.equal(prm.scopes_supported, undefined);
    } finally {
      await t.close();
    }
  });
});
