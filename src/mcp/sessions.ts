// MCP sessions: id → owning client and negotiated protocol version, expiring after an idle
// TTL and capped per client. At the cap a new session ends the client's least recently used
// idle one (most clients never delete theirs); only when every one of its sessions has a
// request in flight on this instance does the client get 429 with Retry-After (the time
// until its least recently used session expires). Sessions live in a shared store, so a session
// made on one instance works on every other: Redis when REDIS_URL is set, else the
// database (PostgreSQL, or the embedded one). Sessions hold no server state: each request
// builds its own server, so any instance can serve any request of a session.
//
// The id is 24 random bytes (base64url, visible ASCII as the transport spec requires);
// stores keep only its SHA-256, so the stored sessions name no usable id.
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db } from '../db/db.ts';
import { deleteIdleSessions, deleteSession, findLiveSession, insertSessionUnderCap, sessionsOnRecord, touchSession } from '../store/mcp-sessions.ts';
import { RateLimitedError, ServiceUnavailableError } from '../errors.ts';
import { now } from '../clock.ts';

export interface McpSession {
  id: string;
  clientId: string;
  /** The protocol revision negotiated at initialize. */
  protocolVersion: string;
}

interface SessionLimits {
  /** A session unused for this long is gone. */
  ttlMs: number;
  /** Live sessions one client may hold. */
  maxPerClient: number;
}

