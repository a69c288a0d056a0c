// Overload figures: a light client's latency idle, while 20
// worst-case searches run, and while another client floods 1,000 connections with requests
// that get cheap 429s; and how fast /healthz answers meanwhile. Not a test: it prints numbers.
//
//   DATABASE_URL=postgres://… npx tsx bench/faults/overload.ts      PostgreSQL (a seeded world)
//   npx tsx bench/faults/overload.ts --data-dir /tmp/x              embedded PGlite in that folder
//   … --unprotected                                                 the same with bulkheads, shedding and the
//                                                                   connection cap turned off (a before/after)
// Options: --port (18440), --seconds per phase (10), --flood connections (1000),
// --searches concurrent worst-case searches (20), --companies to seed an empty database
// (50,000 on PostgreSQL, 5,000 embedded). See bench/README.md, "Overload".
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '18440' },
    seconds: { type: 'string', default: '10' },
    flood: { type: 'string', default: '1000' },
    searches: { type: 'string', default: '20' },
    companies: { type: 'string' },
    'data-dir': { type: 'string' },
    unprotected: { type: 'boolean', default: false },
    // Internal: this file run as the flooding client's process.
    'flood-worker': { type: 'boolean', default: false },
    origin: { type: 'string' },
    key: { type: 'string' },
  },
});

const seconds = Number(opts.seconds);

// ---- measuring ----------------------------------------------------------------------------------

interface Tally {
  latencies: number[];
  statuses: Map<string, number>;
}

const tally = (): Tally => ({ latencies: [], statuses: new Map() });
const count = (t: Tally, key: string) => t.statuses.set(key, (t.statuses.get(key) ?? 0) + 1);

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(t: Tally) {
  const s = [...t.latencies].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s.length ? s[s.length - 1]! : null };
}

const ms = (v: number | null) => (v === null ? 'n/a' : v < 10 ? v.toFixed(1) : Math.round(v).toString());
const statuses = (t: Tally) =>
  [...t.statuses]
    .sort()
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');

/** One request; resolves with its status (or the connection error's code) and its time in ms. */
function request(
  agent: http.Agent,
  origin: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(`${origin}${url}`, { method, agent, headers: body ? { ...headers, 'content-type': 'application/json' } : headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: String(res.statusCode), ms: performance.now() - t0 }));
      res.on('error', () => resolve({ status: 'aborted', ms: performance.now() - t0 }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? 'error', ms: performance.now() - t0 }));
    req.end(body);
  });
}

/** `workers` loops sending requests until `until`; latencies of the answered ones (2xx-5xx) are kept. */
async function loops(workers: number, until: number, next: () => Promise<{ status: string; ms: number }>, t: Tally): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        const r = await next();
        count(t, r.status);
        if (/^\d+$/.test(r.status)) t.latencies.push(r.ms);
        else await new Promise((resolve) => setTimeout(resolve, 5)); // a refused connection: try again soon
      }
    }),
  );
}

// ---- the flooding client (its own process, so its work does not share the light client's loop) --

if (opts['flood-worker']) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(opts.flood), localAddress: '127.0.0.2' });
  const t = tally();
  await loops(Number(opts.flood), performance.now() + seconds * 1000, () => request(agent, opts.origin!, 'GET', '/api/me', { 'x-api-key': opts.key! }), t);
  agent.destroy();
  process.stdout.write(JSON.stringify(Object.fromEntries(t.statuses)));
  process.exit(0);
}

// ---- setup: database, credentials, server -------------------------------------------------------

const databaseUrl = process.env.DATABASE_URL;
const dataDir = opts['data-dir'] ?? path.join(tmpdir(), 'stacklens-overload-pglite');
const port = Number(opts.port);
const origin = `http://127.0.0.1:${port}`;
const UNPROTECTED = {
  BULKHEAD_SEARCH: '1000',
  BULKHEAD_PEERS: '1000',
  BULKHEAD_EXPORT: '1000',
  BULKHEAD_AI: '1000',
  BULKHEAD_STANDARD: '100000',
  BULKHEAD_QUEUE: '100000',
  BULKHEAD_STANDARD_QUEUE: '100000',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  OVERLOAD_MAX_DB_WAITING: '0',
  MAX_CONCURRENT_REQUESTS_PER_CLIENT: '0',
  MAX_CONCURRENT_REQUESTS_PER_IP: '0',
  LISTEN_BACKLOG: '511',
  RATE_LIMITED_REPLY_DELAY_MS: '0',
};
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  DATA_DIR: dataDir,
  ...(opts.unprotected ? UNPROTECTED : {}),
};

