// Many clients behind one address (a pooled client, NAT, a reverse proxy on the same host):
// 16 idle keep-alive connections stay open from 127.0.0.2, then a client in a process of its
// own (test/helpers/keep-alive-load.ts) sends `GET /api/me` with one API key (a plan with no
// practical quota) on 50 keep-alive connections from that address for --seconds, while a
// probe opens a new connection from the same address to /healthz every 50 ms. Prints the
// status counts, how many requests waited more than 2 s or ended without a status (reset,
// timeout), the API latency and the probe's p50/p99/max, with the load average. Not a test.
//
//   npx tsx bench/faults/one-address.ts                 embedded PGlite (in memory), port 18450
//   DATABASE_URL=postgres://… npx tsx bench/faults/one-address.ts
// Options: --port (18450), --seconds (10), --idle (16), --per-client (MAX_CONCURRENT_REQUESTS_PER_CLIENT).
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDb } from '../../test/helpers/db.ts';
import { createTestClient } from '../../test/helpers/auth.ts';
import { defineUnlimitedPlan } from '../../test/helpers/plans.ts';

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '18450' },
    seconds: { type: 'string', default: '10' },
    idle: { type: 'string', default: '16' },
    // MAX_CONCURRENT_REQUESTS_PER_CLIENT for a comparison (default: the service's default).
    'per-client': { type: 'string' },
  },
});
const port = Number(opts.port);
const origin = `http://127.0.0.1:${port}`;
const ADDRESS = '127.0.0.2';

const db = await createTestDb();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SEED_DEMO: 'false',
  PORT: String(port),
  PUBLIC_URL: origin,
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  ...(opts['per-client'] ? { MAX_CONCURRENT_REQUESTS_PER_CLIENT: opts['per-client'] } : {}),
});
const app = await buildApp({ config, db });
await app.listen({ host: '127.0.0.1', port });
const client = await createTestClient(db, await defineUnlimitedPlan(db));

const idle: net.Socket[] = [];
for (let i = 0; i < Number(opts.idle); i++) {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress: ADDRESS });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  idle.push(socket);
}

function probe(): Promise<{ status: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false, localAddress: ADDRESS, timeout: 35_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: String(res.statusCode), ms: performance.now() - t0 }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? 'error', ms: performance.now() - t0 }));
  });
}

const script = fileURLToPath(new URL('../../test/helpers/keep-alive-load.ts', import.meta.url));
let loading = true;
const load = new Promise<{ statuses: Record<string, number>; p50Ms: number; p99Ms: number; slowestMs: number; over2s: number }>((resolve, reject) => {
  execFile(
    process.execPath,
    ['--import', 'tsx', script, '--port', String(port), '--key', client.apiKey, '--connections', '50', '--seconds', opts.seconds!, '--local-address', ADDRESS],
    (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(JSON.parse(stdout))),
  );
}).finally(() => (loading = false));
const probes: { status: string; ms: number }[] = [];
await new Promise((resolve) => setTimeout(resolve, 1000)); // the load client starting (tsx)
while (loading) {
  probes.push(await probe());
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const report = await load;
for (const socket of idle) socket.destroy();

const sorted = probes.map((p) => p.ms).sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const f = (v: number) => (v < 10 ? v.toFixed(1) : Math.round(v).toString());
const count = (m: Record<string, number>) =>
  Object.entries(m)
    .sort()
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
const total = Object.values(report.statuses).reduce((a, b) => a + b, 0);
const unanswered = Object.entries(report.statuses)
  .filter(([k]) => !/^\d+$/.test(k))
  .reduce((n, [, v]) => n + v, 0);
const probeStatuses: Record<string, number> = {};
for (const p of probes) probeStatuses[p.status] = (probeStatuses[p.status] ?? 0) + 1;
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(
  `50 keep-alive connections from ${ADDRESS} (own process), ${opts.idle} idle ones open, ${opts.seconds} s, engine ${db.engine}, per-client limit ${config.overload.maxConcurrentPerClient}`,
);
console.log(`  /api/me: ${total} requests, ${count(report.statuses)}; without a status: ${unanswered}; waited > 2 s: ${report.over2s}`);
console.log(`  /api/me ms: p50 ${report.p50Ms} p99 ${report.p99Ms} max ${report.slowestMs}`);
console.log(
  `  /healthz (new connection each, same address): ${count(probeStatuses)}; ms p50 ${f(pct(0.5))} p99 ${f(pct(0.99))} max ${f(sorted[sorted.length - 1] ?? NaN)}`,
);
await app.close();
await db.close();
