// The counter store's two kinds (fixed windows, backoff slots), on both stores (memory and,
// when it answers, Redis: the same scenarios hold them equal), and the memory store's bound:
// a flood of new keys fills only its own class and never evicts a live counter.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { backoffDelayMs, MAX_KEYS_PER_CLASS, MemoryCounterStore, RedisCounterStore, type BackoffRule, type CounterStore } from '../../src/auth/counters.ts';
import { setClock } from '../../src/clock.ts';
import { redisAnswers } from '../helpers/redis.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const stores: { name: string; open(): Promise<CounterStore | undefined> }[] = [
  { name: 'memory', open: async () => new MemoryCounterStore() },
  { name: 'redis', open: async () => ((await redisAnswers(REDIS_URL)) ? RedisCounterStore.connect(REDIS_URL, () => {}) : undefined) },
];
after(() => setClock());

test('backoff delay: free attempts, then from the base delay doubling up to the cap', () => {
  const rule = { free: 3, baseMs: 1000, maxMs: 60_000 };
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 100].map((n) => backoffDelayMs(n, rule)),
    [0, 0, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000],
  );
});

for (const kind of stores) {
  test(`${kind.name} store: a backoff slot is taken before the attempt, so concurrent attempts cannot all start; waits grow, refunds shorten them`, async (t) => {
    const store = await kind.open();
    if (!store) return t.skip(`Redis unreachable at ${REDIS_URL}`);
    const T = Date.now();
    setClock(() => T);
    try {
      const run = randomUUID();
      const rule = (key: string, free = 2): BackoffRule => ({ key: `test:{${run}}:${key}`, free, baseMs: 1000, maxMs: 4000, forgetMs: 60_000 });
      // 16 at once against 2 free attempts: 2 start.
      const outcomes = await Promise.all(Array.from({ length: 16 }, () => store.takeSlot([rule('a')])));
      assert.equal(outcomes.filter((o) => o.allowed).length, 2);
      const refused = outcomes.find((o) => !o.allowed)!;
      assert.equal(refused.retryMs, 1000);
      // After the wait, one more, then the wait doubles, up to the cap.
      const waits: number[] = [];
      let at = T;
      for (let i = 0; i < 4; i++) {
        at += (await store.takeSlot([rule('a')])).retryMs;
        setClock(() => at);
        assert.equal((await store.takeSlot([rule('a')])).allowed, true);
        waits.push((await store.takeSlot([rule('a')])).retryMs);
      }
      assert.deepEqual(waits, [2000, 4000, 4000, 4000]);
      // All or none over several keys: a key that must wait holds the others back, and spends nothing of them.
      const before = await store.takeSlot([rule('b', 5)]);
      assert.equal(before.allowed, true);
      const both = await store.takeSlot([rule('b', 5), rule('a')]);
      assert.equal(both.allowed, false);
      assert.deepEqual((await store.takeSlot([rule('b', 5)])).counts, [2]);
      // A refund gives the attempt back: under the free count again, no wait.
      const c = rule('c', 1);
      assert.equal((await store.takeSlot([c])).allowed, true);
      assert.equal((await store.takeSlot([c])).allowed, false);
      await store.refundSlot([c]);
      assert.equal((await store.takeSlot([c])).allowed, true);
      // Forgotten forgetMs after the last attempt (Redis expires keys by its own clock, which tests cannot move).
      if (store.kind === 'memory') {
        setClock(() => at + 60_001);
        assert.deepEqual((await store.takeSlot([rule('a')])).counts, [1]);
      }
    } finally {
      await store.close();
    }
  });
}

test('memory store: a flood of new keys fills its own class only and evicts no live counter', async () => {
  const store = new MemoryCounterStore();
  try {
    // A client id locked out at the token endpoint, a backoff in progress, and a client's quota.
    const locked = 'tf:{victim}:203.0.113.7';
    for (let i = 0; i < 10; i++) await store.consume([{ key: locked, limit: Infinity }], 300_000);
    await store.takeSlot([{ key: 'lf:{owner@example.com}:203.0.113.7', free: 1, baseMs: 1000, maxMs: 60_000, forgetMs: 900_000 }]);
    await store.consume([{ key: 'rl:{cli_busy}:default', limit: 600 }], 60_000);
    // An attacker floods random client ids (and emails) past the old global cap of 200,000 keys.
    for (let i = 0; i < 250_000; i++) await store.consume([{ key: `tf:{flood-${i}}:198.51.100.1`, limit: Infinity }], 300_000);
    for (let i = 0; i < 1000; i++)
      await store.takeSlot([{ key: `lf:{flood-${i}@example.com}:198.51.100.1`, free: 10, baseMs: 1000, maxMs: 60_000, forgetMs: 900_000 }]);
    assert.equal((await store.peek(locked)).count, 10, 'the locked-out key keeps its count');
    assert.equal(
      (await store.takeSlot([{ key: 'lf:{owner@example.com}:203.0.113.7', free: 1, baseMs: 1000, maxMs: 60_000, forgetMs: 900_000 }])).allowed,
      false,
      'the backoff still holds',
    );
    assert.equal((await store.peek('rl:{cli_busy}:default')).count, 1, "another class's quota is untouched");
    assert.ok(store.size('tf') <= MAX_KEYS_PER_CLASS);
    // The full class refuses a new key (spends nothing) rather than evict; other classes still take new keys.
    assert.equal((await store.consume([{ key: 'tf:{one-more}:198.51.100.2', limit: 10 }], 300_000)).allowed, false);
    assert.equal((await store.consume([{ key: 'rl:{cli_new}:default', limit: 600 }], 60_000)).allowed, true);
  } finally {
    await store.close();
  }
});

test('memory store: once the windows of a flood end, the class takes new keys again', async () => {
  const T = Date.now();
  setClock(() => T);
  const store = new MemoryCounterStore(100);
  try {
    for (let i = 0; i < 100; i++) await store.consume([{ key: `af:{10.0.0.${i}}`, limit: 5 }], 60_000);
    assert.equal((await store.consume([{ key: 'af:{10.0.1.1}', limit: 5 }], 60_000)).allowed, false);
    setClock(() => T + 60_001);
    assert.equal((await store.consume([{ key: 'af:{10.0.1.1}', limit: 5 }], 60_000)).allowed, true);
    assert.equal(store.size('af'), 1);
  } finally {
    await store.close();
    setClock();
  }
});
