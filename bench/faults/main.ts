// Fault figures of the real server (README "Database faults" and "Shutdown"): a private
// PostgreSQL cluster stopped for 20 s, then frozen (SIGSTOP) for 20 s, under a steady
// ~50 requests/s of API-key, bearer-token and token-endpoint traffic; then SIGTERM with 100
// JSON requests and two exports in flight. Prints tables; these are measurements, not tests
// (the tests assert the mechanisms: test/faults, test/cli/serve-shutdown.test.ts).
//
//   npx tsx bench/faults/main.ts [--only outage|shutdown] [--engine pg|pglite] [--rate 50]
//     [--outage 20] [--port 18400] [--pg-port 5611] [--pg-dir <tmp>/stacklens-faults-pg]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { spawn, type ChildProcess } from 'node:child_process';
import { ensureDatabase, startCluster, type Cluster } from '../../scripts/lib/pg-cluster.ts';
import { openDb, type OpenDbOptions } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createClient, definePlan } from '../../src/auth/clients.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { insertLargeCompany } from '../../test/helpers/large-company.ts';

const { values: opt } = parseArgs({
  options: {
    only: { type: 'string' },
    engine: { type: 'string', default: 'pg' },
    rate: { type: 'string', default: '50' },
    outage: { type: 'string', default: '20' },
    port: { type: 'string', default: '18400' },
    'pg-port': { type: 'string', default: '5611' },
    'pg-dir': { type: 'string', default: path.join(os.tmpdir(), 'stacklens-faults-pg') },
  },
});
const PORT = Number(opt.port);
const BASE = `http://127.0.0.1:${PORT}`;
const RATE = Number(opt.rate);
const OUTAGE_MS = Number(opt.outage) * 1000;
const PRODUCTS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Credentials {
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

/** A fresh database with one large company and an unlimited client. */
async function prepare(options: OpenDbOptions): Promise<Credentials> {
  const db = await openDb(options);
  try {
    await migrate(db);
    await db.query('TRUNCATE companies, audit_log CASCADE');
    await db.query("DELETE FROM products WHERE vendor_id = 'ven_big'");
    await db.query("DELETE FROM vendors WHERE id = 'ven_big'");
    await db.query("DELETE FROM categories WHERE id IN ('cat_big', 'cat_big_child')");
    await insertLargeCompany(db, PRODUCTS);
    await definePlan(db, {
      id: 'faults-unlimited',
      description: 'bench/faults',
      canExport: true,
      canAi: true,
      canPurchase: false,
      initialCredits: 0,
      requestsPerMinute: 1e9,
      aiRequestsPerMinute: 1e9,
      exportRequestsPerMinute: 1e9,
      maxMonitors: 1e6,
      maxWebhooks: 1e6,
      eventsPerDay: 1e9,
      enrichRowsPerDay: 1e9,
      maxListRows: 1_000_000,
      facetsPerDay: 1000,
      detectionsPerDay: 100,
    });
    const client = await createClient(db, { name: 'faults', plan: 'faults-unlimited' });
    const key = await createApiKey(db, client.clientId, 'faults');
    return { clientId: client.clientId, clientSecret: client.clientSecret, apiKey: key.apiKey };
  } finally {
    await db.close();
  }
}

function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: { ...process.env, PORT: String(PORT), SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const status = await fetch(`${BASE}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(200);
  }
  throw new Error('server not ready');
}

interface Sample {
  phase: string;
  kind: 'api-key' | 'bearer' | 'token';
  sentAt: number;
  ms: number;
  status: number; // 0: connection error
  retryAfter: boolean;
}

/** Open-loop load: one request every 1000/RATE ms whatever the answers, until stop(). */
function steadyLoad(creds: Credentials, token: () => string, phase: () => string): { stop(): Promise<Sample[]> } {
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  const kinds: Sample['kind'][] = ['api-key', 'bearer', 'api-key', 'bearer', 'token'];
  let n = 0;
  const timer = setInterval(() => {
    const kind = kinds[n++ % kinds.length]!;
    const started = Date.now();
    const p0 = phase();
    const request =
      kind === 'token'
        ? fetch(`${BASE}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret, audience: BASE }),
            signal: AbortSignal.timeout(60_000),
          })
        : fetch(`${BASE}/api/companies/big.com/firmographics`, {
            headers: kind === 'api-key' ? { 'x-api-key': creds.apiKey } : { authorization: `Bearer ${token()}` },
            signal: AbortSignal.timeout(60_000),
          });
    const p = request
      .then(
        async (res) => {
          await res.arrayBuffer();
          samples.push({ phase: p0, kind, sentAt: started, ms: Date.now() - started, status: res.status, retryAfter: res.headers.has('retry-after') });
        },
        () => void samples.push({ phase: p0, kind, sentAt: started, ms: Date.now() - started, status: 0, retryAfter: false }),
      )
      .finally(() => pending.delete(p));
    pending.add(p);
  }, 1000 / RATE);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...pending]);
      return samples;
    },
  };
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`);
const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : 0);

function outageTable(samples: Sample[], phases: { name: string; recoveredAt?: number }[]): void {
  console.log('\n| phase | requests | 200 | 503 | 401 | 500 | other/conn. error | 503 with Retry-After | p50 ms | max ms |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { name } of phases) {
    const s = samples.filter((x) => x.phase === name);
    const count = (f: (x: Sample) => boolean) => s.filter(f).length;
    const u = s.filter((x) => x.status === 503);
    console.log(
      `| ${name} | ${s.length} | ${count((x) => x.status === 200)} | ${u.length} | ${count((x) => x.status === 401)} | ${count((x) => x.status === 500)} | ${count((x) => ![200, 503, 401, 500].includes(x.status))} | ${pct(u.filter((x) => x.retryAfter).length, u.length)} | ${quantile(
        s.map((x) => x.ms),
        0.5,
      )} | ${quantile(
        s.map((x) => x.ms),
        1,
      )} |`,
    );
  }
  console.log('\n| recovery | first success after (s) | success rate of requests sent 10-20 s after recovery |');
  console.log('| --- | --- | --- |');
  for (const { name, recoveredAt } of phases) {
    if (recoveredAt === undefined) continue;
    const after = samples.filter((x) => x.phase === name && x.sentAt >= recoveredAt).sort((a, b) => a.sentAt - b.sentAt);
    const first = after.find((x) => x.status === 200);
    const late = after.filter((x) => x.sentAt >= recoveredAt + 10_000);
    console.log(
      `| ${name} | ${first ? ((first.sentAt + first.ms - recoveredAt) / 1000).toFixed(1) : 'never'} | ${pct(late.filter((x) => x.status === 200).length, late.length)} (${late.length} requests) |`,
    );
  }
}

async function outage(cluster: Cluster): Promise<void> {
  const url = cluster.url('stacklens_faults');
  const creds = await prepare({ databaseUrl: url });
  const server = startServer({ DATABASE_URL: url });
  try {
    await waitReady();
    const tokenRes = await fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret, audience: BASE }),
    });
    if (tokenRes.status !== 200) throw new Error(`token request: ${tokenRes.status} ${await tokenRes.text()}`);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    let phase = 'before (15 s)';
    const load = steadyLoad(
      creds,
      () => token,
      () => phase,
    );
    // 15 s first, so the 30 s client cache of the bearer token's client expires during the outage.
    await sleep(15_000);
    phase = `stopped (${OUTAGE_MS / 1000} s)`;
    cluster.stop();
    await sleep(OUTAGE_MS);
    cluster.start();
    const recoveredStop = Date.now();
    phase = 'after stop (20 s)';
    await sleep(20_000);
    phase = `frozen (${OUTAGE_MS / 1000} s)`;
    cluster.freeze();
    await sleep(OUTAGE_MS);
    cluster.thaw();
    const recoveredFreeze = Date.now();
    phase = 'after freeze (20 s)';
    await sleep(20_000);
    const samples = await load.stop();
    console.log(`\n## Outage: PostgreSQL stopped, then frozen, at ${RATE} req/s (firmographics by API key and bearer token, token endpoint)`);
    outageTable(samples, [
      { name: 'before (15 s)' },
      { name: `stopped (${OUTAGE_MS / 1000} s)` },
      { name: 'after stop (20 s)', recoveredAt: recoveredStop },
      { name: `frozen (${OUTAGE_MS / 1000} s)` },
      { name: 'after freeze (20 s)', recoveredAt: recoveredFreeze },
    ]);
    const lines = server.output().split('\n');
    const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
    console.log(
      `\nServer log: ${count(/database unavailable/)} "database unavailable" lines, ${count(/database recovered/)} "database recovered" lines, ${count(/"stack"/)} stack traces, ${lines.filter(Boolean).length} lines in all (one per request at LOG_LEVEL=info).`,
    );
  } finally {
    cluster.thaw();
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

/** A GET whose reader stops after the headers; read() resumes it. */
function pausedGet(pathAndQuery: string, headers: Record<string, string>): Promise<{ status: number; read(): Promise<{ bytes: number; clean: boolean }> }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: PORT, path: pathAndQuery, headers, agent: false }, (res) => {
        res.pause();
        resolve({
          status: res.statusCode!,
          read: () =>
            new Promise((done) => {
              let bytes = 0;
              res.on('data', (d: Buffer) => (bytes += d.length));
              res.on('end', () => done({ bytes, clean: true }));
              res.on('error', () => done({ bytes, clean: false }));
              res.resume();
            }),
        });
      })
      .on('error', reject);
  });
}

