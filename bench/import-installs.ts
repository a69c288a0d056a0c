// Import benchmark: generates a catalog (companies, vendors, products) and a 1,000,000-row
// installs CSV into a temp folder, imports it with the same importFile the CLI uses, then
// imports it again (the idempotent path), then a copy with every 10th row changed (the update
// path), printing rows/s, peak RSS, CPU time of node and of the server backend, and the load
// average of the machine (wall figures are only comparable at a similar load; CPU times and
// the CPU critical path are the fairer measure on a shared machine).
// Results: bench/import-results.md.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/import-installs.ts
//   npx tsx bench/import-installs.ts --pglite --rows 200000      (embedded engine)
//
// On PostgreSQL it works in a fresh schema (bench_import_<pid>) that it drops at the end.
// Flags: --rows N (1000000) --companies N (50000) --products N (2000) --keep (keep schema/files)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openDb, type Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { importFile, type ImportKind, type ImportSummary } from '../src/ingest/import/index.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    companies: { type: 'string', default: '50000' },
    products: { type: 'string', default: '2000' },
    pglite: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const COMPANIES = Number(args.companies);
const PRODUCTS = Number(args.products);
const config = loadConfig();
if (!config.databaseUrl && !args.pglite) {
  console.error('Set DATABASE_URL (PostgreSQL) or pass --pglite to run on the embedded engine.');
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-bench-import-'));
const schema = `bench_import_${process.pid}`;

/** Writes `count` lines produced by `line(i)` under backpressure (constant memory). */
async function writeLines(file: string, header: string, count: number, line: (i: number) => string): Promise<string> {
  const out = fs.createWriteStream(path.join(dir, file));
  out.write(`${header}\n`);
  for (let i = 0; i < count; i++) {
    if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return path.join(dir, file);
}

// A deterministic spread: company i uses products (i*7 + k*13) mod P for k < ROWS/COMPANIES.
const perCompany = Math.ceil(ROWS / COMPANIES);
if (perCompany > PRODUCTS) throw new Error('--rows must be at most companies × products');
const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

const INSTALLS_HEADER = 'companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,source';
function install(i: number, extraHits: number): string {
  const c = i % COMPANIES;
  const k = Math.floor(i / COMPANIES);
  return `company${c}.example,prd_${(c * 7 + k * 13) % PRODUCTS},${day(i % 1500)},${day((i % 1500) + 400)},${1 + (i % 500) + extraHits},${i % 101},website`;
}

async function openBenchDb(): Promise<Db> {
  if (!config.databaseUrl) return openDb();
  const admin = new pg.Client({ connectionString: config.databaseUrl });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  // One connection, so one server process does all the work and its CPU can be read.
  return openDb({ databaseUrl: config.databaseUrl, schema, poolSize: 1 });
}

/** CPU seconds used so far by this process and (same host only) the PostgreSQL backend:
 *  on a shared machine wall time says little, CPU time says what the import costs. */
let backendPid: number | undefined;
function cpuSeconds(): { node: number; server: number | undefined } {
  const u = process.cpuUsage();
  let server: number | undefined;
  try {
    const fields = fs.readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    server = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ ticks
  } catch {
    server = undefined;
  }
  return { node: (u.user + u.system) / 1e6, server };
}

type Timed = ImportSummary & {
  peakRssMb: number;
  startRssMb: number;
  nodeCpu: number;
  serverCpu: number | undefined;
  /** Seconds the import would take if it had both cores to itself: per phase, the busier of
   *  node and server (they overlap while reading; the checks and the write are the server's
   *  alone). A CPU critical path, not a measurement: it leaves out I/O waits. */
  idleEstimate: number | undefined;
};

async function timed(db: Db, kind: ImportKind, file: string): Promise<Timed> {
  global.gc?.();
  const cpu0 = cpuSeconds();
  const marks = [cpu0];
  let phase = 'reading';
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const s = await importFile(db, kind, file, {
      onProgress: (p) => {
        if (p.phase !== phase) marks.push(cpuSeconds());
        phase = p.phase;
      },
    });
    if (!s.committed) throw new Error(`${kind} import rejected: ${JSON.stringify(s.errors.slice(0, 5))}`);
    peak = Math.max(peak, process.memoryUsage().rss);
    const cpu1 = cpuSeconds();
    const serverCpu = cpu0.server === undefined || cpu1.server === undefined ? undefined : cpu1.server - cpu0.server;
    let idleEstimate: number | undefined = 0;
    for (let i = 1; i < marks.length && idleEstimate !== undefined; i++) {
      const [a, b] = [marks[i - 1]!, marks[i]!];
      idleEstimate = a.server === undefined || b.server === undefined ? undefined : idleEstimate + Math.max(b.node - a.node, b.server - a.server);
    }
    return { ...s, peakRssMb: peak / 2 ** 20, startRssMb: startRss / 2 ** 20, nodeCpu: cpu1.node - cpu0.node, serverCpu, idleEstimate };
  } finally {
    clearInterval(sampler);
  }
}

function report(label: string, s: Timed): void {
  console.log(
    `${label.padEnd(22)} ${s.rowsRead.toLocaleString('en-US').padStart(10)} rows  ${(s.elapsedMs / 1000).toFixed(1).padStart(6)} s  ` +
      `${Math.round(s.rowsPerSecond).toLocaleString('en-US').padStart(9)} rows/s  inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}  ` +
      `RSS ${s.startRssMb.toFixed(0)} → peak ${s.peakRssMb.toFixed(0)} MB` +
      (s.timings
        ? `  (read+stage ${(s.timings.readMs / 1000).toFixed(1)} s, checks ${(s.timings.checkMs / 1000).toFixed(1)} s, upsert ${(s.timings.writeMs / 1000).toFixed(1)} s)`
        : ''),
  );
  const server = s.serverCpu === undefined ? '' : `, server ${s.serverCpu.toFixed(1)} s`;
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const idle =
    s.idleEstimate === undefined
      ? ''
      : `; CPU critical path ${s.idleEstimate.toFixed(1)} s ≈ ${Math.round(s.rowsRead / s.idleEstimate).toLocaleString('en-US')} rows/s on idle cores`;
  console.log(`${''.padEnd(22)} CPU: node ${s.nodeCpu.toFixed(1)} s${server}${idle}; load average ${load} on ${os.cpus().length} cores`);
}

const db = await openBenchDb();
try {
  await migrate(db);
  if (db.engine === 'postgres') backendPid = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
  console.log(
    `${new Date().toISOString()} engine ${db.engine}, ${ROWS.toLocaleString('en-US')} installs over ${COMPANIES} companies × ${PRODUCTS} products, files in ${dir}`,
  );
  const t0 = performance.now();
  const files = {
    categories: await writeLines('categories.csv', 'id,name,parentId', 20, (i) => `cat_${i},Category ${i},`),
    vendors: await writeLines('vendors.csv', 'domain,name', 200, (i) => `vendor${i}.example,Vendor ${i}`),
    products: await writeLines(
      'products.csv',
      'id,vendorDomain,categoryId,name,features',
      PRODUCTS,
      (i) => `prd_${i},vendor${i % 200}.example,cat_${i % 20},Product ${i},Fast|Cheap`,
    ),
    companies: await writeLines(
      'companies.csv',
      'domain,name,employeeCount,country',
      COMPANIES,
      (i) => `company${i}.example,Company ${i},${(i * 37) % 20_000},US`,
    ),
    installs: await writeLines('installs.csv', INSTALLS_HEADER, ROWS, (i) => install(i, 0)),
    changed: await writeLines('installs-changed.csv', INSTALLS_HEADER, ROWS, (i) => install(i, i % 10 === 0 ? 1 : 0)),
  };
  console.log(
    `generated files in ${((performance.now() - t0) / 1000).toFixed(1)} s (installs.csv ${(fs.statSync(files.installs).size / 2 ** 20).toFixed(0)} MB)`,
  );
  for (const kind of ['categories', 'vendors', 'products', 'companies'] as const) report(kind, await timed(db, kind, files[kind]));
  report('installs (new)', await timed(db, 'installs', files.installs));
  report('installs (unchanged)', await timed(db, 'installs', files.installs));
  report('installs (10% changed)', await timed(db, 'installs', files.changed));
} finally {
  await db.close();
  if (!args.keep) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (config.databaseUrl) {
      const admin = new pg.Client({ connectionString: config.databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
}
