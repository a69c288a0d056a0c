// The bulkhead on its own: slots, a FIFO queue, a full queue and a passed deadline refused
// with 503 + Retry-After, a caller that gives up leaving the queue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bulkhead } from '../src/bulkhead.ts';
import { ServiceUnavailableError } from '../src/errors.ts';

const settled = async (p: Promise<unknown>) => {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  // Two turns of the microtask queue: enough for an already-settled promise to report.
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

test('slots up to the concurrency, then a FIFO queue; a released slot passes to the first waiter', async () => {
  const b = new Bulkhead('search', { concurrency: 2, queue: 5, queueTimeoutMs: 60_000 });
  const r1 = await b.acquire();
  const r2 = await b.acquire();
  const order: string[] = [];
  const w3 = b.acquire().then((r) => (order.push('third'), r));
  const w4 = b.acquire().then((r) => (order.push('fourth'), r));
  assert.deepEqual([b.active, b.queued], [2, 2]);
  assert.equal(await settled(w3), false, 'the third waits while both slots are taken');
  r1();
  r1(); // a second release does nothing
  const r3 = await w3;
  assert.deepEqual(order, ['third']);
  assert.deepEqual([b.active, b.queued], [2, 1]);
  r2();
  const r4 = await w4;
  assert.deepEqual(order, ['third', 'fourth']);
  r3();
  r4();
  assert.deepEqual([b.active, b.queued], [0, 0]);
});

test('a full queue is refused at once: 503 with Retry-After, the message saying why', async () => {
  const b = new Bulkhead('search', { concurrency: 1, queue: 1, queueTimeoutMs: 3500 });
  const release = await b.acquire();
  const waiting = b.acquire();
  await assert.rejects(b.acquire(), (err: unknown) => {
    assert.ok(err instanceof ServiceUnavailableError);
    assert.equal(err.status, 503);
    assert.equal(err.headers['retry-after'], '4', 'the queue deadline rounded up to whole seconds');
    assert.match(err.message, /^The service is busy \(1 searches are running and 1 are waiting, the most this service queues\); retry after 4 s$/);
    return true;
  });
  release();
  (await waiting)();
  assert.deepEqual([b.active, b.queued], [0, 0]);
});

test('a wait past the queue deadline is refused with 503 and leaves the queue', async () => {
  const b = new Bulkhead('export', { concurrency: 1, queue: 10, queueTimeoutMs: 5 });
  const release = await b.acquire();
  await assert.rejects(b.acquire(), (err: unknown) => err instanceof ServiceUnavailableError && /waited 5 ms for one of 1 slots for exports/.test(err.message));
  assert.equal(b.queued, 0);
  release();
  assert.equal(b.active, 0, 'the slot is free again: nobody was left queued');
});

test('a caller that gives up (client gone) leaves the queue without taking a slot', async () => {
  const b = new Bulkhead('ai', { concurrency: 1, queue: 10, queueTimeoutMs: 60_000 });
  const release = await b.acquire();
  const gone = new AbortController();
  const waiting = b.acquire(gone.signal);
  const next = b.acquire();
  gone.abort(new Error('client gone'));
  await assert.rejects(waiting, /client gone/);
  assert.equal(b.queued, 1);
  release();
  (await next)();
  assert.deepEqual([b.active, b.queued], [0, 0]);
});

test('run() holds a slot for the call and gives it back when the call fails', async () => {
  const b = new Bulkhead('peers', { concurrency: 1, queue: 0, queueTimeoutMs: 1000 });
  await assert.rejects(
    b.run(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await b.run(() => 42), 42);
  assert.equal(b.active, 0);
});
