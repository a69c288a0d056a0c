// Export readers are bounded and export slots shared: a reader that takes the file slower
// than EXPORT_MIN_BYTES_PER_SECOND (over EXPORT_RATE_WINDOW_SECONDS), or an export past
// EXPORT_MAX_SECONDS, is cut (an incomplete reply, never a silently short file) and its audit
// entry says why; one client's slow readers hold at most BULKHEAD_EXPORT_PER_CLIENT slots, so
// another client's export still runs. Real ports: the reader's pace is the socket's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertLargeCompany } from '../helpers/large-company.ts';
import { freePortInRange } from '../helpers/ports.ts';
import { waitFor } from '../helpers/wait.ts';
import { metricValue } from '../helpers/metrics.ts';

// Enough records (about 10 MB of JSON Lines) that a reader that stops reading holds the
// reply up once the sockets' buffers are full.
const PRODUCTS = 20_000;
const JSONL = '/api/companies/big.com/products/json';

let t: TestApp;
let a: TestClient;
let b: TestClient;
before(async () => {
  t = await createTestApp();
  a = await createTestClient(t.db, 'full');
  b = await createTestClient(t.db, 'full');
  await insertLargeCompany(t.db, PRODUCTS);
  // The first read of the fresh tables is slow on a loaded machine; pay it before any bound is timed.
  const warm = await t.app.inject({ method: 'GET', url: JSONL, headers: b.headers });
  assert.equal(warm.statusCode, 200);
});
after(() => t.close());

/** An app on a real port sharing the test database. */
async function listening(env: Record<string, string>): Promise<{ app: TestApp; port: number }> {
  const port = await freePortInRange();
  const app = await createTestApp({ db: t.db, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, ...env } });
  await app.app.listen({ host: '127.0.0.1', port });
  return { app, port };
}

/** A GET whose reader stops after the headers; `read()` resumes and resolves with the body length or the error. */
function pausedGet(
  port: number,
  headers: Record<string, string>,
  path: string,
): Promise<{ status: number; read(): Promise<{ bytes: number; error?: string }>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.pause();
      resolve({
        status: res.statusCode!,
        read: () =>
          new Promise((done) => {
            let bytes = 0;
            res.on('data', (d: Buffer) => (bytes += d.length));
            res.on('end', () => done({ bytes }));
            res.on('error', (err) => done({ bytes, error: err.message }));
            res.on('close', () => {
              if (!res.complete) done({ bytes, error: 'closed before the end' });
            });
            res.resume();
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

/** A GET read to the end at once. */
function get(port: number, headers: Record<string, string>, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

type AuditRow = { params: { completed: boolean; cut?: string; cutDetail?: string }; result_count: number };
const auditRows = (clientId: string) =>
  t.db.query<AuditRow>("SELECT params, result_count FROM audit_log WHERE action = 'company-products.export.jsonl' AND client_id = $1 ORDER BY id", [clientId]);

const metric = (app: TestApp, name: string, reason: string) => metricValue(app.app, name, { reason });

test('a reader slower than EXPORT_MIN_BYTES_PER_SECOND is cut; the client sees an incomplete reply; the audit entry says why; the slot is free again', async () => {
  const c = await createTestClient(t.db, 'full');
  const { app, port } = await listening({ EXPORT_MIN_BYTES_PER_SECOND: '100000', EXPORT_RATE_WINDOW_SECONDS: '1' });
  try {
    const cutBefore = await metric(app, 'stacklens_exports_cut_total', 'slow_reader');
    const reader = await pausedGet(port, c.headers, JSONL);
    assert.equal(reader.status, 200);
    await waitFor(async () => (await auditRows(c.clientId)).length === 1, 'the cut export to be audited');
    const [row] = await auditRows(c.clientId);
    assert.equal(row!.params.completed, false);
    assert.equal(row!.params.cut, 'slow_reader');
    assert.match(row!.params.cutDetail!, /under EXPORT_MIN_BYTES_PER_SECOND \(100000 bytes\/s\)/);
    assert.ok(row!.result_count < PRODUCTS, `cut short: ${row!.result_count} rows`);
    const read = await reader.read();
    assert.ok(read.error, 'the cut reply ends in an error, not a clean end');
    assert.equal(await metric(app, 'stacklens_exports_cut_total', 'slow_reader'), cutBefore + 1);
    await waitFor(() => app.app.bulkheads.get('export').active === 0, 'the export slot to be given back');
  } finally {
    await app.close();
  }
});

test('an export past EXPORT_MAX_SECONDS is cut, and audited as such', async () => {
  const c = await createTestClient(t.db, 'full');
  const { app, port } = await listening({ EXPORT_MIN_BYTES_PER_SECOND: '0', EXPORT_MAX_SECONDS: '1' });
  try {
    const reader = await pausedGet(port, c.headers, JSONL);
    assert.equal(reader.status, 200);
    await waitFor(async () => (await auditRows(c.clientId)).length === 1, 'the cut export to be audited');
    const [row] = await auditRows(c.clientId);
    assert.deepEqual([row!.params.completed, row!.params.cut], [false, 'max_duration']);
    assert.match(row!.params.cutDetail!, /EXPORT_MAX_SECONDS/);
    assert.ok((await reader.read()).error);
  } finally {
    await app.close();
  }
});

test('a reader that keeps up is not cut', async () => {
  const c = await createTestClient(t.db, 'full');
  const { app, port } = await listening({ EXPORT_MIN_BYTES_PER_SECOND: '1000', EXPORT_RATE_WINDOW_SECONDS: '1' });
  try {
    const res = await get(port, c.headers, JSONL);
    assert.equal(res.status, 200);
    assert.equal(res.body.trimEnd().split('\n').length, PRODUCTS);
    const [row] = await auditRows(c.clientId);
    assert.deepEqual([row!.params.completed, row!.params.cut], [true, undefined]);
  } finally {
    await app.close();
  }
});

test("two slow readers of one client do not make another client's export fail: one export slot per client, the next a prompt 429", async () => {
  // The reader bounds are off: the share alone keeps the second client's slot.
  const { app, port } = await listening({ EXPORT_MIN_BYTES_PER_SECOND: '0', EXPORT_MAX_SECONDS: '0', BULKHEAD_EXPORT: '2', BULKHEAD_QUEUE_TIMEOUT_MS: '5000' });
  const readers: { close(): void }[] = [];
  try {
    const shareBefore = await metric(app, 'stacklens_requests_refused_total', 'bulkhead_caller_share');
    const first = await pausedGet(port, a.headers, JSONL);
    readers.push(first);
    assert.equal(first.status, 200);
    const started = performance.now();
    const second = await get(port, a.headers, JSONL);
    assert.equal(second.status, 429, second.body);
    assert.ok(performance.now() - started < 2000, 'refused at once');
    assert.match(JSON.parse(second.body).message, /BULKHEAD_EXPORT_PER_CLIENT/);
    // The other client's export runs to its end while the first client's reader stalls.
    const theirs = await get(port, b.headers, JSONL);
    assert.equal(theirs.status, 200, theirs.body.slice(0, 300));
    assert.equal(theirs.body.trimEnd().split('\n').length, PRODUCTS);
    assert.equal(await metric(app, 'stacklens_requests_refused_total', 'bulkhead_caller_share'), shareBefore + 1);
  } finally {
    for (const r of readers) r.close();
    await app.close();
  }
});
