// The input rules, one test per rule, on the real app: the character rule and
// length caps of text, ids by shape, enum names that are prototype keys, repeated credential
// headers (REST and /mcp), 413/414/431 in the service's error shape (also through a real
// socket, where Node's parser answers), 405 with Allow, and undocumented query parameters.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { listenInRange } from '../helpers/ports.ts';
import { MAX_HEADERS_BYTES, MAX_REQUEST_HEAD_BYTES, MAX_URL_LENGTH } from '../../src/http/request-limits.ts';

let t: TestApp;
let full: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
});
after(() => t.close());

const ERROR_KEYS = ['error', 'message', 'path', 'requestId', 'status'];
const onBehalf = { 'x-on-behalf-of-user': 'analyst@example.com' };

function assertErrorShape(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, message?: RegExp) {
  assert.equal(res.statusCode, status);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ERROR_KEYS);
  assert.equal(body.status, status);
  assert.equal(body.requestId, res.headers['x-request-id']);
  if (message) assert.match(body.message, message);
}

test('text with a control character or a lone surrogate is a 400 naming the field and the rule (query, path, body, prompts)', async () => {
  // In a URL (which carries UTF-8, so no lone surrogate) and in JSON bodies (which can).
  for (const value of ['a\u0000b', 'x\u0001', '\u007f', 'x\u0085']) {
    for (const res of [
      await t.app.inject({ url: `/api/vendors?vendor=${encodeURIComponent(value)}`, headers: full.headers }),
      await t.app.inject({
        method: 'POST',
        url: `/api/ai/find-people-profiles?prompt=${encodeURIComponent(value)}`,
        headers: { ...full.headers, ...onBehalf },
      }),
    ])
      assertErrorShape(res, 400, /^query\.(vendor|prompt): must not contain control characters/);
  }
  for (const value of ['a\u0000b', 'x\u0001', 'x\ud800y', '\udc00']) {
    assertErrorShape(
      await t.app.inject({ method: 'POST', url: '/api/profiles/search', headers: full.headers, payload: { titles: [value] } }),
      400,
      /^body\.titles\.0: must not contain control characters .* or unpaired surrogates/,
    );
    assertErrorShape(
      await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: full.headers, payload: { filter: { companyNameContains: value } } }),
      400,
      /^body\.filter\.companyNameContains: must not contain control characters/,
    );
  }
  // Tab and line breaks are text in a prompt, not in a name.
  const prompt = await t.app.inject({
    method: 'POST',
    url: `/api/ai/find-people-profiles?prompt=${encodeURIComponent('CTOs\nin Germany')}`,
    headers: { ...full.headers, ...onBehalf },
  });
  assert.notEqual(prompt.statusCode, 400, prompt.body);
  assert.ok(prompt.statusCode < 500);
  // The token endpoint, unauthenticated: U+0000 is an invalid_request, never a 500.
  for (const payload of [
    { grant_type: 'client_credentials', client_id: 'a\u0000', client_secret: 'b', audience: 'http://stacklens.test' },
    { grant_type: 'client_credentials\u0000', audience: 'x' },
  ]) {
    const res = await t.app.inject({ method: 'POST', url: '/oauth/token', payload });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_request');
    assert.match(res.json().error_description, /must not contain control characters/);
  }
});

test('ids are validated by shape: a 10 KB or spaced id is a 400, not a lookup', async () => {
  for (const url of [`/api/categories/${'c'.repeat(129)}`, '/api/categories/cat%20crm', '/api/profiles/per_001%27']) {
    assertErrorShape(await t.app.inject({ url, headers: full.headers }), 400, /must be an id/);
  }
  const body = await t.app.inject({
    method: 'POST',
    url: '/api/profiles/purchase',
    headers: { ...full.headers, ...onBehalf },
    payload: { profileIds: ['p'.repeat(10_240)] },
  });
  assertErrorShape(body, 400, /profileIds\.0: must be an id/);
});

test('prototype keys are not enum values (cohort names)', async () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const res = await t.app.inject({ url: `/api/companies/example.com/cohort/${name}`, headers: full.headers });
    assertErrorShape(res, 400, /cohort must be one of Default, Defined, Aspirational/);
  }
});

test('a repeated Authorization or X-API-Key header is a 400, on REST and on /mcp', async () => {
  const repeated = [
    { 'x-api-key': [full.apiKey, full.apiKey] },
    { 'x-api-key': [full.apiKey, 'other'] },
    { authorization: [`API-Key ${full.apiKey}`, `API-Key ${full.apiKey}`] },
  ] as unknown as Record<string, string>[];
  for (const headers of repeated) {
    assertErrorShape(await t.app.inject({ url: '/api/me', headers }), 400, /sent 2 times/);
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    assert.equal(mcp.statusCode, 400);
    assert.match(mcp.json().error.message, /sent 2 times/);
  }
  // One credential of each kind, once each, is still fine.
  assert.equal((await t.app.inject({ url: '/api/me', headers: full.headers })).statusCode, 200);
});

