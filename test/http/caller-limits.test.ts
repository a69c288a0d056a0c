// Requests in flight per caller: a caller past its share gets a prompt 429 with Retry-After
// in the error shape (never a connection left unanswered); an authenticated caller is
// counted per client, only a request without one per address (request.ip: behind a
// TRUST_PROXY proxy, the client X-Forwarded-For names); the probes are always answered; every
// refusal is counted in /metrics and logged at warn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { freePortInRange } from '../helpers/ports.ts';
import { waitFor } from '../helpers/wait.ts';
import { metricValue } from '../helpers/metrics.ts';
import { addressKey } from '../../src/http/in-flight.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
});
after(() => t.close());

/** A route with no caller that holds every request until `open()`; `entered` counts arrivals. */
function heldRoute() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held = { entered: 0, open: () => open() };
  const routes = async (app: FastifyInstance) => {
    app.get('/test/held', async () => {
      held.entered++;
      await gate;
      return { ok: true };
    });
  };
  return { held, routes };
}

function assertRefused(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, setting: string) {
  assert.equal(res.statusCode, 429);
  assert.equal(res.headers['retry-after'], '1');
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'requestId', 'status']);
  assert.equal(body.error, 'Too Many Requests');
  assert.match(body.message, new RegExp(`^Too many requests in flight: .*\\(${setting}\\); retry after 1 s$`));
}

