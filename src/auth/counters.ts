// Counters for rate limits and authentication throttling: in process memory by default, in
// Redis when REDIS_URL is set (shared by every instance). Two kinds:
// - fixed windows (`consume`): atomic over several counters: all are incremented only when
//   all are below their limit, so a refused request spends nothing;
// - backoff slots (`takeSlot`): an attempt may start only once the key's previous attempt
//   has waited out its delay, and the delay grows with the attempts (backoffDelayMs); the
//   slot is taken before the attempt is checked, so concurrent attempts cannot all pass.
// If Redis stops answering, counting continues in memory (per instance, logged) rather
// than failing every request or lifting every limit.
//
// The memory store is bounded per key class (the key's text before its first ':', e.g. `rl`,
// `tf`): a class that is full refuses NEW keys (their consume/takeSlot is refused) until its
// windows expire, and never evicts a live counter. So a flood of random client ids or emails
// fills only its own class, and cannot wipe out a lockout, a backoff or another class's quota.
import { Redis } from 'ioredis';
import { now } from '../clock.ts';

export interface CounterState {
  /** Hits in the current window (after this call, for consume). */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** One key of a backoff slot: see backoffDelayMs; the key is forgotten `forgetMs` after its last attempt (or its delay, if longer). */
export interface BackoffRule {
  key: string;
  /** Attempts with no delay after them. */
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

export interface SlotOutcome {
  allowed: boolean;
  /** When refused: milliseconds until every key allows an attempt again. */
  retryMs: number;
  /** Attempts counted per rule (after this one, when allowed). */
  counts: number[];
}

/**
 * The wait after the n-th attempt (1-based): none for the first `free - 1`, then baseMs,
 * doubling with each attempt, at most maxMs. With free = 2 and concurrent attempts, two
 * start and the rest wait.
 */
export function backoffDelayMs(attempt: number, rule: Pick<BackoffRule, 'free' | 'baseMs' | 'maxMs'>): number {
  if (attempt < rule.free) return 0;
  return Math.min(rule.maxMs, rule.baseMs * 2 ** Math.min(attempt - rule.free, 40));
}

export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  consume(counters: { key: string; limit: number }[], windowMs: number): Promise<{ allowed: boolean; states: CounterState[] }>;
  /** Takes an attempt slot on every rule's key, atomically: all or none (keys of one Redis hash slot). */
  takeSlot(rules: BackoffRule[]): Promise<SlotOutcome>;
  /** Gives a taken slot back (an attempt that turned out not to be a guess): one attempt fewer, and the wait after it shortened to match. */
  refundSlot(rules: BackoffRule[]): Promise<void>;
  peek(key: string): Promise<CounterState>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

const KEY_PREFIX = 'stacklens:';
/** Live keys one class of the memory store holds at most (about 150 bytes each). */
export const MAX_KEYS_PER_CLASS = 100_000;
/** When a class is full, expired keys are looked for at most this often (a sweep is O(keys)). */
const FULL_SWEEP_EVERY_MS = 1000;

interface Entry {
  count: number;
  expiresAt: number;
  /** Backoff slots: no attempt before this time. */
  nextAt?: number;
}

const classOf = (key: string) => {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
};

export class MemoryCounterStore implements CounterStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, Entry>();
  private readonly classSizes = new Map<string, number>();
  private lastFullSweep = -Infinity;
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  constructor(private readonly maxKeysPerClass = MAX_KEYS_PER_CLASS) {}

  async consume(counters: { key: string; limit: number }[], windowMs: number) {
    const t = now();
    const entries = counters.map(({ key }) => this.live(key, t));
    const allowed =
      counters.every((c, i) => (entries[i]?.count ?? 0) < c.limit) &&
      this.roomFor(
        counters.map((c) => c.key),
        entries,
        t,
      );
    const states = counters.map((c, i) => {
      let e = entries[i];
      if (allowed) {
        e ??= this.add(c.key, { count: 0, expiresAt: t + windowMs });
        e.count += 1;
      }
      return { count: e?.count ?? 0, resetMs: e ? e.expiresAt - t : windowMs };
    });
    return { allowed, states };
  }

  async takeSlot(rules: BackoffRule[]): Promise<SlotOutcome> {
    const t = now();
    const entries = rules.map((r) => this.live(r.key, t));
    const waits = entries.map((e) => Math.max(0, (e?.nextAt ?? 0) - t));
    const retryMs = Math.max(0, ...waits);
    if (
      retryMs > 0 ||
      !this.roomFor(
        rules.map((r) => r.key),
        entries,
        t,
      )
    ) {
      return { allowed: false, retryMs: retryMs > 0 ? retryMs : FULL_SWEEP_EVERY_MS, counts: entries.map((e) => e?.count ?? 0) };
    }
    const counts = rules.map((r, i) => {
      const e = entries[i] ?? this.add(r.key, { count: 0, expiresAt: t });
      e.count += 1;
      const delay = backoffDelayMs(e.count, r);
      e.nextAt = t + delay;
      e.expiresAt = t + Math.max(r.forgetMs, delay);
      return e.count;
    });
    return { allowed: true, retryMs: 0, counts };
  }