function cli(argv: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/main.ts', ...argv], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${argv.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

async function credentials(plan: string, rpm: number): Promise<string> {
  await cli([
    'plans',
    'set',
    plan,
    '--description',
    'overload bench',
    '--export',
    '--ai',
    '--rpm',
    String(rpm),
    '--ai-rpm',
    String(rpm),
    '--export-rpm',
    String(rpm),
  ]);
  const client = JSON.parse(await cli(['clients', 'create', '--name', `${plan} ${new Date().toISOString()}`, '--plan', plan, '--json'])) as {
    client_id: string;
  };
  return (JSON.parse(await cli(['keys', 'create', '--client', client.client_id, '--name', plan, '--json'])) as { api_key: string }).api_key;
}

const companies = await countCompanies();
if (companies === 0) {
  const n = opts.companies ?? (databaseUrl ? '50000' : '5000');
  console.log(`seeding ${n} companies (seed 'stacklens', as of 2026-01-01)…`);
  await cli(['seed', '--companies', n, '--seed', 'stacklens', '--as-of', '2026-01-01']);
}
const lightKey = await credentials('overload-unlimited', 1_000_000_000);
const floodKey = await credentials('overload-flood', 60);

async function countCompanies(): Promise<number> {
  const { openDb } = await import('../../src/db/db.ts');
  const { migrate } = await import('../../src/db/migrate.ts');
  const db = await openDb(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir });
  try {
    await migrate(db);
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
    return row!.n;
  } finally {
    await db.close();
  }
}

const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
const stopServer = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
};
process.on('exit', stopServer);