test('an oversized body is a 413 in the service error shape on every route, the token endpoint included', async () => {
  const big = JSON.stringify({ query: 'x'.repeat(t.config.bodyLimitBytes) });
  for (const url of ['/api/companies/search', '/api/profiles/search', '/api/profiles/purchase', '/api/companies/example.com/products-in-use', '/mcp']) {
    const res = await t.app.inject({ method: 'POST', url, headers: { ...full.headers, ...onBehalf, 'content-type': 'application/json' }, payload: big });
    assertErrorShape(res, 413);
  }
  const token = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=${'x'.repeat(20_000)}`,
  });
  assertErrorShape(token, 413, /OAuth endpoints' limit of \d+ bytes/);
});

test('a long URL is a 414, too many header bytes a 431, both in the service error shape with a request id', async () => {
  assertErrorShape(await t.app.inject({ url: `/api/vendors?vendor=${'x'.repeat(MAX_URL_LENGTH)}`, headers: full.headers }), 414, /URL is \d+ characters long/);
  assertErrorShape(await t.app.inject({ url: `/api/profiles/${'x'.repeat(501)}`, headers: full.headers }), 414, /path parameter/);
  assertErrorShape(
    await t.app.inject({ url: '/api/me', headers: { ...full.headers, 'x-filler': 'x'.repeat(MAX_HEADERS_BYTES) } }),
    431,
    /headers take \d+ bytes/,
  );
});

test('through a real socket: a 64 KB URL is a 414 and a header overflow a 431, in the service error shape (past the parser limit of Node, 431)', async () => {
  const port = await listenInRange((p) => t.app.listen({ port: p, host: '127.0.0.1' }));
  const raw = (request: string) =>
    new Promise<{ status: number; headers: string; body: any }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head, body] = [out.slice(0, out.indexOf('\r\n\r\n')), out.slice(out.indexOf('\r\n\r\n') + 4)];
        resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) });
      });
      socket.end(request);
    });
  const check = (res: { status: number; headers: string; body: any }, status: number) => {
    assert.equal(res.status, status);
    assert.equal(res.body.status, status);
    assert.match(res.headers, new RegExp(`x-request-id: ${res.body.requestId}`));
    assert.ok(typeof res.body.message === 'string' && typeof res.body.error === 'string');
  };
  check(await raw(`GET /api/vendors?vendor=${'x'.repeat(64 * 1024)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`), 414);
  check(await raw(`GET /api/me HTTP/1.1\r\nHost: a\r\nX-Filler: ${'x'.repeat(20_000)}\r\nConnection: close\r\n\r\n`), 431);
  // Past Node's own parser limit (request line and headers together) nothing reaches Fastify;
  // the reply is written on the socket: 431 whichever part overflowed.
  check(await raw(`GET /api/vendors?vendor=${'x'.repeat(MAX_REQUEST_HEAD_BYTES + 10)} HTTP/1.1\r\nHost: a\r\n\r\n`), 431);
  check(await raw(`GET /api/me HTTP/1.1\r\nHost: a\r\n${Array.from({ length: 200 }, (_, i) => `X-F${i}: ${'x'.repeat(1000)}\r\n`).join('')}\r\n`), 431);
});

test('a method a known path does not serve is a 405 with Allow; an unknown path stays a 404', async () => {
  for (const [method, url, allow] of [
    ['DELETE', '/api/me', 'GET, HEAD'],
    ['GET', '/api/companies/search', 'POST'],
    ['PUT', '/api/companies/example.com/products', 'GET, HEAD'],
    ['PATCH', '/oauth/token', 'POST'],
  ] as const) {
    const res = await t.app.inject({ method, url, headers: full.headers });
    assertErrorShape(res, 405, new RegExp(`${method} is not allowed`));
    assert.equal(res.headers.allow, allow);
  }
  assertErrorShape(await t.app.inject({ url: '/api/nothing-here', headers: full.headers }), 404);
});

test('an undocumented query parameter is a 400 naming it, on every kind of operation', async () => {
  for (const [method, url] of [
    ['GET', '/api/me'],
    ['GET', '/api/vendors?vendor=x'],
    ['GET', '/api/industries'],
    ['POST', '/api/companies/search'],
    ['GET', '/.well-known/jwks.json'],
  ] as const) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await t.app.inject({ method, url: `${url}${sep}apiKey=1`, headers: full.headers, ...(method === 'POST' ? { payload: {} } : {}) });
    assertErrorShape(res, 400, /query: Unrecognized key: "apiKey"/);
  }
  const token = await t.app.inject({ method: 'POST', url: '/oauth/token?client_secret=x', payload: { grant_type: 'client_credentials', audience: 'x' } });
  assert.equal(token.statusCode, 400);
  assert.match(token.json().error_description, /Unknown query parameter 'client_secret'/);
});

test('the AI routes audit calls whose prompts hold quotes, LIKE wildcards, emoji and SQL', async () => {
  for (const prompt of ["CTO' OR '1'='1 in %_\\ 😀", "Companies using 'Salesforce'; DROP TABLE audit_log; --"]) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/ai/find-customers-of-products?prompt=${encodeURIComponent(prompt)}`,
      headers: { ...full.headers, ...onBehalf },
    });
    assert.ok(res.statusCode < 500, res.body);
  }
  const rows = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'ai.%'");
  assert.ok(rows[0]!.n >= 2, `${rows[0]!.n} audit rows`);
});

test('the MCP door applies the same text and id rules (the tools share the schemas)', async () => {
  const { connectMcp } = await import('../helpers/mcp.ts');
  const { client } = await connectMcp(t, 'full', undefined, 'analyst@example.com');
  // An invalid argument is refused before the tool runs, as an isError result naming it.
  const failure = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }).then(
      (res) => JSON.stringify(res),
      (err: Error) => err.message,
    );
  assert.match(await failure('vendors_search', { vendor: 'a\u0000b' }), /vendor: must not contain control characters/);
  assert.match(await failure('profiles_search', { titles: ['x\ud800'] }), /titles\.0: must not contain control characters .* or unpaired surrogates/);
  assert.match(await failure('profile_get', { profileId: 'p'.repeat(10_240) }), /profileId: must be an id/);
});
