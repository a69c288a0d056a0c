// A client with a pool of keep-alive connections, in a process of its own (as another machine
// would be, so its work does not share the server's event loop): `--connections` requests at
// once from `--local-address`, each connection sending GET `--path` again as soon as it is
// answered (a 429 too: an impatient pool that ignores Retry-After), for `--seconds`. Prints
// one JSON line: status counts, p50/p99/slowest answer, and how many took more than 2 s.
//   node --import tsx test/helpers/keep-alive-load.ts --port 8080 --key sk_… [--connections 50]
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({
  options: {
    port: { type: 'string' },
    key: { type: 'string' },
    path: { type: 'string', default: '/api/me' },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '3' },
    'local-address': { type: 'string', default: '127.0.0.2' },
  },
});
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(o.connections) });
const statuses: Record<string, number> = {};
const times: number[] = [];
let slowestMs = 0;
let over2s = 0;
const until = performance.now() + Number(o.seconds) * 1000;

function get(): Promise<void> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: string) => {
      const ms = performance.now() - started;
      statuses[status] = (statuses[status] ?? 0) + 1;
      slowestMs = Math.max(slowestMs, ms);
      times.push(ms);
      if (ms > 2000) over2s++;
      resolve();
    };
    const req = http.get(
      { host: '127.0.0.1', port: Number(o.port), path: o.path, agent, localAddress: o['local-address'], headers: { 'x-api-key': o.key! }, timeout: 35_000 },
      (res) => {
        res.resume();
        res.on('end', () => done(String(res.statusCode)));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? 'error'));
  });
}

await Promise.all(
  Array.from({ length: Number(o.connections) }, async () => {
    while (performance.now() < until) await get();
  }),
);
agent.destroy();
times.sort((x, y) => x - y);
const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0);
process.stdout.write(`${JSON.stringify({ statuses, p50Ms: at(0.5), p99Ms: at(0.99), slowestMs: Math.round(slowestMs), over2s })}\n`);