try {
  for (let until = Date.now() + 300_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() > until) throw new Error('the server did not become ready');
    const ok = await fetch(`${origin}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
  }

  // ---- inputs: known domains, and the filters of a worst-case search ----------------------------
  // Each client from its own loopback address, as separate machines would be (the server
  // limits connections per address): light 127.0.0.1, searches .3, probe .4, flood .2.
  const light = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: '127.0.0.1' });
  const heavy = new http.Agent({ keepAlive: true, maxSockets: Number(opts.searches), localAddress: '127.0.0.3' });
  const probe = new http.Agent({ keepAlive: false, localAddress: '127.0.0.4' }); // a probe opens a connection each time, as kubelet does
  const headers = { 'x-api-key': lightKey };
  const get = async (url: string) => (await fetch(`${origin}${url}`, { headers })).json() as Promise<any>;
  const page = (await (
    await fetch(`${origin}/api/companies/search`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"size":200}' })
  ).json()) as { content: { domain: string }[] };
  const domains = page.content.map((c) => c.domain);
  const vendors = ((await get('/api/vendors?size=6')).content as { domain: string }[]).map((v) => v.domain);
  const products = ((await get(`/api/vendors/${vendors[0]}/products?size=3`)).content as { id: string }[]).map((p) => p.id);
  const categories = ((await get('/api/categories')) as { id: string; level: number }[]).filter((c) => c.level === 0).map((c) => c.id);
  const worst = [
    // A name substring (no index helps), every install filter, the deepest page at the largest size.
    {
      query: 'a',
      page: 49,
      size: 200,
      filter: {
        companyNameContains: 'e',
        vendorDomainIn: vendors.slice(0, 3),
        vendorDomainNotIn: vendors.slice(3, 5),
        productIdNotIn: products,
        mainCategoryIdIn: categories.slice(0, 3),
        mainCategoryIdInAnd: true,
        intensityBucketIn: ['LOW', 'MEDIUM', 'HIGH'],
        dateLastVerifiedBucketIn: ['RECENT', 'NEW', 'OLD', 'ANCIENT'],
      },
    },
    {
      page: 49,
      size: 200,
      filter: { companyNameContains: 'an', vendorDomainIn: vendors, vendorDomainInAnd: false, mainCategoryIdNotIn: categories.slice(3, 5) },
    },
  ].map((b) => JSON.stringify(b));
  let turn = 0;
  const lightRequest = () => request(light, origin, 'GET', `/api/companies/${domains[turn++ % domains.length]}/firmographics`, headers);
  const searchRequest = () => request(heavy, origin, 'POST', '/api/companies/search', headers, worst[turn++ % worst.length]);
  const healthz = () => request(probe, origin, 'GET', '/healthz', {});

  /** One phase: the light client (4 connections) and a /healthz probe every 100 ms, plus `load`. */
  async function phase(name: string, load?: (until: number) => Promise<string>) {
    // Warm-up (first statements planned, connections open), not counted.
    await loops(4, performance.now() + 1000, lightRequest, tally());
    const until = performance.now() + seconds * 1000;
    const lightTally = tally();
    const probeTally = tally();
    const probing = (async () => {
      while (performance.now() < until) {
        const r = await healthz();
        count(probeTally, r.status);
        probeTally.latencies.push(r.ms);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const [, , note] = await Promise.all([loops(4, until, lightRequest, lightTally), probing, load ? load(until) : Promise.resolve('')]);
    const l = summary(lightTally);
    const h = summary(probeTally);
    return { name, light: l, lightStatuses: statuses(lightTally), healthz: h, healthzStatuses: statuses(probeTally), note };
  }

  const rows = [];
  console.log(
    `\nphases of ${seconds} s; server ${opts.unprotected ? 'UNPROTECTED (no bulkheads, shedding or connection cap)' : 'with its defaults'}; ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${await countCompaniesViaApi()} companies`,
  );
  rows.push(await phase('idle'));
  rows.push(
    await phase(`${opts.searches} worst-case searches`, async (until) => {
      const t = tally();
      await loops(Number(opts.searches), until, searchRequest, t);
      const s = summary(t);
      return `searches: ${statuses(t)}; answered p50 ${ms(s.p50)} ms, p95 ${ms(s.p95)} ms`;
    }),
  );
  rows.push(
    await phase(`flood: ${opts.flood} connections from one client`, async () => {
      const worker = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--flood-worker',
          '--flood',
          String(opts.flood),
          '--seconds',
          String(seconds),
          '--origin',
          origin,
          '--key',
          floodKey,
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      worker.stdout!.on('data', (d) => (out += d));
      await new Promise((resolve) => worker.once('exit', resolve));
      const flood = JSON.parse(out || '{}') as Record<string, number>;
      return `flood: ${Object.entries(flood)
        .sort()
        .map(([k, v]) => `${k}×${v}`)
        .join(' ')}`;
    }),
  );
  light.destroy();
  heavy.destroy();

  console.log(
    '\n| phase | light p50 ms | light p95 ms | light max ms | light answers | /healthz p50 ms | /healthz p95 ms | /healthz max ms | /healthz answers | other traffic |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${ms(r.light.p50)} | ${ms(r.light.p95)} | ${ms(r.light.max)} | ${r.lightStatuses} | ${ms(r.healthz.p50)} | ${ms(r.healthz.p95)} | ${ms(r.healthz.max)} | ${r.healthzStatuses} | ${r.note} |`,
    );
  }
  const idle = rows[0]!.light.p95!;
  console.log(
    `\nlight p95 vs idle: searches ${(rows[1]!.light.p95! / idle).toFixed(2)}x (target ≤ 2x), flood ${(rows[2]!.light.p95! / idle).toFixed(2)}x (target ≤ 1.5x)`,
  );

  async function countCompaniesViaApi(): Promise<number> {
    return (
      (await (
        await fetch(`${origin}/api/companies/search`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"size":1}' })
      ).json()) as { totalElements: number }
    ).totalElements;
  }
} finally {
  stopServer();
  await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
}
