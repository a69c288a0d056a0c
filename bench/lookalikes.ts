// Lookalikes benchmark: POST /companies/lookalikes as the service answers it, and the
// evaluation against the world's hidden segments.
//
//   node --import tsx bench/lookalikes.ts --companies 5000            (a fresh in-memory PGlite world)
//   BENCH_DATABASE_URL=postgres://… node --import tsx bench/lookalikes.ts --companies 50000
//       (a fresh schema in that PostgreSQL database, dropped at the end)
//
// Prints: the first call (it builds the population of the refresh and caches it), then p50/p95
// of warm calls for 5 seeds, 5 seeds with a filter, 1000 seeds, and the longest the event loop
// was held during them (monitorEventLoopDelay max); then `stacklens eval lookalikes` figures.
// The load average is printed with them: compare figures of one run, not across runs.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDb, type Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedWorld } from '../src/ingest/seed/index.ts';
import { refreshAll } from '../src/ingest/refresh.ts';
import { findLookalikes } from '../src/services/lookalikes.ts';
import { lookalikesBodySchema } from '../src/schemas/lookalikes.ts';
import { evaluateLookalikes, formatLookalikesEval } from '../src/eval/lookalikes.ts';

const { values } = parseArgs({ options: { companies: { type: 'string', default: '5000' }, runs: { type: 'string', default: '10' } } });
const N = Number(values.companies);
const RUNS = Number(values.runs);
const url = process.env.BENCH_DATABASE_URL;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

let db: Db;
let schema: string | undefined;
if (url) {
  schema = `bench_lookalikes_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  db = await openDb({ databaseUrl: url, schema, poolSize: 4 });
} else {
  db = await openDb({});
}
try {
  await migrate(db);
  let t = performance.now();
  await seedWorld(db, { companies: N, seed: 'bench-lookalikes', asOf: '2026-01-01' });
  await refreshAll(db);
  console.log(`${N} companies on ${url ? 'PostgreSQL' : 'PGlite'}: seeded and refreshed in ${((performance.now() - t) / 1000).toFixed(1)} s; load ${load()}`);

  const domains = (await db.query<{ domain: string }>('SELECT domain FROM companies ORDER BY md5(id) LIMIT 1000')).map((r) => r.domain);
  const five = domains.slice(0, 5);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  t = performance.now();
  await findLookalikes(db, lookalikesBodySchema.parse({ seedDomains: five }));
  console.log(
    `first call (builds and caches the population): ${(performance.now() - t).toFixed(0)} ms; event loop held at most ${(delay.max / 1e6).toFixed(0)} ms`,
  );
  const shapes: Array<[string, unknown]> = [
    ['5 seeds', { seedDomains: five }],
    ['5 seeds, filter countryIn US', { seedDomains: five, filter: { countryIn: ['US'] } }],
    ['5 seeds, page 4 of 100', { seedDomains: five, size: 100, page: 4 }],
    ['1000 seeds', { seedDomains: domains }],
  ];
  console.log('| request | p50 ms | p95 ms | candidates | max event-loop hold ms |\n| --- | ---: | ---: | ---: | ---: |');
  for (const [name, body] of shapes) {
    const input = lookalikesBodySchema.parse(body);
    const times: number[] = [];
    let total = 0;
    delay.reset();
    for (let r = 0; r < RUNS; r++) {
      const started = performance.now();
      total = (await findLookalikes(db, input)).totalElements;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0);
    console.log(`| ${name} | ${at(0.5)} | ${at(0.95)} | ${total} | ${(delay.max / 1e6).toFixed(0)} |`);
  }
  delay.disable();
  console.log('');
  console.log(formatLookalikesEval(await evaluateLookalikes(db)));
  console.log(`load ${load()}`);
} finally {
  await db.close();
  if (url && schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}