test('the limit counts per client: past MAX_CONCURRENT_REQUESTS_PER_CLIENT a 429 at once, another client of the same address is served, /healthz answers; refusals counted and logged', async () => {
  const lines: string[] = [];
  const app = await createTestApp({
    db: t.db,
    env: { MAX_CONCURRENT_REQUESTS_PER_CLIENT: '2', BULKHEAD_STANDARD: '1', BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS: '60000', LOG_LEVEL: 'warn' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  const other = await createTestClient(t.db, 'full');
  const standard = app.app.bulkheads.get('standard');
  const hold = await standard.acquire(); // the one slot: the client's requests stay in flight, queued
  try {
    const before = await metricValue(app.app, 'stacklens_requests_refused_total', { reason: 'client_concurrency' });
    const inFlight = [1, 2].map(() => app.app.inject({ method: 'GET', url: '/api/me', headers: client.headers }));
    await waitFor(() => standard.queued === 2, 'two requests of the client in flight');
    const started = performance.now();
    const refused = await app.app.inject({ method: 'GET', url: '/api/me', headers: client.headers });
    assert.ok(performance.now() - started < 1000, 'refused at once, not after a wait');
    assertRefused(refused, 'MAX_CONCURRENT_REQUESTS_PER_CLIENT');
    // Another client from the same address has a share of its own: it is admitted (and queues).
    const theirs = app.app.inject({ method: 'GET', url: '/api/me', headers: other.headers });
    await waitFor(() => standard.queued === 3, "the other client's request admitted");
    assert.equal((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.equal((await app.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    assert.equal(await metricValue(app.app, 'stacklens_requests_refused_total', { reason: 'client_concurrency' }), before + 1);
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request refused');
    assert.equal(warned.length, 1);
    assert.equal(warned[0].level, 40, 'logged at warn');
    assert.equal(warned[0].refused, 'client_concurrency');
    assert.equal(warned[0].clientId, client.clientId);
    assert.equal(warned[0].statusCode, 429);
    hold();
    for (const res of await Promise.all([...inFlight, theirs])) assert.equal(res.statusCode, 200, res.body);
    // The slots are given back as the responses close.
    assert.equal((await app.app.inject({ method: 'GET', url: '/api/me', headers: client.headers })).statusCode, 200);
  } finally {
    hold();
    await app.close();
  }
});

test('/mcp counts against the same per-client share once the caller is known', async () => {
  const app = await createTestApp({
    db: t.db,
    env: { MAX_CONCURRENT_REQUESTS_PER_CLIENT: '1', BULKHEAD_STANDARD: '1', BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS: '60000' },
  });
  const standard = app.app.bulkheads.get('standard');
  const hold = await standard.acquire();
  try {
    const inFlight = app.app.inject({ method: 'GET', url: '/api/me', headers: client.headers });
    await waitFor(() => standard.queued === 1, 'the REST request in flight');
    const mcp = await app.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...client.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    });
    assertRefused(mcp, 'MAX_CONCURRENT_REQUESTS_PER_CLIENT');
    // Without valid credentials it is the 401 it always was: no caller, no share spent.
    const anonymous = await app.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: {},
    });
    assert.equal(anonymous.statusCode, 401);
    hold();
    assert.equal((await inFlight).statusCode, 200);
  } finally {
    hold();
    await app.close();
  }
});

test('without a caller the limit counts per address; /healthz and /readyz of that address are always answered', async () => {
  const { held, routes } = heldRoute();
  const app = await createTestApp({ db: t.db, env: { MAX_CONCURRENT_REQUESTS_PER_IP: '1' }, routes });
  try {
    const before = await metricValue(app.app, 'stacklens_requests_refused_total', { reason: 'address_concurrency' });
    const first = app.app.inject({ method: 'GET', url: '/test/held', remoteAddress: '198.51.100.7' });
    await waitFor(() => held.entered === 1, 'the first request in flight');
    assertRefused(await app.app.inject({ method: 'GET', url: '/test/held', remoteAddress: '198.51.100.7' }), 'MAX_CONCURRENT_REQUESTS_PER_IP');
    assert.equal((await app.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '198.51.100.7' })).statusCode, 200);
    assert.equal((await app.app.inject({ method: 'GET', url: '/readyz', remoteAddress: '198.51.100.7' })).statusCode, 200);
    // An authenticated request from that address is the client's, not the address's.
    assert.equal((await app.app.inject({ method: 'GET', url: '/api/me', headers: client.headers, remoteAddress: '198.51.100.7' })).statusCode, 200);
    assert.equal(await metricValue(app.app, 'stacklens_requests_refused_total', { reason: 'address_concurrency' }), before + 1);
    held.open();
    assert.equal((await first).statusCode, 200);
  } finally {
    held.open();
    await app.close();
  }
});

test('TRUST_PROXY: two clients behind one trusted proxy are limited separately; without it they share the proxy address', async () => {
  const viaProxy = (app: FastifyInstance, forwardedFor: string) =>
    app.inject({ method: 'GET', url: '/test/held', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwardedFor } });
  {
    const { held, routes } = heldRoute();
    const app = await createTestApp({ db: t.db, env: { MAX_CONCURRENT_REQUESTS_PER_IP: '1', TRUST_PROXY: '127.0.0.1' }, routes });
    try {
      const one = viaProxy(app.app, '203.0.113.1');
      await waitFor(() => held.entered === 1, "the first client's request in flight");
      const two = viaProxy(app.app, '203.0.113.2');
      await waitFor(() => held.entered === 2, "the second client's request admitted: it has a share of its own");
      assertRefused(await viaProxy(app.app, '203.0.113.1'), 'MAX_CONCURRENT_REQUESTS_PER_IP');
      // A client cannot pose as another by sending X-Forwarded-For itself: the proxy appends the real address.
      assertRefused(await viaProxy(app.app, '203.0.113.2, 203.0.113.1'), 'MAX_CONCURRENT_REQUESTS_PER_IP');
      held.open();
      assert.deepEqual([(await one).statusCode, (await two).statusCode], [200, 200]);
    } finally {
      held.open();
      await app.close();
    }
  }
  {
    const { held, routes } = heldRoute();
    const app = await createTestApp({ db: t.db, env: { MAX_CONCURRENT_REQUESTS_PER_IP: '1' }, routes });
    try {
      const one = viaProxy(app.app, '203.0.113.1');
      await waitFor(() => held.entered === 1, 'the first request in flight');
      assertRefused(await viaProxy(app.app, '203.0.113.2'), 'MAX_CONCURRENT_REQUESTS_PER_IP');
      held.open();
      assert.equal((await one).statusCode, 200);
    } finally {
      held.open();
      await app.close();
    }
  }
});

