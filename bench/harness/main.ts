// `npm run bench -- --engine pg|pglite --scale S|M|L [--only a,b] [--duration 8] [--keep] [--no-refresh]`
// Measures every endpoint of the performance issue against the machine's own ceilings and
// writes bench/results/<date>-<engine>-<scale>.json. What each figure means: bench/README.md.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDb } from '../../src/db/db.ts';
import { captureSql, pgbenchScript, runPgbench, type CapturedStatement, type PgbenchResult } from './capture.ts';
import { drawInputs, ENDPOINTS, type Inputs } from './endpoints.ts';
import { measureLifecycle, type LifecycleStep } from './lifecycle.ts';
import { loadTool, runLoad, type LoadResult, type RequestSpec } from './load.ts';
import { ensureDatabase, pgBin, startCluster, type Cluster } from './pg-cluster.ts';
import { clusterCpuMs, cores, loadAverage, machineBusyMs, processCpuMs, rssMb, waitedChildrenCpuMs } from './proc.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCALES = { S: 5_000, M: 50_000, L: 1_000_000 } as const;
type Scale = keyof typeof SCALES;
const SEED = 'stacklens';
const AS_OF = '2026-01-01';
/** Requests whose SQL is captured and replayed as one pgbench transaction. */
const CAPTURED_REQUESTS = 5;
/**
 * Prompts of the AI section: categories and vendors with many products (the broad ones a new
 * user tries first), one product, and a category narrowed by country and size.
 */
const AI_PROMPTS = [
  'who uses CRM?',
  'who uses Salesforce?',
  'who uses Zoom',
  'companies using HubSpot',
  'marketing automation at software companies',
  'CRM users in Germany with 50-200 employees',
];
/** Reads of each export in the measured run (after one warm-up read). */
const EXPORT_RUNS = 5;
/** Calls of each AI prompt in the measured run. */
const AI_CALLS = 10;

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pg' },
    scale: { type: 'string', default: 'M' },
    only: { type: 'string' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    // Measure the world as it stands even when its refresh is partial (scale L's full refresh
    // outlasts a session on a shared machine): inputs are drawn among refreshed companies only.
    'no-refresh': { type: 'boolean', default: false },
    port: { type: 'string', default: '18310' },
  },
});
const engine = args.engine === 'pglite' ? 'pglite' : args.engine === 'pg' ? 'pg' : null;
if (!engine) throw new Error('--engine must be pg or pglite');
const scale = (args.scale ?? 'M').toUpperCase() as Scale;
if (!(scale in SCALES)) throw new Error('--scale must be S, M or L');
const companies = SCALES[scale];
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : null;
const wanted = (name: string) => !only || only.has(name);
const serverPort = Number(args.port);
const cannedPort = serverPort + 1;
const work = path.join(tmpdir(), `stacklens-bench-${engine}-${scale}`);
mkdirSync(work, { recursive: true });

// ---- measurement around one run ------------------------------------------------------------

interface Cpu {
  /** CPU ms of the process under test (the API server, or the bare Fastify). */
  serverMs: number | null;
  /** CPU ms of the private PostgreSQL cluster (null on PGlite or an external server). */
  pgMs: number | null;
  /** CPU ms of the load generator (wrk, autocannon or pgbench), a child of this process. */
  loadgenMs: number;
  /** Everything else the machine did meanwhile: other users' work. */
  othersMs: number | null;
  wallMs: number;
  loadStart: string | null;
  loadEnd: string | null;
}

let postmasterPid: () => number | null = () => null;

async function measured<T>(serverPid: number | null, fn: () => Promise<T>): Promise<{ result: T; cpu: Cpu }> {
  const pm = postmasterPid();
  const snap = () => ({
    server: serverPid ? processCpuMs(serverPid) : null,
    pg: pm ? clusterCpuMs(pm) : null,
    children: waitedChildrenCpuMs(),
    self: process.cpuUsage(),
    machine: machineBusyMs(),
    at: performance.now(),
  });
  const loadStart = loadAverage();
  const a = snap();
  const result = await fn();
  const b = snap();
  const serverMs = a.server !== null && b.server !== null ? b.server - a.server : null;
  const pgMs = a.pg !== null && b.pg !== null ? b.pg - a.pg : null;
  const loadgenMs = b.children - a.children;
  const selfMs = (b.self.user + b.self.system - a.self.user - a.self.system) / 1000;
  const othersMs = a.machine !== null && b.machine !== null ? b.machine - a.machine - (serverMs ?? 0) - (pgMs ?? 0) - loadgenMs - selfMs : null;
  return { result, cpu: { serverMs, pgMs, loadgenMs, othersMs, wallMs: b.at - a.at, loadStart, loadEnd: loadAverage() } };
}

