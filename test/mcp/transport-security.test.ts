// The /mcp transport rules over a real port, with raw HTTP (Host and Origin set freely):
// the Host/Origin allow-list (loopback names with the server's port, the public URL, the
// configured extras), batch rejection, the MCP-Protocol-Version header, the body cap,
// the Accept/Content-Type rules, the SSE priming event, session binding to its client,
// idle expiry and the per-client cap.
import { test, before, after, afterEach, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { testTool } from '../helpers/mcp.ts';
import { setClock } from '../../src/clock.ts';

const tools = [
  testTool({
    name: 'echo',
    title: 'Echo',
    description: 'Echoes a word.',
    input: z.object({ word: z.string() }),
    run: async (args) => ({ word: args.word }),
  }),
  // Holds its call in flight until the test opens the gate (a session with a request in flight is busy).
  testTool({
    name: 'wait',
    title: 'Wait',
    description: 'Answers when the test lets it.',
    input: z.object({}),
    run: async () => {
      gate.entered++;
      await gate.open;
      return { waited: true };
    },
  }),
];

const gate = { entered: 0, open: Promise.resolve(), release: () => {} };
function closeGate(): void {
  gate.entered = 0;
  gate.open = new Promise<void>((resolve) => (gate.release = resolve));
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

let t: TestApp;
let port: number;
let full: TestClient;
let other: TestClient;

/** One HTTP request to the test server, every header as given (Host included). */
function raw(method: string, headers: Record<string, string>, body?: unknown): Promise<RawAnswer> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/mcp', method, headers: { ...headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const initBody = (version = '2025-11-25') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const listBody = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

const base = (c: TestClient = full, extra: Record<string, string> = {}) => ({
  host: `127.0.0.1:${port}`,
  'x-api-key': c.apiKey,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...extra,
});

async function initialize(c: TestClient = full, version = '2025-11-25'): Promise<string> {
  const res = await raw('POST', base(c), initBody(version));
  assert.equal(res.status, 200, res.text);
  return res.headers['mcp-session-id'] as string;
}

before(async () => {
  t = await createTestApp({
    mcpTools: tools,
    env: {
      PUBLIC_URL: 'https://stacklens.example.com',
      MCP_ALLOWED_HOSTS: 'internal-lb:8443',
      MCP_ALLOWED_ORIGINS: 'https://console.example.org',
      MCP_BODY_LIMIT_BYTES: '4096',
      MCP_SESSION_TTL_SECONDS: '60',
      MCP_SSE_RETRY_MS: '1500',
    },
  });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(address).port);
  full = await createTestClient(t.db, 'full');
  other = await createTestClient(t.db, 'full');
});
after(() => t.close());
afterEach(() => setClock());

describe('Host and Origin', () => {
  test('loopback names with the server port, the public URL and configured extras are accepted', async () => {
    const accepted: [string, string | undefined][] = [
      [`127.0.0.1:${port}`, undefined],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`LOCALHOST:${port}`, undefined],
      [`[::1]:${port}`, `http://[::1]:${port}`],
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      ['stacklens.example.com', 'https://stacklens.example.com'],
      ['stacklens.example.com:443', undefined],
      ['internal-lb:8443', 'https://console.example.org'],
    ];
    for (const [host, origin] of accepted) {
      const res = await raw('POST', { ...base(), host, ...(origin ? { origin } : {}) }, initBody());
      assert.equal(res.status, 200, `Host ${host}, Origin ${origin}: ${res.text}`);
    }
  });

  test('any other Host or Origin is a 403 in the service error shape, before authentication', async () => {
    const refused: [string, string | undefined, RegExp][] = [
      ['evil.example.com', undefined, /Host 'evil.example.com' is not allowed/],
      [`evil.example.com:${port}`, `http://evil.example.com:${port}`, /Host/],
      [`localhost:${port + 1}`, undefined, /Host/],
      ['localhost', undefined, /Host/],
      [`127.0.0.2:${port}`, undefined, /Host/],
      [`localhost:${port}`, 'https://evil.example', /Origin 'https:\/\/evil.example' is not allowed/],
      [`localhost:${port}`, `http://localhost:${port + 1}`, /Origin/],
      [`localhost:${port}`, 'null', /Origin 'null'/],
      ['stacklens.example.com', 'http://stacklens.example.com', /Origin/],
    ];
    for (const [host, origin, message] of refused) {
      // No credentials: the Host/Origin refusal comes first, so no 401.
      const headers = { ...base(), host, ...(origin ? { origin } : {}) } as Record<string, string>;
      delete headers['x-api-key'];
      const res = await raw('POST', headers, initBody());
      assert.equal(res.status, 403, `Host ${host}, Origin ${origin}`);
      const body = res.json();
      assert.equal(body.status, 403);
      assert.equal(body.error, 'Forbidden');
      assert.match(body.message, message);
      assert.equal(body.path, '/mcp');
    }
    for (const method of ['GET', 'DELETE']) {
      const res = await raw(method, { ...base(), host: 'evil.example.com' });
      assert.equal(res.status, 403, method);
    }
  });
});

