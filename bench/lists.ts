// List upload job benchmark: a 100,000-row CSV uploaded as a background job (parsed, checked,
// matched in batches into staging, published in one transaction) against a synthetic world.
//
//   BENCH_DATABASE_URL=postgres://…/empty_db node --import tsx bench/lists.ts [--rows 100000] [--companies 50000] [--batch 5000]
//   (no BENCH_DATABASE_URL / DATABASE_URL: an in-memory PGlite database)
//
// The database is migrated and given `companies` companies (known0.com …, "Known Company N",
// every tenth in DE) unless it holds some. The list: 40 % known domains written with www, 10 %
// country-code variants (knownN.de), 20 % names with a country, 30 % unknown domains. Prints the
// wall time, rows per second, the outcome (matched / review / unmatched) and the event loop's
// worst delay while the job ran (what every other request would have waited at most), with
// the load average: compare figures of one run, not across machines.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDb } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { createClient, setPlan } from '../src/auth/clients.ts';
import { queueListUpload, runListUpload } from '../src/services/list-uploads.ts';
import { getList } from '../src/services/lists.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, companies: { type: 'string', default: '50000' }, batch: { type: 'string', default: '5000' } },
});
const ROWS = Number(values.rows);
const COMPANIES = Number(values.companies);
const BATCH = Number(values.batch);
const url = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const db = await openDb(url ? { databaseUrl: url, poolSize: 4 } : {});
await migrate(db);
const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies')) as [{ n: number }];
if (n === 0)
  await db.query(
    `INSERT INTO companies (id, domain, name, country)
     SELECT 'c_' || i, 'known' || i || '.com', 'Known Company ' || i, CASE WHEN i % 10 = 0 THEN 'DE' ELSE 'US' END FROM generate_series(0, $1::int - 1) i`,
    [COMPANIES],
  );
// The planner needs the new rows' statistics to read names from their index (autovacuum may be
// off or not yet round: without them it sorted 45,000 names by distance per row, 40x slower).
await db.query('ANALYZE companies');
const world = n || COMPANIES;
// Row i names company (i × 7919) mod world: distinct accounts only while there are no more rows than companies.
if (ROWS > world) throw new Error(`--rows ${ROWS} is more than the world's ${world} companies: the list would repeat accounts (refused as duplicates)`);
await setPlan(db, 'bench-lists', { requestsPerMinute: 1_000_000, aiRequestsPerMinute: 1, exportRequestsPerMinute: 1, maxListRows: 10_000_000 });
const client = await createClient(db, { name: 'bench-lists', plan: 'bench-lists' });

const lines = ['domain,name,country,owner'];
for (let i = 0; i < ROWS; i++) {
  const k = (i * 7919) % world;
  const r = i % 10;
  if (r < 4) lines.push(`www.known${k}.com,,,o${i}`);
  else if (r < 5) lines.push(`known${k}.de,,,o${i}`);
  else if (r < 7) lines.push(`,Known Company ${k},${k % 10 === 0 ? 'DE' : 'US'},o${i}`);
  else lines.push(`unknown${i}.example,,,o${i}`);
}
const content = lines.join('\n');
console.log(`${db.engine}: ${world} companies; ${ROWS} rows (${(content.length / 1024 / 1024).toFixed(1)} MB), batches of ${BATCH}; load ${load()}`);

const job = await queueListUpload(db, client.clientId, undefined, 'bench', { format: 'csv', content });
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const t0 = performance.now();
let batches = 0;
await runListUpload(db, Number(job.id), {
  asyncRows: 0,
  batchRows: BATCH,
  onBatch: (p) => {
    batches++;
    if (process.env.BENCH_VERBOSE) console.log(`batch ${batches}: ${p.done} of ${p.total}`);
  },
});
const seconds = (performance.now() - t0) / 1000;
delay.disable();
const [row] = await db.query<{ status: string; error: string | null; result: { listId: string } | null }>(
  'SELECT status, error, result FROM jobs WHERE id = $1::bigint',
  [job.id],
);
if (row?.status !== 'succeeded') throw new Error(`job ${job.id}: ${row?.status} ${row?.error}`);
const list = await getList(db, client.clientId, row.result!.listId);
console.log(
  `| engine | rows | s | rows/s | batches | matched | review | unmatched | event loop max delay ms | load after |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n` +
    `| ${db.engine} | ${list.rows} | ${seconds.toFixed(1)} | ${Math.round(list.rows / seconds)} | ${batches} | ${list.matched} | ${list.review} | ${list.unmatched} | ${(delay.max / 1e6).toFixed(0)} | ${load()} |`,
);
await db.close();