// ---- helpers -------------------------------------------------------------------------------

function runNode(argv: string[], env: NodeJS.ProcessEnv, logFile?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', ...argv], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (logFile) writeFileSync(logFile, stdout + stderr);
      if (err) reject(new Error(`${argv.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

function cli(argv: string[], logFile?: string) {
  return runNode(['src/main.ts', ...argv], appEnv, logFile);
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

async function send(spec: RequestSpec, headers: Record<string, string>) {
  const res = await fetch(`http://127.0.0.1:${serverPort}${spec.path}`, {
    method: spec.method,
    headers: { ...headers, ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: spec.body?.replace('__ID__', '1'),
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/json', body };
}

const round = (v: number | null | undefined, digits = 2) => (v === null || v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits)));

// ---- dataset ---------------------------------------------------------------------------------

let cluster: Cluster | null = null;
let databaseUrl: string | undefined;
let dbName = '';
const dataDir = path.join(work, 'data');

if (engine === 'pg') {
  databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) {
    cluster = startCluster({
      dir: process.env.BENCH_PG_DIR ?? path.join(tmpdir(), 'bench-pg'),
      port: Number(process.env.BENCH_PG_PORT ?? 5544),
      logFile: process.env.BENCH_PG_LOG ?? path.join(tmpdir(), 'bench-pg.log'),
    });
    postmasterPid = cluster.postmasterPid;
    dbName = `stacklens_bench_${scale.toLowerCase()}`;
    await ensureDatabase(cluster.url('postgres'), dbName);
    databaseUrl = cluster.url(dbName);
  }
}

const appEnv: NodeJS.ProcessEnv = {
  ...process.env,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  HOST: '127.0.0.1',
  PORT: String(serverPort),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
};
if (!databaseUrl) delete appEnv.DATABASE_URL;

const startLoad = loadAverage();
const startedAt = new Date();
const tool = loadTool();
console.log(`# Stacklens bench: engine ${engine}, scale ${scale} (${companies} companies), load generator ${tool}, ${cores()} cores, load ${startLoad}`);

async function worldState(): Promise<{ companies: number; cohorts: number; people: number; installs: number; stacks: number }> {
  const db = await openDb(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir });
  try {
    const has = await db.query<{ t: string | null }>(`SELECT to_regclass('companies')::text AS t`);
    if (!has[0]?.t) return { companies: 0, cohorts: 0, people: 0, installs: 0, stacks: 0 };
    const [r] = await db.query<{ companies: number; cohorts: number; people: number; installs: number }>(
      `SELECT (SELECT count(*) FROM companies)::int AS companies,
              (SELECT count(*) FROM (SELECT 1 FROM cohorts LIMIT 1) x)::int AS cohorts,
              (SELECT count(*) FROM people)::int AS people,
              (SELECT count(*) FROM installs)::int AS installs`,
    );
    // Before migration 014 has run (the CLI and the server migrate at start) there is no table.
    const [stacked] = await db.query<{ t: string | null }>(`SELECT to_regclass('company_stacks')::text AS t`);
    const stacks = stacked?.t ? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM company_stacks'))[0]!.n : 0;
    return { ...r!, stacks };
  } finally {
    await db.close();
  }
}

let seedSeconds: number | null = null;
let world = await worldState();
if (world.companies !== companies || world.cohorts === 0) {
  console.log(`seeding ${companies} companies (seed '${SEED}', as of ${AS_OF}); the database has ${world.companies}`);
  const t0 = performance.now();
  const argv = ['seed', '--companies', String(companies), '--seed', SEED, '--as-of', AS_OF, ...(world.companies > 0 ? ['--replace'] : [])];
  await cli(argv, path.join(work, 'seed.log'));
  seedSeconds = (performance.now() - t0) / 1000;
  console.log(`seed + refresh: ${seedSeconds.toFixed(1)} s`);
  world = await worldState();
} else if (world.stacks < world.companies && args['no-refresh']) {
  console.log(
    `measuring a partly refreshed world (--no-refresh): ${world.stacks} of ${world.companies} companies have a materialized stack and cohorts; inputs are drawn among them`,
  );
} else if (world.stacks < world.companies) {
  // A world refreshed before the in-use stacks were materialized (migration 014): one full
  // refresh fills them, so the run measures what a refreshed server serves.
  console.log(`refreshing: ${world.stacks} of ${world.companies} companies have a materialized stack`);
  await cli(['refresh', '--full'], path.join(work, 'refresh.log'));
  world = await worldState();
} else {
  console.log(`reusing the world in the database (${world.companies} companies, ${world.installs} installs, ${world.people} people)`);
}