describe('request rules', () => {
  test('a JSON-RPC batch is -32600, whatever it holds', async () => {
    const sid = await initialize();
    for (const batch of [[initBody()], [listBody, listBody], []]) {
      const res = await raw('POST', base(full, { 'mcp-session-id': sid }), batch);
      assert.equal(res.status, 400);
      assert.equal(res.json().error.code, -32600);
      assert.match(res.json().error.message, /batches are not supported/);
    }
  });

  test('MCP-Protocol-Version: supported passes, absent means 2025-03-26, unsupported is 400', async () => {
    const sid = await initialize();
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', undefined]) {
      const res = await raw('POST', base(full, { 'mcp-session-id': sid, ...(version ? { 'mcp-protocol-version': version } : {}) }), listBody);
      assert.equal(res.status, 200, `${version}: ${res.text}`);
    }
    for (const version of ['1999-01-01', '2025-11-25x', '']) {
      const res = await raw('POST', base(full, { 'mcp-session-id': sid, 'mcp-protocol-version': version }), listBody);
      assert.equal(res.status, 400, version);
      assert.equal(res.json().error.code, -32000);
      assert.match(res.json().error.message, /Unsupported MCP-Protocol-Version/);
    }
    const del = await raw('DELETE', base(full, { 'mcp-session-id': sid, 'mcp-protocol-version': '0.0' }));
    assert.equal(del.status, 400);
  });

  test('a body over MCP_BODY_LIMIT_BYTES is 413', async () => {
    const big = { ...listBody, params: { pad: 'x'.repeat(5000) } };
    const res = await raw('POST', base(), big);
    assert.equal(res.status, 413);
    assert.equal(res.json().status, 413);
    assert.match(res.json().message, /MCP_BODY_LIMIT_BYTES/);
  });

  test('Content-Type must be application/json (415); Accept must allow JSON and SSE (406)', async () => {
    const plain = await raw('POST', base(full, { 'content-type': 'text/plain' }), JSON.stringify(initBody()));
    assert.equal(plain.status, 415);
    assert.match(plain.json().message, /Content-Type must be application\/json/);
    const withCharset = await raw('POST', base(full, { 'content-type': 'application/json; charset=utf-8' }), initBody());
    assert.equal(withCharset.status, 200);
    for (const accept of ['application/json', 'text/event-stream', 'text/html', 'application/json, text/event-stream;q=0']) {
      const res = await raw('POST', base(full, { accept }), initBody());
      assert.equal(res.status, 406, accept);
      assert.match(res.json().message, /Accept must list both/);
    }
    for (const accept of ['*/*', 'application/*, text/*', 'text/event-stream, application/json;q=0.5']) {
      const res = await raw('POST', base(full, { accept }), initBody());
      assert.equal(res.status, 200, accept);
    }
  });

  test('an SSE reply opens with a priming event carrying retry (2025-11-25), and not for older clients', async () => {
    const res = await raw('POST', base(), initBody('2025-11-25'));
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    assert.match(res.text, /^id: \S+\nretry: 1500\ndata: \n\n/, res.text);
    const sid = res.headers['mcp-session-id'] as string;
    // The session's negotiated version decides, whatever version header the request sends.
    const list = await raw('POST', base(full, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }), listBody);
    assert.match(list.text, /^id: \S+\nretry: 1500\ndata: \n\n/);
    assert.match(list.text, /"tools":\[/);
    const old = await raw('POST', base(), initBody('2025-03-26'));
    assert.doesNotMatch(old.text, /retry:/);
    assert.match(old.text, /^event: message\n/);
  });
});

