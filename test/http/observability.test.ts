// Observability (docs/operations.md "Monitor"): /metrics names and labels after real traffic
// (route patterns, never raw URLs or client ids) and who may read it; X-Request-Id on every
// kind of response and in every log line of its request; secrets never in a log line;
// /readyz's schema check.
import { test, before, after } from 'node:test';
import type { InjectOptions } from 'fastify';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { defineTinyPlan } from '../helpers/plans.ts';
import { listMigrations } from '../../src/db/migrate.ts';

const logLines: string[] = [];
let t: TestApp;
let full: TestClient;
let tiny: TestClient;
const logs = () => logLines.map((l) => JSON.parse(l) as Record<string, unknown>);

before(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void logLines.push(line) },
    routes: async (app) => {
      // A route that logs several lines, one of them careless (whole headers and body, an error
      // text holding a connection URL with its password): redaction and request ids must hold.
      app.post('/chatty', async (request) => {
        request.log.info('step one');
        request.log.info({ headers: request.headers, body: request.body }, 'careless log');
        request.log.error({ err: new Error('could not connect to postgres://app:pg-SECRET-6@db.internal:5432/stacklens') }, 'step two');
        return { ok: true };
      });
    },
  });
  full = await createTestClient(t.db, 'full');
  await defineTinyPlan(t.db);
  tiny = await createTestClient(t.db, 'tiny');
});
after(() => t.close());

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of the one series named `name` whose labels include every `labels` pair. */
function value(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of body.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const set = new Map([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
    if (Object.entries(labels).every(([k, v]) => set.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

test('/metrics: request durations by route pattern and status, database pool and statements, process metrics', async () => {
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/me', headers: full.headers })).statusCode, 200);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/categories/cat_secret_name', headers: full.headers })).statusCode, 404);
  assert.equal((await t.app.inject({ method: 'GET', url: '/no/such/path-xyz' })).statusCode, 404);
  const body = await scrape();

  const count = (labels: Record<string, string>) => value(body, 'stacklens_http_request_duration_seconds_count', labels) ?? 0;
  assert.ok(count({ method: 'GET', route: '/api/me', status_code: '200' }) >= 1, 'by route pattern and status');
  assert.ok(count({ method: 'GET', route: '/api/categories/:categoryId', status_code: '404' }) >= 1, 'the pattern, not the URL');
  assert.ok(count({ method: 'GET', route: '(unmatched)', status_code: '404' }) >= 1, 'unmatched URLs share one series');
  assert.ok(value(body, 'stacklens_http_request_duration_seconds_bucket', { route: '/api/me', status_code: '200', le: '+Inf' })! >= 1);
  for (const raw of ['cat_secret_name', 'path-xyz', full.clientId, tiny.clientId])
    assert.ok(!body.includes(raw), `no raw URL or client id in /metrics: ${raw}`);

  assert.ok(value(body, 'stacklens_db_pool_connections', { state: 'total' })! >= 1);
  assert.notEqual(value(body, 'stacklens_db_pool_connections', { state: 'idle' }), undefined);
  assert.equal(value(body, 'stacklens_db_pool_waiting'), 0);
  assert.equal(value(body, 'stacklens_db_up'), 1);
  assert.ok(value(body, 'stacklens_db_query_duration_seconds_count', { engine: t.db.engine, outcome: 'ok' })! > 0);
  if (t.db.engine === 'pglite') {
    assert.equal(value(body, 'stacklens_embedded_db_queue_depth'), 0);
    assert.notEqual(value(body, 'stacklens_embedded_db_worker_pending'), undefined);
  } else {
    assert.equal(value(body, 'stacklens_embedded_db_queue_depth'), undefined, 'PostgreSQL has no embedded queue');
  }
  for (const bulkhead of ['search', 'peers', 'export', 'ai', 'standard']) {
    assert.equal(value(body, 'stacklens_bulkhead_active', { bulkhead }), 0);
    assert.equal(value(body, 'stacklens_bulkhead_queued', { bulkhead }), 0);
  }
  assert.equal(value(body, 'stacklens_mcp_sessions_opened_total'), 0);
  assert.equal(value(body, 'stacklens_info', { engine: t.db.engine, mode: 'production' }), 1);
  assert.ok(value(body, 'process_cpu_user_seconds_total')! > 0, 'default process metrics');
  assert.notEqual(value(body, 'nodejs_eventloop_lag_seconds'), undefined);
});

test('/metrics: MCP sessions this process opened and ended', async () => {
  const before = await scrape();
  const opened = value(before, 'stacklens_mcp_sessions_opened_total') ?? 0;
  const ended = value(before, 'stacklens_mcp_sessions_ended_total') ?? 0;
  const mcpHeaders = { ...full.headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const init = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: mcpHeaders,
    payload: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'metrics-test', version: '1' } },
    },
  });
  assert.equal(init.statusCode, 200, init.body);
  const session = String(init.headers['mcp-session-id']);
  assert.equal(value(await scrape(), 'stacklens_mcp_sessions_opened_total'), opened + 1);
  const end = await t.app.inject({
    method: 'DELETE',
    url: '/mcp',
    headers: { ...full.headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
  });
  assert.equal(end.statusCode, 204, end.body);
  assert.equal(value(await scrape(), 'stacklens_mcp_sessions_ended_total'), ended + 1);
});