// ---- client, key, inputs ---------------------------------------------------------------------

const PLAN = 'bench-unlimited';
await cli([
  'plans',
  'set',
  PLAN,
  '--description',
  'benchmark: no practical limit',
  '--export',
  '--ai',
  '--purchase',
  '--credits',
  '1000000',
  '--rpm',
  '1000000000',
  '--ai-rpm',
  '1000000000',
  '--export-rpm',
  '1000000000',
]);
const client = JSON.parse(await cli(['clients', 'create', '--name', `bench ${startedAt.toISOString()}`, '--plan', PLAN, '--json'])) as {
  client_id: string;
  client_secret: string;
};
const key = JSON.parse(await cli(['keys', 'create', '--client', client.client_id, '--name', 'bench', '--json'])) as { api_key: string };

let inputs: Inputs;
{
  const db = await openDb(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir });
  try {
    inputs = await drawInputs(db);
  } finally {
    await db.close();
  }
}

// ---- the server ------------------------------------------------------------------------------

const serverLog = createWriteStream(path.join(work, 'server.log'));
const t0 = performance.now();
// BENCH_CPU_PROF=DIR: the server writes a V8 CPU profile of the whole run to DIR when it stops.
const profiling = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
const server = spawn(process.execPath, [...profiling, '--import', 'tsx', 'src/main.ts', 'serve'], {
  cwd: ROOT,
  env: appEnv,
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout!.pipe(serverLog);
server.stderr!.pipe(serverLog);
let results: Record<string, unknown> = {};
try {
  await waitFor(`http://127.0.0.1:${serverPort}/readyz`, 300_000);
  const readySeconds = (performance.now() - t0) / 1000;
  console.log(`server ready in ${readySeconds.toFixed(1)} s (pid ${server.pid})`);
  const origin = `http://127.0.0.1:${serverPort}`;
  const tokenRes = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: origin }),
  });
  const token = ((await tokenRes.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`no access token: ${tokenRes.status}`);
  const apiKeyHeaders = { 'X-API-Key': key.api_key };
  const bearerHeaders = { Authorization: `Bearer ${token}` };

  const endpointResults = [];
  for (const ep of ENDPOINTS) {
    if (!wanted(ep.name)) continue;
    const requests = ep.requests(inputs);
    if (requests.length === 0) {
      console.log(`${ep.name}: no input in this world, skipped`);
      continue;
    }
    console.log(`\n## ${ep.name} (${requests.length} distinct requests)`);
    const sample = await send(requests[0]!, apiKeyHeaders);
    if (sample.status >= 300) console.log(`  warning: sample request answered ${sample.status}: ${sample.body.toString().slice(0, 200)}`);

    // The exact SQL of the first few requests, before any load (pg private cluster only).
    // Several inputs, because what a search or a metric costs depends on its input; they are
    // sent one after the other, so one pgbench transaction replays `captured` requests.
    let statements: CapturedStatement[] | null = null;
    const captured = Math.min(CAPTURED_REQUESTS, requests.length);
    if (cluster) {
      statements = await captureSql(databaseUrl!, cluster.logFile, async () => {
        for (const spec of requests.slice(0, captured)) await send(spec, apiKeyHeaders);
      });
      console.log(`  captured ${statements.length} SQL statements of ${captured} requests`);
    }

    const load = (headers: Record<string, string>, connections: number, seconds: number, url = origin) =>
      runLoad({ tool, url, requests, headers, connections, seconds, scriptFile: path.join(work, `${ep.name}.lua`) });
    await load(apiKeyHeaders, 10, warmup); // warm-up: caches, JIT, connection pool

    const runs = [];
    for (const [auth, headers, c] of [
      ['api-key', apiKeyHeaders, 10],
      ['api-key', apiKeyHeaders, 50],
      ['bearer', bearerHeaders, 50],
    ] as const) {
      const probe = healthProbe(origin);
      const { result, cpu } = await measured(server.pid!, () => load(headers, c, duration));
      runs.push({ ...summarize(auth, c, result, cpu), healthzP99Ms: await probe.stop() });
      const r = runs[runs.length - 1]!;
      console.log(
        `  ${auth} c=${c}: ${r.rps} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}, node ${r.nodeMsPerReq} + PG ${r.pgMsPerReq ?? 'n/a'} ms/req, others ${r.othersCores} cores`,
      );
    }

    // HTTP ceiling: a bare Fastify answering the same bytes, same concurrency, same requests.
    const replyFile = path.join(work, `${ep.name}.reply.json`);
    writeFileSync(replyFile, JSON.stringify({ status: sample.status, contentType: sample.contentType, bodyBase64: sample.body.toString('base64') }));
    const canned = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./canned-server.ts', import.meta.url)), replyFile, String(cannedPort)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => canned.stdout!.on('data', (d: Buffer) => d.toString().includes('READY') && resolve()));
    await load(apiKeyHeaders, 50, warmup, `http://127.0.0.1:${cannedPort}`);
    const httpRun = await measured(canned.pid!, () => load(apiKeyHeaders, 50, duration, `http://127.0.0.1:${cannedPort}`));
    await stopChild(canned);
    const httpCeiling = httpRun.result.rps;

    // DB ceiling: that SQL replayed as prepared statements on 8 connections.
    let db: (PgbenchResult & { pgMsPerRequest: number | null; statements: number; requestsPerTransaction: number }) | null = null;
    if (cluster && statements && statements.length > 0) {
      const { script, defines } = pgbenchScript(statements);
      writeFileSync(path.join(work, `${ep.name}.sql.json`), JSON.stringify(statements, null, 2));
      const pgb = await measured(null, () =>
        runPgbench({
          bin: pgBin('pgbench'),
          host: '127.0.0.1',
          port: cluster!.port,
          user: 'postgres',
          database: dbName,
          scriptFile: path.join(work, `${ep.name}.pgbench.sql`),
          script,
          defines,
          clients: 8,
          threads: 2,
          seconds: duration,
        }),
      );
      const replayed = pgb.result.tps ? pgb.result.tps * captured * (pgb.cpu.wallMs / 1000) : null;
      db = {
        ...pgb.result,
        tps: pgb.result.tps === null ? null : pgb.result.tps * captured,
        statements: statements.length,
        requestsPerTransaction: captured,
        pgMsPerRequest: replayed && pgb.cpu.pgMs !== null ? round(pgb.cpu.pgMs / replayed, 3) : null,
      };
      if (pgb.result.error) console.log(`  pgbench: ${pgb.result.error}`);
    }
    const dbCeiling = db?.tps ?? null;
    const composite = dbCeiling ? 1 / (1 / httpCeiling + 1 / dbCeiling) : httpCeiling;
    const at50 = runs[1]!;
    const ratio = composite ? at50.rps / composite : null;
    console.log(
      `  ceilings: http ${round(httpCeiling, 0)}, db ${round(dbCeiling, 0)}, composite ${round(composite, 0)}; ratio ${ratio !== null ? (ratio * 100).toFixed(0) + ' %' : 'n/a'}`,
    );
    endpointResults.push({
      name: ep.name,
      kind: ep.kind,
      distinctRequests: requests.length,
      sample: { method: requests[0]!.method, path: requests[0]!.path, body: requests[0]!.body ?? null, status: sample.status, bytes: sample.body.length },
      runs,
      httpCeiling: {
        rps: round(httpCeiling, 0),
        p99Ms: round(httpRun.result.p99Ms),
        nodeMsPerReq: perReq(httpRun.cpu.serverMs, httpRun.result.requests),
        othersCores: cores_(httpRun.cpu),
      },
      dbCeiling: db
        ? {
            rps: round(db.tps, 0),
            requestsPerTransaction: db.requestsPerTransaction,
            failed: db.failed,
            latencyMs: db.latencyMs,
            statements: db.statements,
            pgMsPerRequest: db.pgMsPerRequest,
            error: db.error ?? null,
          }
        : null,
      compositeCeiling: round(composite, 0),
      ratio: round(ratio, 3),
    });
  }

  // ---- MCP tools/call vs REST ----------------------------------------------------------------
  let mcp = null;
  if (wanted('mcp')) {
    console.log('\n## MCP tools/call company_cohort vs REST cohort');
    const mcpHeaders: Record<string, string> = { ...apiKeyHeaders, Accept: 'application/json, text/event-stream' };
    const init = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stacklens-bench', version: '1' } },
      }),
    });
    const session = init.headers.get('mcp-session-id');
    await init.text();
    if (!session) throw new Error(`MCP initialize gave no session (${init.status})`);
    const sessionHeaders = { ...mcpHeaders, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { ...sessionHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }).then((r) => r.text());
    const mcpRequests: RequestSpec[] = inputs.samples.map((s) => ({
      method: 'POST',
      path: '/mcp',
      body: `{"jsonrpc":"2.0","id":__ID__,"method":"tools/call","params":{"name":"company_cohort","arguments":{"companyDomain":${JSON.stringify(s.domain)},"cohort":"Default"}}}`,
    }));
    const restRequests: RequestSpec[] = inputs.samples.map((s) => ({ method: 'GET', path: `/api/companies/${encodeURIComponent(s.domain)}/cohort/Default` }));
    const probe = await send(mcpRequests[0]!, sessionHeaders);
    if (probe.status !== 200 || probe.body.toString().includes('"isError":true'))
      console.log(`  warning: MCP probe ${probe.status}: ${probe.body.toString().slice(0, 300)}`);
    const mcpLoad = (reqs: RequestSpec[], headers: Record<string, string>, seconds: number) =>
      runLoad({ tool, url: origin, requests: reqs, headers, connections: 50, seconds, scriptFile: path.join(work, 'mcp.lua') });
    await mcpLoad(mcpRequests, sessionHeaders, warmup);
    const m = await measured(server.pid!, () => mcpLoad(mcpRequests, sessionHeaders, duration));
    const r = await measured(server.pid!, () => mcpLoad(restRequests, apiKeyHeaders, duration));
    const mcpRun = summarize('api-key', 50, m.result, m.cpu);
    const restRun = summarize('api-key', 50, r.result, r.cpu);
    const total = (x: typeof mcpRun) => (x.nodeMsPerReq ?? 0) + (x.pgMsPerReq ?? 0);
    mcp = { tool: 'company_cohort', mcp: mcpRun, rest: restRun, cpuRatio: round(total(mcpRun) / total(restRun)) };
    console.log(
      `  MCP: ${mcpRun.rps} calls/s, p99 ${mcpRun.p99Ms} ms, node ${mcpRun.nodeMsPerReq} + PG ${mcpRun.pgMsPerReq} ms/call; REST: ${restRun.rps} req/s, node ${restRun.nodeMsPerReq} + PG ${restRun.pgMsPerReq}; ratio ${mcp.cpuRatio}`,
    );
    await fetch(`${origin}/mcp`, { method: 'DELETE', headers: sessionHeaders })
      .then((x) => x.text())
      .catch(() => undefined);
  }

  // ---- AI helpers: broad prompts, one call at a time ----------------------------------------------
  // Latency of single calls (the AI bulkhead admits BULKHEAD_AI at once, so load at c=50 would
  // measure the queue): each prompt AI_CALLS times, in turn, after one warm-up call each.
  let ai = null;
  if (wanted('ai')) {
    console.log('\n## AI helper: customers of products (one call at a time)');
    const aiHeaders = { ...apiKeyHeaders, 'X-On-Behalf-Of-User': 'bench@example.com' };
    const specs = AI_PROMPTS.map((prompt) => ({
      method: 'POST' as const,
      path: `/api/ai/find-customers-of-products?${new URLSearchParams({ prompt, size: '10' })}`,
    }));
    for (const spec of specs) await send(spec, aiHeaders);
    const perPrompt = AI_PROMPTS.map((prompt) => ({ prompt, latencies: [] as number[], statuses: {} as Record<string, number>, items: 0 }));
    const { cpu } = await measured(server.pid!, async () => {
      for (let round = 0; round < AI_CALLS; round++) {
        for (const [i, spec] of specs.entries()) {
          const t = performance.now();
          const res = await send(spec, aiHeaders);
          const p = perPrompt[i]!;
          p.latencies.push(performance.now() - t);
          p.statuses[res.status] = (p.statuses[res.status] ?? 0) + 1;
          if (res.status === 200) p.items = (JSON.parse(res.body.toString()) as unknown[]).length;
        }
      }
    });
    const calls = AI_PROMPTS.length * AI_CALLS;
    const all = perPrompt.flatMap((p) => p.latencies);
    ai = {
      callsPerPrompt: AI_CALLS,
      prompts: perPrompt.map((p) => ({
        prompt: p.prompt,
        statuses: p.statuses,
        items: p.items,
        p50Ms: round(percentile(p.latencies, 0.5), 1),
        p95Ms: round(percentile(p.latencies, 0.95), 1),
        maxMs: round(Math.max(...p.latencies), 1),
      })),
      p50Ms: round(percentile(all, 0.5), 1),
      p95Ms: round(percentile(all, 0.95), 1),
      nodeMsPerCall: perReq(cpu.serverMs, calls),
      pgMsPerCall: perReq(cpu.pgMs, calls),
      othersCores: cores_(cpu),
      load: { start: cpu.loadStart, end: cpu.loadEnd },
    };
    for (const p of ai.prompts)
      console.log(`  ${JSON.stringify(p.prompt)}: ${JSON.stringify(p.statuses)}, ${p.items} items, p50 ${p.p50Ms} ms, p95 ${p.p95Ms} ms, max ${p.maxMs} ms`);
    console.log(
      `  all: p50 ${ai.p50Ms} ms, p95 ${ai.p95Ms} ms, node ${ai.nodeMsPerCall} + PG ${ai.pgMsPerCall ?? 'n/a'} ms/call, others ${ai.othersCores} cores, load ${cpu.loadEnd}`,
    );
  }

  // ---- exports -------------------------------------------------------------------------------
  const exports = [];
  if (wanted('exports')) {
    console.log('\n## exports');
    const exportHeaders = { ...apiKeyHeaders, 'X-On-Behalf-Of-User': 'bench@example.com', 'content-type': 'application/json' };
    for (const [name, urlPath, body] of [
      ['company-search-csv (all companies)', '/api/companies/search?export=true', '{}'],
      // The people of the largest country: about 40 % of all people (180,000 at scale M).
      ['people-csv (countries US)', '/api/profiles/search?export=true', JSON.stringify({ countries: ['US'] })],
    ] as const) {
      // One export read to the end first: the first one of a fresh server also compiles the
      // export's code (tsx, JIT), which the steady rate should not carry.
      await streamExport(`${origin}${urlPath}`, exportHeaders, body);
      const before = rssMb(server.pid!);
      let peak = before ?? 0;
      const sampler = setInterval(() => {
        const v = rssMb(server.pid!);
        if (v !== null && v > peak) peak = v;
      }, 20);
      // EXPORT_RUNS reads one after the other: the median by time is reported, CPU as the mean.
      const { result: reads, cpu } = await measured(server.pid!, async () => {
        const out = [];
        for (let i = 0; i < EXPORT_RUNS; i++) out.push(await streamExport(`${origin}${urlPath}`, exportHeaders, body));
        return out;
      });
      const result = [...reads].sort((a, b) => a.seconds - b.seconds)[Math.floor(EXPORT_RUNS / 2)]!;
      clearInterval(sampler);
      const row = {
        name,
        status: result.status,
        rows: result.rows,
        bytes: result.bytes,
        runs: EXPORT_RUNS,
        seconds: round(result.seconds, 2),
        rowsPerSecond: round(result.rows / result.seconds, 0),
        ttfbMs: round(result.ttfbMs, 1),
        rssBeforeMb: round(before, 1),
        rssPeakMb: round(peak, 1),
        nodeCpuMs: cpu.serverMs === null ? null : round(cpu.serverMs / EXPORT_RUNS, 0),
        pgCpuMs: cpu.pgMs === null ? null : round(cpu.pgMs / EXPORT_RUNS, 0),
        othersCores: cores_(cpu),
        loadEnd: cpu.loadEnd,
      };
      exports.push(row);
      console.log(
        `  ${name}: ${row.rows} rows in ${row.seconds} s = ${row.rowsPerSecond} rows/s, first byte ${row.ttfbMs} ms, RSS ${row.rssBeforeMb} → ${row.rssPeakMb} MB (status ${row.status})`,
      );
    }
  }

  results = { endpoints: endpointResults, mcp, ai, exports, serverReadySeconds: round(readySeconds, 1) };
} finally {
  await stopChild(server);
  serverLog.end();
}