  async refundSlot(rules: BackoffRule[]): Promise<void> {
    const t = now();
    for (const r of rules) {
      const e = this.live(r.key, t);
      if (!e || e.count === 0) continue;
      e.count -= 1;
      e.nextAt = Math.min(e.nextAt ?? t, t + backoffDelayMs(e.count, r));
    }
  }

  async peek(key: string) {
    const t = now();
    const e = this.live(key, t);
    return e ? { count: e.count, resetMs: e.expiresAt - t } : { count: 0, resetMs: 0 };
  }

  async reset(key: string) {
    this.remove(key);
  }

  async close() {
    clearInterval(this.sweeper);
    this.windows.clear();
    this.classSizes.clear();
  }

  /** How many live keys a class holds (for tests and metrics). */
  size(keyClass: string): number {
    return this.classSizes.get(keyClass) ?? 0;
  }

  private live(key: string, t: number): Entry | undefined {
    const e = this.windows.get(key);
    if (e && e.expiresAt <= t) {
      this.remove(key);
      return undefined;
    }
    return e;
  }

  /** True when every key that must be added fits its class (after dropping expired keys, at most once a second). */
  private roomFor(keys: string[], entries: (Entry | undefined)[], t: number): boolean {
    if (entries.every((e) => e !== undefined)) return true; // the common case: counters already live
    const needed = new Map<string, number>();
    keys.forEach((k, i) => {
      if (!entries[i]) needed.set(classOf(k), (needed.get(classOf(k)) ?? 0) + 1);
    });
    const fits = () => [...needed].every(([c, n]) => this.size(c) + n <= this.maxKeysPerClass);
    if (fits()) return true;
    if (t - this.lastFullSweep < FULL_SWEEP_EVERY_MS) return false;
    this.lastFullSweep = t;
    this.sweep();
    return fits();
  }

  private add(key: string, e: Entry): Entry {
    this.windows.set(key, e);
    const c = classOf(key);
    this.classSizes.set(c, this.size(c) + 1);
    return e;
  }

  private remove(key: string) {
    if (!this.windows.delete(key)) return;
    const c = classOf(key);
    this.classSizes.set(c, this.size(c) - 1);
  }

