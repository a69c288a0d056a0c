// The request queue in front of the database (the `standard` bulkhead: on the embedded
// database, with its one connection, the queue every call waits in): bounded, with a
// deadline, 503 + Retry-After beyond either, the probes never in it. Exports read in keyset
// batches, so a short read waits behind at most one batch statement, never the whole export.
import { availableParallelism } from 'node:os';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/wait.ts';
import { streamCompanies } from '../../src/store/companies.ts';
import { loadConfig } from '../../src/config.ts';
import { everyCompany } from '../helpers/criteria.ts';

const COMPANIES = 60;

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp({ env: { BULKHEAD_STANDARD: '1', BULKHEAD_STANDARD_QUEUE: '1', BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS: '60000' } });
  client = await createTestClient(t.db, 'full');
  const companies = Array.from({ length: COMPANIES }, (_, i) => ({
    id: `cmp_${String(i).padStart(3, '0')}`,
    domain: `co${String(i).padStart(3, '0')}.example`,
  }));
  await insertWorld(t.db, { companies, firmographics: [{ company_id: 'cmp_000', profile: JSON.stringify({ domain: 'co000.example' }) }] });
});
after(() => t.close());

const shortRead = (app = t.app) => app.inject({ method: 'GET', url: '/api/companies/co000.example/firmographics', headers: client.headers });

test('the standard queue: one call runs, one waits, the next is a 503 with Retry-After; the probes answer', async () => {
  const standard = t.app.bulkheads.get('standard');
  const hold = await standard.acquire();
  try {
    const queued = shortRead();
    await waitFor(() => standard.queued === 1, 'the read to queue');
    const refused = await shortRead();
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '60');
    assert.match(refused.json().message, /^The service is busy \(1 requests are running and 1 are waiting, the most this service queues\); retry after 60 s$/);
    assert.equal(refused.json().requestId, refused.headers['x-request-id']);
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    hold();
    assert.equal((await queued).statusCode, 200);
  } finally {
    hold();
  }
});

test('a call queued past BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS is a 503 with Retry-After, not a long wait', async () => {
  const app = await createTestApp({ db: t.db, env: { BULKHEAD_STANDARD: '1', BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS: '20' } });
  try {
    const hold = await app.app.bulkheads.get('standard').acquire();
    try {
      const res = await shortRead(app.app);
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '1');
      assert.match(res.json().message, /waited 20 ms for one of 1 slots for requests/);
    } finally {
      hold();
    }
    assert.equal((await shortRead(app.app)).statusCode, 200);
  } finally {
    await app.close();
  }
});

test('the standard bulkhead defaults to twice the pool on PostgreSQL and 8 calls on the embedded database', () => {
  assert.equal(loadConfig({}).bulkheads.standard.concurrency, 8);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://x/y', DATABASE_POOL_SIZE: '10' }).bulkheads.standard.concurrency, 20);
  // Searches: half the cores, at least one (test/config.test.ts).
  assert.deepEqual(loadConfig({}).bulkheads.search, { concurrency: Math.max(1, Math.floor(availableParallelism() / 2)), queue: 20, queueTimeoutMs: 5000 });
});

test('an export reads in keyset batches and holds no connection between them: short reads complete between every two batches', async () => {
  const all = everyCompany();
  const batch = 5; // 12 batches here; the API's exports read 1,000 rows per batch
  const rows = streamCompanies(t.db, all, undefined, batch)[Symbol.asyncIterator]();
  let seen = 0;
  let between = 0;
  for (;;) {
    // One batch's rows (the next batch's statement is sent as this one arrives)...
    let done = false;
    for (let i = 0; i < batch && !done; i++) {
      done = (await rows.next()).done === true;
      if (!done) seen++;
    }
    if (done) break;
    // ...then, with the export open and not yet finished, a short read through the API
    // completes: on the embedded database it waits behind at most the batch in flight.
    const res = await shortRead();
    assert.equal(res.statusCode, 200, res.body);
    between++;
  }
  assert.equal(seen, COMPANIES, 'the export read every company');
  assert.equal(between, COMPANIES / batch, 'a short read completed between every two batches');
});