test('TRUST_PROXY: /metrics through the proxy is local only for a loopback client; logs carry the client address', async () => {
  const lines: string[] = [];
  const app = await createTestApp({
    db: t.db,
    env: { TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  try {
    const get = (headers: Record<string, string>, remoteAddress = '127.0.0.1') => app.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
    assert.equal((await get({ 'x-forwarded-for': '203.0.113.9' })).statusCode, 403, 'a remote client through a same-host proxy is not local');
    assert.equal((await get({ 'x-forwarded-for': '127.0.0.1' })).statusCode, 200, 'a loopback client through the proxy is');
    assert.equal((await get({})).statusCode, 200, 'a loopback scraper without the proxy is');
    assert.equal((await get({ 'x-forwarded-for': '127.0.0.1' }, '203.0.113.50')).statusCode, 403, 'an untrusted peer cannot claim loopback');
    assert.equal((await get({ 'x-real-ip': '127.0.0.1' })).statusCode, 403, 'a proxy header not read marks a forwarded request');
    await app.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.23' } });
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.url === '/healthz');
    assert.equal(line?.ip, '198.51.100.23');
  } finally {
    await app.close();
  }
});

test('TRUST_PROXY takes addresses, CIDRs and proxy-addr names; anything else stops the start with the rule', async () => {
  const { loadConfig } = await import('../../src/config.ts');
  assert.deepEqual(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy, [
    '127.0.0.1',
    '10.0.0.0/8',
    '::1',
    'fd00::/8',
    'loopback',
  ]);
  assert.deepEqual(loadConfig({}).trustProxy, []);
  for (const bad of ['true', '2', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), new RegExp(`TRUST_PROXY must be .*got "${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`));
  }
});

test('addresses are counted whole for IPv4, by /64 for IPv6', () => {
  assert.equal(addressKey('203.0.113.9'), 'ip:203.0.113.9');
  assert.equal(addressKey('::ffff:203.0.113.9'), 'ip:203.0.113.9');
  assert.equal(addressKey('2001:db8:1:2:aaaa::1'), addressKey('2001:db8:1:2:ffff:1:2:3'));
  assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
  assert.equal(addressKey('2001:db8::1'), 'ip:2001:db8:0:0::/64');
});

/** GET /healthz on a new connection from 127.0.0.2: the status (or error code) and the time it took. */
function probe(port: number): Promise<{ status: number | string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false, localAddress: '127.0.0.2', timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in 10 s'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? err.message, ms: performance.now() - started }));
  });
}

/** Runs test/helpers/keep-alive-load.ts in a process of its own; resolves with its report. */
function keepAliveLoad(port: number, key: string, seconds: number): Promise<{ statuses: Record<string, number>; slowestMs: number; over2s: number }> {
  const script = fileURLToPath(new URL('../helpers/keep-alive-load.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, '--port', String(port), '--key', key, '--connections', '50', '--seconds', String(seconds)],
      (err, stdout, stderr) => {
        if (err) reject(new Error(`load client failed: ${stderr || err.message}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}

test('50 keep-alive connections from one address with one API key, 16 idle ones open: every request succeeds or gets a prompt 429; /healthz of that address p99 <= 50 ms', async () => {
  const port = await freePortInRange();
  // The defaults under test: MAX_CONCURRENT_REQUESTS_PER_CLIENT, a 429 held back 250 ms.
  const app = await createTestApp({ db: t.db, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, RATE_LIMITED_REPLY_DELAY_MS: '250' } });
  await app.app.listen({ host: '127.0.0.1', port });
  const idle: net.Socket[] = [];
  try {
    for (let i = 0; i < 16; i++) {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      idle.push(socket);
    }
    const served = () =>
      app.app.inject({ method: 'GET', url: '/metrics' }).then((r) => /stacklens_http_request_duration_seconds_count\{[^}]*route="\/api\/me"/.test(r.body));
    // The latency bound is about the server, but the probe shares two cores with the load
    // process and whatever else runs: a window the machine starved is measured again, up to
    // three windows.
    const p99s: string[] = [];
    let lastP99 = Infinity;
    for (let window = 1; window <= 3; window++) {
      // Long enough for a few hundred probes: p99 of a handful is its maximum. A client of
      // its own per window: the first window spends the plan's 600 requests a minute.
      const key = (await createTestClient(t.db, 'full')).apiKey;
      const load = keepAliveLoad(port, key, 6);
      if (window === 1) await waitFor(served, 'the load client to start');
      let loading = true;
      void load.finally(() => (loading = false));
      const probes: { status: number | string; ms: number }[] = [];
      while (loading) {
        probes.push(await probe(port));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const report = await load;
      const statuses = Object.keys(report.statuses);
      assert.ok(
        statuses.every((s) => s === '200' || s === '429'),
        `only 200 or 429: ${JSON.stringify(report.statuses)}`,
      );
      assert.ok((report.statuses['200'] ?? 0) >= 50, `most requests are served: ${JSON.stringify(report.statuses)}`);
      assert.equal(report.over2s, 0, `every request answered within 2 s (slowest ${report.slowestMs} ms)`);
      assert.ok(
        probes.every((p) => p.status === 200),
        `every probe answered 200: ${[...new Set(probes.map((p) => p.status))].join(', ')}`,
      );
      const sorted = probes.map((p) => p.ms).sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]!;
      assert.ok(sorted.length >= 100, `probed ${sorted.length} times`);
      p99s.push(
        `window ${window}: p99 ${p99.toFixed(1)} ms (median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, ${sorted.length} probes, load ${os.loadavg()[0]!.toFixed(1)})`,
      );
      lastP99 = p99;
      if (p99 <= 50) break;
    }
    assert.ok(lastP99 <= 50, `/healthz p99 <= 50 ms: ${p99s.join('; ')}`);
  } finally {
    for (const socket of idle) socket.destroy();
    await app.close();
  }
});