  private sweep() {
    const t = now();
    for (const [k, e] of this.windows) if (e.expiresAt <= t) this.remove(k);
  }
}

// KEYS: the counters; ARGV[1]: window ms; ARGV[2..]: their limits. Returns
// [allowed, count1, ttl1, count2, ttl2, ...].
const CONSUME_LUA = `
local window = tonumber(ARGV[1])
local allowed = 1
local counts = {}
for i = 1, #KEYS do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if counts[i] >= tonumber(ARGV[i + 1]) then allowed = 0 end
end
local out = { allowed }
for i = 1, #KEYS do
  local c = counts[i]
  if allowed == 1 then c = redis.call('INCR', KEYS[i]) end
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl == -1 then redis.call('PEXPIRE', KEYS[i], window); ttl = window end
  if ttl == -2 then ttl = window end
  out[#out + 1] = c
  out[#out + 1] = ttl
end
return out`;

// KEYS: the slots' keys (hashes: c = attempts, n = no attempt before, ms); ARGV[1]: now (ms);
// then per key: free, baseMs, maxMs, forgetMs. Returns [allowed, retryMs, count1, count2, ...].
// The delay is backoffDelayMs's.
const TAKE_SLOT_LUA = `
local t = tonumber(ARGV[1])
local retry = 0
local counts = {}
for i = 1, #KEYS do
  local v = redis.call('HMGET', KEYS[i], 'c', 'n')
  counts[i] = tonumber(v[1] or '0')
  local wait = tonumber(v[2] or '0') - t
  if wait > retry then retry = wait end
end
if retry > 0 then
  local out = { 0, retry }
  for i = 1, #KEYS do out[#out + 1] = counts[i] end
  return out
end
local out = { 1, 0 }
for i = 1, #KEYS do
  local a = 2 + (i - 1) * 4
  local free, base, max, forget = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local c = counts[i] + 1
  local delay = 0
  if c >= free then delay = math.min(max, base * 2 ^ math.min(c - free, 40)) end
  redis.call('HSET', KEYS[i], 'c', c, 'n', t + delay)
  redis.call('PEXPIRE', KEYS[i], math.max(forget, delay))
  out[#out + 1] = c
end
return out`;

// KEYS: the slots' keys; ARGV[1]: now (ms); then per key: free, baseMs, maxMs. The refund of
// MemoryCounterStore.refundSlot.
const REFUND_SLOT_LUA = `
local t = tonumber(ARGV[1])
for i = 1, #KEYS do
  local a = 2 + (i - 1) * 3
  local free, base, max = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  local v = redis.call('HMGET', KEYS[i], 'c', 'n')
  local c = tonumber(v[1] or '0')
  if c > 0 then
    c = c - 1
    local delay = 0
    if c >= free then delay = math.min(max, base * 2 ^ math.min(c - free, 40)) end
    redis.call('HSET', KEYS[i], 'c', c, 'n', math.min(tonumber(v[2] or '0'), t + delay))
  end
end
return 1`;

export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis';
  private readonly fallback = new MemoryCounterStore();
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly warn: (message: string, err: unknown) => void,
  ) {
    redis.defineCommand('stacklensConsume', { lua: CONSUME_LUA });
    redis.defineCommand('stacklensTakeSlot', { lua: TAKE_SLOT_LUA });
    redis.defineCommand('stacklensRefundSlot', { lua: REFUND_SLOT_LUA });
  }

  /** Connects (waiting at most `timeoutMs`); the store works, in memory, until Redis answers. */
  static async connect(url: string, warn: (message: string, err: unknown) => void, timeoutMs = 2000): Promise<RedisCounterStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
      connectTimeout: timeoutMs,
      retryStrategy: (times) => Math.min(times * 200, 5000),
    });
    const store = new RedisCounterStore(redis, warn);
    redis.on('error', (err) => store.warnOnce('Redis connection error; rate limits count in memory until it is back', err));
    await Promise.race([redis.connect(), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]).catch((err) =>
      store.warnOnce(`Redis at REDIS_URL is not answering; rate limits count in memory until it is`, err),
    );
    return store;
  }

  async consume(counters: { key: string; limit: number }[], windowMs: number) {
    try {
      const keys = counters.map((c) => KEY_PREFIX + c.key);
      const limits = counters.map((c) => (Number.isFinite(c.limit) ? c.limit : Number.MAX_SAFE_INTEGER));
      const out: number[] = await (this.redis as any).stacklensConsume(keys.length, ...keys, windowMs, ...limits);
      const states = counters.map((_, i) => ({ count: Number(out[1 + 2 * i]), resetMs: Number(out[2 + 2 * i]) }));
      return { allowed: Number(out[0]) === 1, states };
    } catch (err) {
      this.warnOnce('Redis rate-limit call failed; counting in memory', err);
      return this.fallback.consume(counters, windowMs);
    }
  }

  async takeSlot(rules: BackoffRule[]): Promise<SlotOutcome> {
    try {
      const keys = rules.map((r) => KEY_PREFIX + r.key);
      const args = rules.flatMap((r) => [r.free, r.baseMs, r.maxMs, r.forgetMs]);
      const out: number[] = await (this.redis as any).stacklensTakeSlot(keys.length, ...keys, now(), ...args);
      return { allowed: Number(out[0]) === 1, retryMs: Number(out[1]), counts: rules.map((_, i) => Number(out[2 + i])) };
    } catch (err) {
      this.warnOnce('Redis throttle call failed; counting in memory', err);
      return this.fallback.takeSlot(rules);
    }
  }

  async refundSlot(rules: BackoffRule[]): Promise<void> {
    await this.fallback.refundSlot(rules);
    try {
      const keys = rules.map((r) => KEY_PREFIX + r.key);
      await (this.redis as any).stacklensRefundSlot(keys.length, ...keys, now(), ...rules.flatMap((r) => [r.free, r.baseMs, r.maxMs]));
    } catch (err) {
      this.warnOnce('Redis throttle call failed; counting in memory', err);
    }
  }

  async peek(key: string) {
    try {
      // exec() answers null when the transaction is discarded, and one [error, reply] per command otherwise.
      const [get, pttl] =
        (await this.redis
          .multi()
          .get(KEY_PREFIX + key)
          .pttl(KEY_PREFIX + key)
          .exec()) ?? [];
      if (!get || !pttl) throw new Error(`Redis MULTI for ${key} returned no replies`);
      const [, count] = get;
      const [, ttl] = pttl;
      return { count: Number(count ?? 0), resetMs: Math.max(0, Number(ttl)) };
    } catch (err) {
      this.warnOnce('Redis call failed; counting in memory', err);
      return this.fallback.peek(key);
    }
  }

  async reset(key: string) {
    await this.fallback.reset(key);
    try {
      await this.redis.del(KEY_PREFIX + key);
    } catch (err) {
      this.warnOnce('Redis call failed; counting in memory', err);
    }
  }

  async close() {
    await this.fallback.close();
    this.redis.disconnect();
  }

  private warnOnce(message: string, err: unknown) {
    if (now() - this.lastWarning < 30_000) return;
    this.lastWarning = now();
    this.warn(message, err);
  }
}

export async function openCounterStore(redisUrl: string | undefined, warn: (message: string, err: unknown) => void): Promise<CounterStore> {
  return redisUrl ? RedisCounterStore.connect(redisUrl, warn) : new MemoryCounterStore();
}
