// Graceful shutdown of the real `stacklens serve` process, on the engine of the suite (PGlite
// in a data folder, or a fresh PostgreSQL database), with work in flight when SIGTERM
// arrives: JSON requests whose bodies are still on their way, a CSV export and a JSON Lines
// stream held by readers that have stopped reading. Then /readyz and new requests are 503
// at once, the JSON requests complete with full bodies, the CSV export the client goes on
// reading completes, the JSONL one still held when the grace period ends is cut so that
// the client sees an error (no terminating chunk), both leave audit rows (completed true /
// false), and the process exits 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parse } from 'csv-parse/sync';
import { openDb, type Db, type OpenDbOptions } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertLargeCompany } from '../helpers/large-company.ts';
import { TEST_DATABASE_URL } from '../helpers/db.ts';
import { freePortInRange } from '../helpers/ports.ts';
import { startServe, waitReady } from '../helpers/serve-process.ts';

const PRODUCTS = 20_000;

/** A database for the server: a PGlite folder, or a new database on the suite's PostgreSQL server. */
async function serverDatabase(dataDir: string): Promise<{ options: OpenDbOptions; env: Record<string, string>; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) return { options: { dataDir }, env: {}, drop: async () => {} };
  const name = `sl_shutdown_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`).finally(() => admin.end());
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    options: { databaseUrl: url.href },
    env: { DATABASE_URL: url.href },
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => c.end());
    },
  };
}

/**
 * A POST whose headers are sent now and whose body is sent by `finish()`: in flight until then.
 * `Expect: 100-continue` makes the server say when it has read the headers (and started the
 * request): `started` resolves on its "100 Continue".
 */