test('/metrics: rate-limit rejections counted by policy after a 429', async () => {
  const before = value(await scrape(), 'stacklens_rate_limit_rejections_total', { policy: 'default' }) ?? 0;
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await t.app.inject({ method: 'GET', url: '/api/me', headers: tiny.headers })).statusCode);
  assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  const body = await scrape();
  assert.equal(value(body, 'stacklens_rate_limit_rejections_total', { policy: 'default' }), before + 1);
  assert.ok(value(body, 'stacklens_http_request_duration_seconds_count', { route: '/api/me', status_code: '429' })! >= 1);
});

test('/metrics without METRICS_TOKEN: loopback callers only, and not through a proxy', async () => {
  const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
  assert.equal(remote.statusCode, 403);
  assert.match(remote.json().message, /METRICS_TOKEN/);
  const proxied = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.equal(proxied.statusCode, 403, 'a reverse proxy on the same host makes public requests look local');
  assert.equal((await t.app.inject({ method: 'GET', url: '/metrics', headers: { forwarded: 'for=203.0.113.9' } })).statusCode, 403);
});

test('/metrics with METRICS_TOKEN: the bearer token from any address, nothing else', async () => {
  const token = 'k3J9-vQ2x_Lm8Zr4TbW7nYp1HsCd6FgE0aUo5';
  const other = await createTestApp({ db: t.db, env: { METRICS_TOKEN: token } });
  try {
    const get = (headers: Record<string, string>, remoteAddress = '203.0.113.9') =>
      other.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
    const none = await get({});
    assert.equal(none.statusCode, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="metrics"');
    assert.equal((await get({ authorization: `Bearer ${token}x` })).statusCode, 401);
    assert.equal((await get({}, '127.0.0.1')).statusCode, 401, 'with a token, loopback needs it too');
    const ok = await get({ authorization: `Bearer ${token}` });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /stacklens_http_request_duration_seconds/);
  } finally {
    await other.close();
  }
});

test('X-Request-Id on responses of every kind: probes, 2xx, 400, 401, 404, 405, 413, 414, 431, draining 503', async () => {
  type Request = InjectOptions & { headers?: Record<string, string> };
  const cases: [string, Request, number][] = [
    ['healthz', { method: 'GET', url: '/healthz' }, 200],
    ['readyz', { method: 'GET', url: '/readyz' }, 200],
    ['metrics', { method: 'GET', url: '/metrics' }, 200],
    ['api', { method: 'GET', url: '/api/me', headers: full.headers }, 200],
    ['bad json', { method: 'POST', url: '/chatty', headers: { 'content-type': 'application/json' }, payload: '{bad' }, 400],
    ['no credential', { method: 'GET', url: '/api/me' }, 401],
    ['unknown path', { method: 'GET', url: '/nothing' }, 404],
    ['wrong method', { method: 'DELETE', url: '/api/me', headers: full.headers }, 405],
    [
      'body too large',
      { method: 'POST', url: '/chatty', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'a'.repeat(t.config.bodyLimitBytes) }) },
      413,
    ],
    ['url too long', { method: 'GET', url: `/api/companies?x=${'a'.repeat(40_000)}` }, 414],
    ['headers too large', { method: 'GET', url: '/healthz', headers: { 'x-padding': 'a'.repeat(20_000) } }, 431],
  ];
  for (const [what, request, status] of cases) {
    const sent = await t.app.inject({ ...request, headers: { ...request.headers, 'x-request-id': `case-${status}` } });
    assert.equal(sent.statusCode, status, what);
    assert.equal(sent.headers['x-request-id'], `case-${status}`, `${what}: the id sent is kept`);
    const generated = await t.app.inject(request);
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/, `${what}: a generated id`);
    if (status >= 400) assert.equal(generated.json().requestId, generated.headers['x-request-id'], `${what}: the body names the same id`);
  }
  // While draining, the 503 of the first hook that answers carries it too.
  const draining = await createTestApp({ db: t.db });
  try {
    draining.app.drain.start();
    const res = await draining.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-request-id': 'during-drain' } });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['x-request-id'], 'during-drain');
  } finally {
    await draining.close();
  }
});

