// Fixed-window counters for rate limits and failed-login throttling: in process memory by
// default, in Redis when REDIS_URL is set (shared by every instance). `consume` is atomic
// over several counters: all are incremented only when all are below their limit, so a
// refused request spends nothing. If Redis stops answering, counting continues in memory
// (per instance, logged) rather than failing every request or lifting every limit.
import { Redis } from 'ioredis';
import { now } from '../clock.ts';

export interface CounterState {
  /** Hits in the current window (after this call, for consume). */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  consume(counters: { key: string; limit: number }[], windowMs: number): Promise<{ allowed: boolean; states: CounterState[] }>;
  peek(key: string): Promise<CounterState>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

const KEY_PREFIX = 'stacklens:';
const MAX_MEMORY_KEYS = 200_000;

export class MemoryCounterStore implements CounterStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, { count: number; expiresAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async consume(counters: { key: string; limit: number }[], windowMs: number) {
    const t = now();
    const entries = counters.map(({ key }) => {
      const e = this.windows.get(key);
      return e && e.expiresAt > t ? e : undefined;
    });
    const allowed = counters.every((c, i) => (entries[i]?.count ?? 0) < c.limit);
    const states = counters.map((c, i) => {
      let e = entries[i];
      if (allowed) {
        if (!e) {
          if (this.windows.size >= MAX_MEMORY_KEYS) this.sweep();
          e = { count: 0, expiresAt: t + windowMs };
          this.windows.set(c.key, e);
        }
        e.count += 1;
      }
      return { count: e?.count ?? 0, resetMs: e ? e.expiresAt - t : windowMs };
    });
    return { allowed, states };
  }

  async peek(key: string) {
    const e = this.windows.get(key);
    const t = now();
    return e && e.expiresAt > t ? { count: e.count, resetMs: e.expiresAt - t } : { count: 0, resetMs: 0 };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  async close() {
    clearInterval(this.sweeper);
    this.windows.clear();
  }

  private sweep() {
    const t = now();
    for (const [k, e] of this.windows) if (e.expiresAt <= t) this.windows.delete(k);
    // Still full (a flood of distinct keys): drop the oldest windows rather than grow.
    if (this.windows.size >= MAX_MEMORY_KEYS) {
      let drop = this.windows.size - MAX_MEMORY_KEYS / 2;
      for (const k of this.windows.keys()) {
        if (drop-- <= 0) break;
        this.windows.delete(k);
      }
    }
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

export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis';
  private readonly fallback = new MemoryCounterStore();
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly warn: (message: string, err: unknown) => void,
  ) {
    redis.defineCommand('stacklensConsume', { lua: CONSUME_LUA });
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

  async peek(key: string) {
    try {
      const [[, count], [, ttl]] = (await this.redis.multi().get(KEY_PREFIX + key).pttl(KEY_PREFIX + key).exec()) as [unknown, unknown][];
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