describe('sessions', () => {
  test("a session is bound to its client: another client's credential gets 403", async () => {
    const sid = await initialize(full);
    const stolen = await raw('POST', base(other, { 'mcp-session-id': sid }), listBody);
    assert.equal(stolen.status, 403);
    assert.match(stolen.json().error.message, /belongs to another client/);
    const stolenDelete = await raw('DELETE', base(other, { 'mcp-session-id': sid }));
    assert.equal(stolenDelete.status, 403);
    const own = await raw('POST', base(full, { 'mcp-session-id': sid }), listBody);
    assert.equal(own.status, 200);
  });

  test('a session idle past MCP_SESSION_TTL_SECONDS is 404; use keeps it alive', async () => {
    const start = Date.now();
    setClock(() => start);
    const c = await createTestClient(t.db, 'full');
    const sid = await initialize(c);
    setClock(() => start + 50_000);
    assert.equal((await raw('POST', base(c, { 'mcp-session-id': sid }), listBody)).status, 200);
    setClock(() => start + 100_000);
    assert.equal((await raw('POST', base(c, { 'mcp-session-id': sid }), listBody)).status, 200);
    setClock(() => start + 160_001);
    const expired = await raw('POST', base(c, { 'mcp-session-id': sid }), listBody);
    assert.equal(expired.status, 404);
    assert.match(expired.json().error.message, /Session not found/);
  });

  test('at the per-client cap a new session ends the least recently used idle one, and is a 429 with Retry-After when all are busy; DELETE frees a place', async () => {
    // An instance with a cap of 3 on the same database (its port serves the requests below).
    const capped = await createTestApp({ db: t.db, mcpTools: tools, env: { MCP_MAX_SESSIONS_PER_CLIENT: '3', MCP_SESSION_TTL_SECONDS: '60' } });
    const mainPort = port;
    port = Number(new URL(await capped.app.listen({ host: '127.0.0.1', port: 0 })).port);
    try {
      await cappedCase();
    } finally {
      port = mainPort;
      await capped.close();
    }
  });
});

async function cappedCase() {
  {
    const c = await createTestClient(t.db, 'full');
    const ids = [await initialize(c), await initialize(c), await initialize(c)];
    // At the cap with idle sessions, the least recently used (ids[0]) makes room.
    const fourth = await raw('POST', base(c), initBody());
    assert.equal(fourth.status, 200, fourth.text);
    const ended = await raw('POST', base(c, { 'mcp-session-id': ids[0]! }), listBody);
    assert.equal(ended.status, 404, 'the least recently used idle session was ended');
    assert.equal((await raw('POST', base(c, { 'mcp-session-id': ids[1]! }), listBody)).status, 200, 'the others still work');
    assert.equal((await raw('DELETE', base(c, { 'mcp-session-id': ids[1]! }))).status, 204);
    assert.equal((await raw('POST', base(c), initBody())).status, 200);
    assert.equal((await raw('POST', base(other), initBody())).status, 200, 'the cap is per client');
  }
  {
    // Every session busy (a call in flight on each): the cap refuses with 429 and Retry-After.
    const c = await createTestClient(t.db, 'full');
    const ids = [await initialize(c), await initialize(c), await initialize(c)];
    closeGate();
    const calls = ids.map((id, i) =>
      raw('POST', base(c, { 'mcp-session-id': id }), { jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
    );
    for (let i = 0; i < 200 && gate.entered < 3; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(gate.entered, 3, 'three calls in flight');
    const refused = await raw('POST', base(c), initBody());
    assert.equal(refused.status, 429, refused.text);
    assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60, String(refused.headers['retry-after']));
    assert.match(refused.json().error.message, /already has 3 open MCP sessions.*request in flight/);
    gate.release();
    for (const res of await Promise.all(calls)) assert.equal(res.status, 200, res.text);
    // Idle again: the next initialize ends the least recently used one.
    assert.equal((await raw('POST', base(c), initBody())).status, 200);
  }
}