test('an incoming X-Request-Id is kept only when it matches the safe pattern', async () => {
  const idOf = async (id: string) => (await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } })).headers['x-request-id'];
  for (const good of ['req-42', '3f2b1c9e-8d7a-4e6f-9b0a-1c2d3e4f5a6b', 'Root=1-5759e988-bd862e3f', 'a'.repeat(128)]) assert.equal(await idOf(good), good);
  for (const bad of ['has space', '<script>', '"quoted"', 'semi;colon', '-starts-with-dash', 'a'.repeat(129), 'new\\nline']) {
    assert.match(String(await idOf(bad)), /^[0-9a-f-]{36}$/, bad);
  }
});

test('every log line of a request carries its id; secrets never reach a log line', async () => {
  logLines.length = 0;
  const secrets = ['Bearer-SECRET-1', 'sl_key-SECRET-2', 'cookie-SECRET-3', 'body-SECRET-4', 'nested-SECRET-5', 'pg-SECRET-6', 'proxy-SECRET-7'];
  const res = await t.app.inject({
    method: 'POST',
    url: '/chatty?api_key=ignored',
    headers: {
      'x-request-id': 'trace-abc-1',
      authorization: `Bearer ${secrets[0]}`,
      'x-api-key': secrets[1]!,
      cookie: `session=${secrets[2]}`,
      'proxy-authorization': `Basic ${secrets[6]}`,
      'content-type': 'application/json',
    },
    payload: { client_secret: secrets[3], nested: { client_secret: secrets[4] } },
  });
  assert.equal(res.statusCode, 200);
  // A refused token request logs the client id and the reason, never the secret.
  await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/json', 'x-request-id': 'trace-abc-2' },
    payload: { grant_type: 'client_credentials', client_id: full.clientId, client_secret: 'token-SECRET-8', audience: t.config.auth.audience },
  });
  const all = logLines.join('\n');
  for (const s of [...secrets, 'token-SECRET-8']) assert.ok(!all.includes(s), `${s} leaked into the log`);
  assert.match(all, /postgres:\/\/app:\*\*\*@db\.internal/, 'the URL stays readable, without its password');

  const ofRequest = logs().filter((l) => l.reqId === 'trace-abc-1');
  assert.deepEqual(
    ofRequest.map((l) => l.msg),
    ['step one', 'careless log', 'step two', 'request'],
  );
  const request = ofRequest.at(-1)!;
  assert.equal(request.statusCode, 200);
  assert.equal(request.url, '/chatty', 'the query string is not logged');
  assert.ok(logs().some((l) => l.reqId === 'trace-abc-2' && l.msg === 'token request refused' && l.clientId === full.clientId));
  assert.ok(
    logs().every((l) => !(typeof l.msg === 'string' && l.msg === 'request') || typeof l.reqId === 'string'),
    'every request line has an id',
  );
});

test('/readyz: 503 naming the migrations missing when the schema is behind this version', async () => {
  const last = listMigrations().at(-1)!;
  const [row] = await t.db.query<{ name: string; applied_at: Date }>('SELECT name, applied_at FROM schema_migrations WHERE version = $1', [last.version]);
  await t.db.query('DELETE FROM schema_migrations WHERE version = $1', [last.version]);
  try {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '30');
    assert.match(res.json().message, new RegExp(`migration ${last.version} not applied; run \`stacklens migrate\``));
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the process is alive all the same');
  } finally {
    await t.db.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [last.version, row!.name, row!.applied_at]);
  }
  assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
});
