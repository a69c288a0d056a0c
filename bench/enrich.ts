// Enrichment benchmark: 10,000 already-observed accounts enriched as the service streams them
// (POST /companies/enrich without the HTTP hop), on a seeded world.
//
//   BENCH_DATABASE_URL=postgres://… node --import tsx bench/enrich.ts [--accounts 10000] [--runs 3]
//   (default: DATABASE_URL's database; it must hold a world, e.g. `stacklens seed --companies 50000`)
//
// Picks `accounts` companies that have installs (a fixed order: by id hash), then for each run
// streams them as CSV and as JSON Lines through the same code the route uses, the encoded
// bytes dropped as they come: wall time, rows per second, bytes, and the heap before and after
// (the stream holds one batch at a time). The first run also records the set's snapshot; the
// later ones are identical re-runs, which write none. The load average is printed with the
// figures: compare figures of one run, not across runs.
import { parseArgs } from 'node:util';
import { loadAverage as load, openBenchWorld } from './world-db.ts';
import { createClient, setPlan } from '../src/auth/clients.ts';
import { enrichCompanies } from '../src/services/enrichment.ts';
import { enrichCsvColumns, type OptionalColumn } from '../src/schemas/enrichment.ts';
import { csvStream } from '../src/csv.ts';

const { values } = parseArgs({ options: { accounts: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' } } });
const ACCOUNTS = Number(values.accounts);
const RUNS = Number(values.runs);
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

const { db, companies: n } = await openBenchWorld();
const [{ installs }] = (await db.query<{ installs: number }>('SELECT count(*)::int AS installs FROM installs')) as [{ installs: number }];
const domains = (
  await db.query<{ domain: string }>(
    `SELECT c.domain FROM companies c WHERE EXISTS (SELECT 1 FROM installs i WHERE i.company_id = c.id) ORDER BY md5(c.id) LIMIT $1::int`,
    [ACCOUNTS],
  )
).map((r) => r.domain);
await setPlan(db, 'bench-enrich', {
  canExport: true,
  requestsPerMinute: 1_000_000,
  aiRequestsPerMinute: 1,
  exportRequestsPerMinute: 1_000_000,
  enrichRowsPerDay: 1_000_000_000,
});
const client = await createClient(db, { name: 'bench-enrich', plan: 'bench-enrich' });
const actor = { clientId: client.clientId, onBehalfOf: 'bench@example.com' };
const columns: OptionalColumn[] = ['city', 'website', 'lastVerified', 'vendors'];
console.log(`${n} companies, ${installs} installs; ${domains.length} observed accounts; ${RUNS} runs per format; load ${load()}`);

async function drain(stream: AsyncIterable<string | Buffer>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += chunk.length;
  return bytes;
}

console.log('| run | format | s | rows/s | MB out | heap before → after MB | snapshot |\n| --- | --- | ---: | ---: | ---: | ---: | --- |');
for (let run = 1; run <= RUNS; run++) {
  for (const format of ['csv', 'jsonl'] as const) {
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const { rows } = await enrichCompanies(db, { targets: { domains }, columns }, { actor, format });
    const bytes =
      format === 'csv'
        ? await drain(csvStream(rows, enrichCsvColumns(columns)))
        : await drain(
            (async function* () {
              for await (const row of rows) yield `${JSON.stringify(row)}\n`;
            })(),
          );
    const seconds = (performance.now() - started) / 1000;
    const heapAfter = process.memoryUsage().heapUsed;
    const [audit] = await db.query<{ params: { snapshot?: string } }>(
      "SELECT params FROM audit_log WHERE client_id = $1 AND action LIKE 'companies.enrich.%' ORDER BY id DESC LIMIT 1",
      [client.clientId],
    );
    console.log(
      `| ${run} | ${format} | ${seconds.toFixed(2)} | ${Math.round(domains.length / seconds)} | ${mb(bytes)} | ${mb(heapBefore)} → ${mb(heapAfter)} | ${audit?.params.snapshot ?? '?'} |`,
    );
  }
}
const [{ snapshots }] = (await db.query<{ snapshots: number }>('SELECT count(*)::int AS snapshots FROM enrichment_snapshots WHERE client_id = $1', [
  client.clientId,
])) as [{ snapshots: number }];
console.log(`snapshots written: ${snapshots} (expected 1: every run enriches the same set with the same content, whatever the format); load ${load()}`);
await db.close();
