// Many clients behind one address (a pooled client, NAT, a reverse proxy on the same host):
// 16 idle keep-alive connections stay open from 127.0.0.2, then 50 keep-alive connections of
// that address send `GET /api/me` with one API key for --seconds, while a probe opens a new
// connection from the same address to /healthz every 50 ms. Prints the status counts, how
// many requests waited more than 2 s or ended without a status (reset), the API latency and
// the probe's p50/p99/max, with the load average. Not a test: it prints numbers.
//
//   npx tsx bench/faults/one-address.ts                 embedded PGlite (in memory), port 18450
//   DATABASE_URL=postgres://… npx tsx bench/faults/one-address.ts
// Options: --port (18450), --seconds (10), --connections (50), --idle (16).
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDb } from '../../test/helpers/db.ts';
import { createTestClient } from '../../test/helpers/auth.ts';

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '18450' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    idle: { type: 'string', default: '16' },
  },
});
const port = Number(opts.port);
const origin = `http://127.0.0.1:${port}`;
const ADDRESS = '127.0.0.2';
/** A request still unanswered after this is counted as lost (the old cap reset parked ones at 30 s). */
const GIVE_UP_MS = 35_000;

const db = await createTestDb();
const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', PORT: String(port), PUBLIC_URL: origin, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
const app = await buildApp({ config, db });
await app.listen({ host: '127.0.0.1', port });
const client = await createTestClient(db, 'full');

function get(agent: http.Agent | false, path: string, headers: Record<string, string> = {}): Promise<{ status: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent, localAddress: ADDRESS, headers, timeout: GIVE_UP_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: String(res.statusCode), ms: performance.now() - t0 }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? 'error', ms: performance.now() - t0 }));
  });
}

// 16 idle keep-alive connections: each sends one request, then stays open and quiet.
const idle: net.Socket[] = [];
for (let i = 0; i < Number(opts.idle); i++) {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress: ADDRESS });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  idle.push(socket);
}

const until = performance.now() + Number(opts.seconds) * 1000;
const statuses = new Map<string, number>();
const apiMs: number[] = [];
const probeMs: number[] = [];
const probeStatuses = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
let waitedOver2s = 0;

const agent = new http.Agent({ keepAlive: true, maxSockets: Number(opts.connections) });
const workers = Array.from({ length: Number(opts.connections) }, async () => {
  while (performance.now() < until) {
    const r = await get(agent, '/api/me', client.headers);
    bump(statuses, r.status);
    apiMs.push(r.ms);
    if (r.ms > 2000) waitedOver2s++;
    if (r.status === '429') await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
const probe = (async () => {
  while (performance.now() < until) {
    const r = await get(false, '/healthz');
    bump(probeStatuses, r.status);
    probeMs.push(r.ms);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();
await Promise.all([...workers, probe]);
agent.destroy();
for (const socket of idle) socket.destroy();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const f = (v: number) => (v < 10 ? v.toFixed(1) : Math.round(v).toString());
const answered = [...statuses].filter(([k]) => /^\d+$/.test(k)).reduce((n, [, v]) => n + v, 0);
const total = [...statuses.values()].reduce((a, b) => a + b, 0);
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(`${opts.connections} keep-alive connections from ${ADDRESS}, ${opts.idle} idle ones open, ${opts.seconds} s, engine ${db.engine}`);
console.log(`  /api/me: ${total} requests, ${[...statuses].sort().map(([k, v]) => `${k}×${v}`).join(' ')}; without a status: ${total - answered}; waited > 2 s: ${waitedOver2s}`);
console.log(`  /api/me ms: p50 ${f(pct(apiMs, 50))} p99 ${f(pct(apiMs, 99))} max ${f(Math.max(...apiMs))}`);
console.log(`  /healthz (new connection each, same address): ${[...probeStatuses].sort().map(([k, v]) => `${k}×${v}`).join(' ')}; ms p50 ${f(pct(probeMs, 50))} p99 ${f(pct(probeMs, 99))} max ${f(Math.max(...probeMs))}`);
await app.close();
await db.close();