// ---- seed, refresh, import: the operator's jobs (after the server: PGlite admits one process) ----
let lifecycle: LifecycleStep[] | null = null;
if (wanted('lifecycle')) {
  console.log('\n## lifecycle');
  lifecycle = await measureLifecycle({
    db: () => openDb(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir }),
    cli: (argv) => cli(argv, path.join(work, `${argv.slice(0, 2).join('-')}.log`)),
    measure: async (fn) => {
      const { result, cpu } = await measured(null, fn);
      return { result, wallMs: cpu.wallMs, childrenMs: cpu.loadgenMs, pgMs: cpu.pgMs };
    },
    work,
  });
}

const endLoad = loadAverage();
const out = {
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  engine,
  scale,
  companies,
  world,
  seed: { seed: SEED, asOf: AS_OF, seededThisRun: seedSeconds !== null, seconds: round(seedSeconds, 1) },
  loadGenerator: tool,
  durationSeconds: duration,
  warmupSeconds: warmup,
  cores: cores(),
  node: process.version,
  loadAverage: { start: startLoad, end: endLoad },
  ...results,
  lifecycle,
};
const outDir = path.join(ROOT, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
// <date>-<engine>-<scale>.json; a second run on the same day gets the start time appended
// (hours and minutes, and seconds too when two runs start in the same minute).
let outFile = path.join(outDir, `${startedAt.toISOString().slice(0, 10)}-${engine}-${scale}.json`);
if (existsSync(outFile)) outFile = outFile.replace(/\.json$/, `-${startedAt.toISOString().slice(11, 16).replace(':', '')}.json`);
if (existsSync(outFile)) outFile = outFile.replace(/\.json$/, `${startedAt.toISOString().slice(17, 19)}.json`);
writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
console.log('\n' + (await import('./report.ts')).markdown(out as never));
console.log(`\nwritten ${path.relative(ROOT, outFile)}`);
if (cluster && cluster.startedHere && !args.keep) cluster.stop();

// ---- small helpers used above --------------------------------------------------------------

function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil(v.length * q) - 1)]!;
}
function perReq(ms: number | null, requests: number) {
  return ms === null || requests === 0 ? null : round(ms / requests, 3);
}
function cores_(cpu: Cpu) {
  return cpu.othersMs === null ? null : round(Math.max(0, cpu.othersMs) / cpu.wallMs, 2);
}
function summarize(auth: string, connections: number, r: LoadResult, cpu: Cpu) {
  return {
    auth,
    connections,
    requests: r.requests,
    rps: round(r.rps, 0)!,
    p50Ms: round(r.p50Ms),
    p99Ms: round(r.p99Ms),
    maxMs: round(r.maxMs),
    non2xx: r.non2xx,
    errors: r.errors,
    nodeMsPerReq: perReq(cpu.serverMs, r.requests),
    pgMsPerReq: perReq(cpu.pgMs, r.requests),
    loadgenMsPerReq: perReq(cpu.loadgenMs, r.requests),
    othersCores: cores_(cpu),
    load: { start: cpu.loadStart, end: cpu.loadEnd },
  };
}

/**
 * `/healthz` asked every 50 ms while the API is loaded: whether the event loop stays free
 * (it answers without touching the database). Returns the p99 in ms.
 */
function healthProbe(origin: string): { stop(): Promise<number | null> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        const r = await fetch(`${origin}/healthz`);
        await r.arrayBuffer();
        latencies.push(performance.now() - t);
      } catch {
        latencies.push(performance.now() - t);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      if (latencies.length === 0) return null;
      latencies.sort((a, b) => a - b);
      return round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!, 1);
    },
  };
}

function streamExport(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; rows: number; bytes: number; seconds: number; ttfbMs: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let ttfb = -1;
    let bytes = 0;
    let newlines = 0;
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (ttfb < 0) ttfb = performance.now() - t;
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, rows: Math.max(0, newlines - 1), bytes, seconds: (performance.now() - t) / 1000, ttfbMs: ttfb }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
