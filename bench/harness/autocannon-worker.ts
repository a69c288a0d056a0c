// Runs autocannon in its own process (the fallback when wrk is not installed) and prints one
// BENCH_JSON line in the shape of LoadResult.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, RequestSpec } from './load.ts';

const opts = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  url: string;
  requests: RequestSpec[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
};
let counter = 0;
const result = await autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.seconds,
  timeout: 10,
  requests: [
    {
      setupRequest: (req) => {
        const r = opts.requests[Math.floor(Math.random() * opts.requests.length)]!;
        counter += 1;
        const body = r.body?.replace('__ID__', String(counter));
        return {
          ...req,
          method: r.method,
          path: r.path,
          headers: { ...opts.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { body } : {}),
        };
      },
    },
  ],
});
const seconds = opts.seconds;
const out: LoadResult = {
  tool: 'autocannon',
  requests: result.requests.total,
  seconds,
  rps: result.requests.total / seconds,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  maxMs: result.latency.max,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
};
console.log(`BENCH_JSON ${JSON.stringify(out)}`);