export interface SessionStore {
  readonly kind: 'database' | 'redis';
  /**
   * A new session of the client. At its cap the least recently used session whose id hash is
   * not in `busy` (requests in flight) is ended first (`evicted`); a RateLimitedError (429)
   * when all are busy.
   */
  create(clientId: string, protocolVersion: string, busy?: ReadonlySet<string>): Promise<McpSession & { evicted: boolean }>;
  /** The live session with this id (marking it used), or undefined when unknown or expired. */
  get(id: string): Promise<McpSession | undefined>;
  delete(id: string): Promise<boolean>;
  /** Which of these session id hashes are live sessions (the stream sweep drops the others' subscriptions). */
  liveHashes(hashes: readonly string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

export function sessionIdHash(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** Longest plausible session id: anything longer is unknown without a lookup. */
const MAX_SESSION_ID_LENGTH = 128;

function capError(limits: SessionLimits, retryAfterMs: number): RateLimitedError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new RateLimitedError(
    `This client already has ${limits.maxPerClient} open MCP sessions (MCP_MAX_SESSIONS_PER_CLIENT); ` +
      `each has a request in flight, so none can be ended for a new one; retry after ${seconds} s, or end one with DELETE /mcp (its Mcp-Session-Id header)`,
    seconds,
  );
}

/**
 * Sessions in the database. Use is recorded at most once per `touchEveryMs` (a tenth of
 * the TTL, at most a minute): a read per request, a write now and then; a session may
 * therefore expire up to that much before TTL after its last use.
 */
export class DatabaseSessionStore implements SessionStore {
  readonly kind = 'database';
  private readonly touchEveryMs: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
    onSweepError: (err: unknown) => void = () => {},
  ) {
    this.touchEveryMs = Math.min(60_000, Math.floor(limits.ttlMs / 10));
    this.sweeper = setInterval(() => void this.sweep().catch(onSweepError), Math.min(60_000, limits.ttlMs)).unref();
  }

  async create(clientId: string, protocolVersion: string, busy: ReadonlySet<string> = new Set()): Promise<McpSession & { evicted: boolean }> {
    const id = newSessionId();
    const t = now();
    const outcome = await insertSessionUnderCap(this.db, {
      idHash: sessionIdHash(id),
      clientId,
      protocolVersion,
      now: new Date(t),
      idleSince: new Date(t - this.limits.ttlMs),
      maxPerClient: this.limits.maxPerClient,
      busy: [...busy],
    });
    if (!outcome.created) throw capError(this.limits, outcome.oldestLastSeenAt.getTime() + this.limits.ttlMs - t);
    return { id, clientId, protocolVersion, evicted: outcome.evicted };
  }

  async get(id: string): Promise<McpSession | undefined> {
    if (id.length > MAX_SESSION_ID_LENGTH) return undefined;
    const t = now();
    const idHash = sessionIdHash(id);
    const row = await findLiveSession(this.db, idHash, new Date(t - this.limits.ttlMs));
    if (!row) return undefined;
    if (t - row.lastSeenAt.getTime() >= this.touchEveryMs) await touchSession(this.db, idHash, new Date(t));
    return { id, clientId: row.clientId, protocolVersion: row.protocolVersion };
  }

  async delete(id: string): Promise<boolean> {
    if (id.length > MAX_SESSION_ID_LENGTH) return false;
    return deleteSession(this.db, sessionIdHash(id));
  }

  /** Deletes expired sessions (also run every minute, or every TTL when shorter). */
  liveHashes(hashes: readonly string[]): Promise<Set<string>> {
    return sessionsOnRecord(this.db, hashes);
  }

  async sweep(): Promise<number> {
    return deleteIdleSessions(this.db, new Date(now() - this.limits.ttlMs));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

const REDIS_PREFIX = 'stacklens:mcp:';

// KEYS[1]: the client's set of sessions (member: id hash, score: last use); KEYS[2]: the
// session. ARGV: now ms, ttl ms, cap, session value, id hash, then the busy id hashes.
// At the cap the least recently used sessions not busy are ended. Returns {1, evicted}
// when created, or {0, last use of the least recently used live session}.
const CREATE_LUA = `
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
local evicted = 0
local count = redis.call('ZCARD', KEYS[1])
if count >= cap then
  local busy = {}
  for i = 6, #ARGV do busy[ARGV[i]] = true end
  local oldest = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    if count < cap then break end
    if not busy[oldest[i]] then
      redis.call('DEL', '${REDIS_PREFIX}s:' .. oldest[i])
      redis.call('ZREM', KEYS[1], oldest[i])
      count = count - 1
      evicted = 1
    end
  end
  if count >= cap then return {0, tonumber(oldest[2])} end
end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl)
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], ttl)
return {1, evicted}`;

// KEYS[1]: the session; ARGV: ttl ms, now ms, id hash. The session's value, renewed (last
// use, expiry, place in its client's set), or nil when it is gone or idle past the TTL.
// Idleness is judged by the caller's clock (ARGV now); Redis's own expiry only cleans up.
const TOUCH_LUA = `
local value = redis.call('GET', KEYS[1])
if not value then return nil end
local ttl = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local s = cjson.decode(value)
local set = '${REDIS_PREFIX}c:' .. s.c
if now - s.t > ttl then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', set, ARGV[3])
  return nil
end
s.t = now
value = cjson.encode(s)
redis.call('SET', KEYS[1], value, 'PX', ttl)
redis.call('ZADD', set, now, ARGV[3])
redis.call('PEXPIRE', set, ttl)
return value`;

/** Sessions in Redis (REDIS_URL): every use renews a session. */
export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly limits: SessionLimits,
  ) {
    redis.defineCommand('stacklensMcpCreate', { numberOfKeys: 2, lua: CREATE_LUA });
    redis.defineCommand('stacklensMcpTouch', { numberOfKeys: 1, lua: TOUCH_LUA });
  }

  static async connect(url: string, limits: SessionLimits, onError: (err: unknown) => void): Promise<RedisSessionStore> {
    const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 });
    redis.on('error', onError);
    await redis.connect().catch(onError);
    return new RedisSessionStore(redis, limits);
  }

  async create(clientId: string, protocolVersion: string, busy: ReadonlySet<string> = new Set()): Promise<McpSession & { evicted: boolean }> {
    const id = newSessionId();
    const idHash = sessionIdHash(id);
    const t = now();
    const value = JSON.stringify({ c: clientId, v: protocolVersion, t });
    const out = (await this.call(() =>
      (this.redis as any).stacklensMcpCreate(
        `${REDIS_PREFIX}c:${clientId}`,
        `${REDIS_PREFIX}s:${idHash}`,
        t,
        this.limits.ttlMs,
        this.limits.maxPerClient,
        value,
        idHash,
        ...busy,
      ),
    )) as number[];
    if (Number(out[0]) !== 1) throw capError(this.limits, Number(out[1]) + this.limits.ttlMs - t);
    return { id, clientId, protocolVersion, evicted: Number(out[1]) === 1 };
  }

  async get(id: string): Promise<McpSession | undefined> {
    if (id.length > MAX_SESSION_ID_LENGTH) return undefined;
    const idHash = sessionIdHash(id);
    const value = (await this.call(() => (this.redis as any).stacklensMcpTouch(`${REDIS_PREFIX}s:${idHash}`, this.limits.ttlMs, now(), idHash))) as
      string | null;
    if (!value) return undefined;
    const { c, v } = JSON.parse(value) as { c: string; v: string };
    return { id, clientId: c, protocolVersion: v };
  }

  async delete(id: string): Promise<boolean> {
    if (id.length > MAX_SESSION_ID_LENGTH) return false;
    const key = `${REDIS_PREFIX}s:${sessionIdHash(id)}`;
    const value = (await this.call(() => this.redis.get(key))) as string | null;
    if (!value) return false;
    const { c } = JSON.parse(value) as { c: string };
    await this.call(() => this.redis.multi().del(key).zrem(`${REDIS_PREFIX}c:${c}`, sessionIdHash(id)).exec());
    return true;
  }

  async liveHashes(hashes: readonly string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const found = (await this.call(() => this.redis.mget(...hashes.map((h) => `${REDIS_PREFIX}s:${h}`)))) as (string | null)[];
    return new Set(hashes.filter((_, i) => found[i] !== null));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  /** A Redis failure is a 503 with Retry-After: sessions cannot be checked, never assumed. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch {
      throw new ServiceUnavailableError('The MCP session store (Redis at REDIS_URL) is not answering; retry shortly', 2);
    }
  }
}

export async function openSessionStore(
  db: Db,
  redisUrl: string | undefined,
  limits: SessionLimits,
  warn: (message: string, err: unknown) => void,
): Promise<SessionStore> {
  if (redisUrl) {
    let lastWarning = 0;
    return RedisSessionStore.connect(redisUrl, limits, (err) => {
      if (Date.now() - lastWarning < 30_000) return;
      lastWarning = Date.now();
      warn('Redis at REDIS_URL is not answering: MCP requests with a session get 503 until it is', err);
    });
  }
  return new DatabaseSessionStore(db, limits, (err) => warn('MCP session sweep failed', err));
}
