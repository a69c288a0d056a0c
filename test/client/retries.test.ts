// The typed client's retries against the real server: a 429 waits exactly the server's
// Retry-After and succeeds; a 503 (service starting) likewise; the waits are bounded.
// The client's sleep advances the server's clock instead of waiting, so nothing is timed.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createStacklensClient, StacklensError } from '../../clients/typescript/src/index.ts';
import { now, setClock } from '../../src/clock.ts';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../helpers/app.ts';
import { freePortInRange } from '../helpers/ports.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { createCredentials, defineTinyPlan, startClientTestServer, type ClientTestServer } from './server.ts';

let s: ClientTestServer;
before(async () => {
  s = await startClientTestServer({ memoryCounters: true });
  await defineTinyPlan(s.db);
  await insertWorld(s.db, {
    companies: [
      { id: 'cmp_us', domain: 'us.example', country: 'US' },
      { id: 'cmp_de', domain: 'de.example', country: 'DE' },
    ],
  });
});
after(() => s.close());
afterEach(() => {
  setClock();
  s.readiness.ready = true;
  s.sent.length = 0;
});

/** A fresh tiny-plan client per test, so each starts with a full quota (4 requests a minute). */
async function tinyClient(extra: { maxAttempts?: number; maxTotalWaitMs?: number } = {}, whileWaiting?: () => void) {
  const key = (await createCredentials(s.db, 'tiny')).apiKey;
  const slept: number[] = [];
  const client = createStacklensClient({
    baseUrl: s.baseUrl,
    apiKey: key,
    fetch: s.fetch,
    now,
    retry: { maxAttempts: 3, ...extra },
    // Waiting moves the clock the server's rate-limit windows follow.
    sleep: async (ms) => {
      slept.push(ms);
      const t = now() + ms;
      setClock(() => t);
      whileWaiting?.();
    },
  });
  return { client, slept };
}

test('a 429 is retried (body and all) after exactly the Retry-After the server sent', async () => {
  const { client, slept } = await tinyClient();
  for (let i = 0; i < 4; i++) await client.get('/api/industries');
  // A POST, so the retry must send its body again.
  const page = await client.post('/api/companies/search', { params: { query: { size: 3 } }, body: { countries: ['US'] } });
  assert.deepEqual(
    page.content.map((c) => c.domain),
    ['us.example'],
    'the filter in the body held on the retry',
  );
  const statuses = s.sent.map((r) => r.status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 429, 200]);
  const retryAfter = Number(s.sent[4]!.retryAfter);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.deepEqual(slept, [retryAfter * 1000]);
});

test('retries are bounded: out of attempts, the 429 is a typed error', async () => {
  const { client, slept } = await tinyClient({ maxAttempts: 1 });
  for (let i = 0; i < 4; i++) await client.get('/api/industries');
  await assert.rejects(client.get('/api/industries'), (err: unknown) => {
    assert.ok(err instanceof StacklensError);
    assert.equal(err.status, 429);
    assert.equal(err.error, 'Too Many Requests');
    assert.match(err.message, /Rate limit exceeded/);
    assert.ok(err.response?.headers.get('retry-after'));
    return true;
  });
  assert.deepEqual(slept, []);
});

test('a Retry-After longer than the total wait allowed is not waited for', async () => {
  const { client, slept } = await tinyClient({ maxTotalWaitMs: 500 });
  for (let i = 0; i < 4; i++) await client.get('/api/industries');
  await assert.rejects(client.get('/api/industries'), (err: unknown) => err instanceof StacklensError && err.status === 429);
  assert.deepEqual(slept, []);
  assert.equal(s.sent.length, 5);
});

test('a 503 while the service starts is retried after its Retry-After', async () => {
  // The service finishes starting while the client waits.
  const { client, slept } = await tinyClient({}, () => (s.readiness.ready = true));
  s.readiness.ready = false;
  const me = await client.get('/api/me');
  assert.equal(me.plan, 'tiny');
  assert.deepEqual(
    s.sent.map((r) => `${r.status} ${r.retryAfter}`),
    ['503 5', '200 null'],
  );
  assert.deepEqual(slept, [5000]);
});

test('a 503 that lasts is given up after the attempts allowed, as a typed error', async () => {
  const { client, slept } = await tinyClient({ maxAttempts: 3 });
  s.readiness.ready = false;
  await assert.rejects(client.get('/api/me'), (err: unknown) => err instanceof StacklensError && err.status === 503 && err.message === 'Starting up');
  assert.deepEqual(slept, [5000, 5000]);
  assert.equal(s.sent.length, 3);
});

test('a GET whose connection fails is retried with growing backoff; a POST is not retried', async () => {
  // A second instance of the service on the same database, not listening yet.
  const port = await freePortInRange();
  const second = await buildApp({ config: testConfig(), db: s.db });
  try {
    const key = (await createCredentials(s.db, 'full')).apiKey;
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
      // The service comes up during the second wait.
      if (slept.length === 2) await second.listen({ port, host: '127.0.0.1' });
    };
    const client = createStacklensClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key, sleep, retry: { baseDelayMs: 100 } });
    const me = await client.get('/api/me');
    assert.equal(me.plan, 'full');
    assert.equal(slept.length, 2);
    assert.ok(slept[0]! >= 50 && slept[0]! <= 100, `first backoff ${slept[0]}`);
    assert.ok(slept[1]! >= 100 && slept[1]! <= 200, `second backoff ${slept[1]}`);
    await second.close();
    await assert.rejects(client.post('/api/companies/search', { body: {} }), TypeError);
    assert.equal(slept.length, 2, 'a POST may have been done: not repeated');
    const waits: number[] = [];
    const bounded = createStacklensClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: key,
      sleep: async (ms) => void waits.push(ms),
      retry: { maxAttempts: 3 },
    });
    await assert.rejects(bounded.get('/api/me'), TypeError);
    assert.equal(waits.length, 2, 'three attempts, two waits');
  } finally {
    await second.close();
  }
});