async function shutdown(engine: 'pg' | 'pglite', cluster: Cluster | undefined): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-faults-serve-'));
  const url = cluster?.url('stacklens_faults');
  const dbOptions: OpenDbOptions = url ? { databaseUrl: url } : { dataDir };
  const creds = await prepare(dbOptions);
  const server = startServer({ DATABASE_URL: url ?? '', DATA_DIR: dataDir, SHUTDOWN_EXPORT_GRACE_SECONDS: '5' });
  try {
    await waitReady();
    const headers = { 'x-api-key': creds.apiKey };
    // Warm: a server in service has compiled its routes and filled its pool.
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${BASE}/api/companies/big.com/products/paged?size=200&page=${i}`, { headers }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    const noExports = process.env.FAULTS_NO_EXPORTS === '1';
    const exportRead = noExports
      ? { status: 0, read: async () => ({ bytes: 0, clean: true }) }
      : await pausedGet('/api/companies/big.com/products?export=true', { ...headers, 'x-on-behalf-of-user': 'ops@example.com' });
    const exportHeld = noExports
      ? { status: 0, read: async () => ({ bytes: 0, clean: true }) }
      : await pausedGet('/api/companies/big.com/products/json', headers);
    const agent = new http.Agent({ keepAlive: false, maxSockets: 200 });
    const outcomes: string[] = [];
    // In flight: the client has written the whole request (its 'finish'); SIGTERM when all 100 are.
    let written = 0;
    let allWritten!: () => void;
    const sent = new Promise<void>((r) => (allWritten = r));
    let firstAnswer!: () => void;
    const answered = new Promise<void>((r) => (firstAnswer = r));
    const inflight = Array.from(
      { length: 100 },
      (_, i) =>
        new Promise<void>((done) => {
          const req = http.get(
            { host: '127.0.0.1', port: PORT, path: `/api/companies/big.com/products/paged?size=200&page=${i % 50}`, headers, agent },
            (res) => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (d) => (body += d));
              res.on('end', () => {
                firstAnswer();
                if (res.statusCode === 200) outcomes.push(JSON.parse(body).content.length === 200 ? 'complete' : 'short');
                else outcomes.push(String(res.statusCode));
                done();
              });
              res.on('error', () => (outcomes.push('reset'), done()));
            },
          );
          req.on('error', () => (outcomes.push('reset'), done()));
          req.on('socket', (socket) => socket.once('connect', () => req.once('finish', () => ++written === 100 && allWritten())));
        }),
    );
    await sent;
    // Written on connected sockets, and the server is answering them: a moment more for it
    // (busy streaming the exports) to take them all in.
    await answered;
    await sleep(300);
    const answeredBefore = outcomes.length;
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // How soon /readyz says 503 (a new connection each time, as a load balancer's probe).
    let readyzMs = -1;
    for (let i = 0; i < 100; i++) {
      const status = await fetch(`${BASE}/readyz`, { headers: { connection: 'close' } }).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) {
        readyzMs = Date.now() - signalled;
        break;
      }
    }
    const read = await exportRead.read();
    await Promise.all(inflight);
    const code = await server.exited;
    const exitedAfter = Date.now() - signalled;
    const held = await exportHeld.read();
    const tally = (k: string) => outcomes.filter((o) => o === k).length;
    const audit = await (async () => {
      const db = await openDb(dbOptions);
      try {
        return await db.query<{ action: string; params: { completed: boolean }; result_count: number }>(
          'SELECT action, params, result_count FROM audit_log ORDER BY id',
        );
      } finally {
        await db.close();
      }
    })();
    console.log(`\n## Shutdown (${engine}): SIGTERM with 100 JSON requests and 2 exports in flight, export grace 5 s`);
    console.log(
      '\n| JSON answered before SIGTERM | in flight: complete 200 | 503 | reset | /readyz 503 after (ms) | export read on: bytes, clean end | export held: bytes, clean end | exit code | exit after (s) |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    console.log(
      `| ${answeredBefore} | ${tally('complete') - answeredBefore} | ${tally('503')} | ${tally('reset')} | ${readyzMs} | ${read.bytes}, ${read.clean} | ${held.bytes}, ${held.clean} | ${code} | ${(exitedAfter / 1000).toFixed(1)} |`,
    );
    console.log(`\nAudit rows: ${audit.map((r) => `${r.action} completed=${r.params.completed} rows=${r.result_count}`).join('; ')}`);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const needsPg = opt.engine === 'pg' || opt.only !== 'shutdown';
const cluster = needsPg
  ? startCluster({ dir: opt['pg-dir']!, port: Number(opt['pg-port']), logFile: path.join(opt['pg-dir']!, 'server.log'), settings: { shared_buffers: '128MB' } })
  : undefined;
try {
  if (cluster) await ensureDatabase(cluster.url('postgres'), 'stacklens_faults');
  if (opt.only !== 'shutdown') await outage(cluster!);
  if (opt.only !== 'outage') await shutdown(opt.engine === 'pglite' ? 'pglite' : 'pg', opt.engine === 'pglite' ? undefined : cluster);
} finally {
  cluster?.thaw();
  if (cluster?.startedHere) cluster.stop();
}