function heldPost(
  port: number,
  headers: Record<string, string>,
  pathAndQuery: string,
): { started: Promise<void>; finish(): Promise<{ status: number; body: string }> } {
  const socket = net.connect(port, '127.0.0.1');
  const body = '{}';
  const head = [
    `POST ${pathAndQuery} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${body.length}`,
    'Expect: 100-continue',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  let raw = '';
  let started!: () => void;
  const continued = new Promise<void>((resolve) => (started = resolve));
  socket.on('data', (d) => {
    raw += d;
    if (raw.startsWith('HTTP/1.1 100')) started();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  return {
    started: continued,
    async finish() {
      socket.write(body);
      await closed; // the server closes the connection after answering while it drains
      const final = raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const [head = '', rest = ''] = final.split('\r\n\r\n', 2) as [string, string];
      return { status: Number(head.split(' ')[1]), body: rest };
    },
  };
}

/** A GET whose reader stops after the headers; `read()` resumes and resolves with the body or the error. */
function pausedGet(
  port: number,
  headers: Record<string, string>,
  pathAndQuery: string,
): Promise<{ status: number; read(): Promise<{ body: string; error?: string }> }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, headers, agent: false }, (res) => {
      res.pause();
      resolve({
        status: res.statusCode!,
        read: () =>
          new Promise((done) => {
            const chunks: Buffer[] = [];
            res.on('data', (d: Buffer) => chunks.push(d));
            res.on('end', () => done({ body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', (err) => done({ body: Buffer.concat(chunks).toString('utf8'), error: err.message }));
            res.resume();
          }),
      });
    });
    req.on('error', reject);
  });
}

/** A GET on a connection of its own (no keep-alive pool), read to the end. */
function newConnectionGet(
  port: number,
  headers: Record<string, string>,
  pathAndQuery: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathAndQuery, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

test('SIGTERM: readiness 503 at once, in-flight JSON complete, exports finish or are cut detectably, audited, exit 0', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-shutdown-'));
  const database = await serverDatabase(dataDir);
  try {
    let c: TestClient;
    {
      const db: Db = await openDb(database.options);
      await migrate(db);
      await insertLargeCompany(db, PRODUCTS);
      c = await createTestClient(db, 'full');
      await db.close();
    }
    const port = await freePortInRange();
    const server = startServe(dataDir, port, {
      ...database.env,
      SEED_DEMO: 'false',
      SHUTDOWN_EXPORT_GRACE_SECONDS: '15',
      LOG_LEVEL: 'info',
      // Time limits are not under test here: a loaded machine must not turn a held request into a 503.
      DATABASE_READ_TIMEOUT_MS: '60000',
      DATABASE_ACQUIRE_TIMEOUT_MS: '60000',
      // Two exports of one client at once (one export each is the default share).
      BULKHEAD_EXPORT_PER_CLIENT: '2',
    });
    await waitReady(server);
    const base = `http://127.0.0.1:${port}`;

    const csv = await pausedGet(
      port,
      { ...c.headers, 'x-on-behalf-of-user': 'ops@example.com', accept: 'text/csv' },
      '/api/companies/big.com/products?export=true',
    );
    const jsonl = await pausedGet(port, c.headers, '/api/companies/big.com/products/json');
    assert.equal(csv.status, 200);
    assert.equal(jsonl.status, 200);
    const held = Array.from({ length: 5 }, () => heldPost(port, c.headers, '/api/companies/big.com/products/paged?size=200'));
    await Promise.all(held.map((h) => h.started));

    server.child.kill('SIGTERM');
    // Until the signal is handled, /readyz may also say 503 for a busy embedded database on a
    // loaded machine: wait for the shutdown's own 503.
    const readiness = async () => {
      const res = await fetch(`${base}/readyz`);
      return { status: res.status, message: res.status === 503 ? ((await res.json()) as { message: string }).message : '' };
    };
    let ready = await readiness();
    for (let i = 0; i < 100 && !/shutting down/.test(ready.message); i++) ready = await readiness();
    assert.equal(ready.status, 503, 'readiness turns 503');
    assert.match(ready.message, /shutting down/);
    // On a new connection: fetch could reuse an idle keep-alive connection of the polling
    // above, opened before the signal, whose next request is served as one on its way.
    const late = await newConnectionGet(port, c.headers, '/api/me');
    assert.equal(late.status, 503, 'a new request is refused with 503');
    assert.ok(Number(late.headers['retry-after']) >= 1);
    assert.equal(late.headers.connection, 'close');
    assert.deepEqual(Object.keys(JSON.parse(late.body) as object).sort(), ['error', 'message', 'path', 'requestId', 'status']);

    const answers = await Promise.all(held.map((h) => h.finish()));
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer));
      // The whole chunked or sized body: its page of 200 records parses.
      const json = answer.body.includes('\r\n') && /^[0-9a-f]+\r\n/.test(answer.body) ? dechunk(answer.body) : answer.body;
      assert.equal(JSON.parse(json).content.length, 200);
    }

    const csvBody = await csv.read();
    assert.equal(csvBody.error, undefined, 'the export read within the grace period completes');
    assert.equal(parse(csvBody.body, { columns: true }).length, PRODUCTS);

    assert.equal(await server.exited, 0, server.output());
    const cut = await jsonl.read();
    assert.ok(cut.error, 'the export cut at the end of the grace period ends in an error, not a clean end');
    const lines = cut.body.split('\n').filter(Boolean);
    assert.ok(lines.length < PRODUCTS, `cut short: ${lines.length} lines`);

    const db = await openDb(database.options);
    try {
      const rows = await db.query<{ action: string; on_behalf_of: string | null; params: { completed: boolean }; result_count: number }>(
        'SELECT action, on_behalf_of, params, result_count FROM audit_log ORDER BY id',
      );
      const csvRow = rows.find((r) => r.action === 'company-products.export.csv');
      const jsonlRow = rows.find((r) => r.action === 'company-products.export.jsonl');
      assert.deepEqual([csvRow?.params.completed, csvRow?.result_count, csvRow?.on_behalf_of], [true, PRODUCTS, 'ops@example.com']);
      assert.equal(jsonlRow?.params.completed, false, 'the cut export is audited as incomplete');
      assert.equal(jsonlRow?.on_behalf_of, null);
      assert.ok(jsonlRow!.result_count < PRODUCTS && jsonlRow!.result_count >= lines.length);
    } finally {
      await db.close();
    }
  } finally {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The payload of a chunked HTTP/1.1 body. */
function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
