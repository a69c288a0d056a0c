// API keys: `sl_<prefix>_<secret>`. The prefix is stored in clear (to find the row and to
// show in listings); only the SHA-256 of the whole key is stored. Printed once at creation.
//
// Resolved keys are cached per process by the key's hash (never the key) for KEY_CACHE_MS,
// and every request first reads the access version (a read begun after it arrived, shared
// with the requests of the same round trip), one row that the database bumps in the
// same transaction as any change to keys, clients or plans (migration 008). A changed
// version empties the cache, so a revocation, a disabled client or a plan change made by
// any process (this one, the CLI, another instance) is refused or applied on the next
// request; an unchanged one lets the request go on with one primary-key read instead of
// the key and client lookups.
import { randomBytes } from 'node:crypto';
import { withinRequestLimits, type Db } from '../db/db.ts';
import {
  findApiKeyWithClient,
  findClient,
  insertApiKey,
  listApiKeys,
  readAccessVersion,
  revokeApiKey as revokeKeyRow,
  touchApiKeys,
  type ApiKeyRow,
  type ClientWithPlan,
} from '../store/access.ts';
import { NotFoundError } from '../errors.ts';
import { hashSecret, randomToken, secretMatches } from './secrets.ts';
import { now } from '../clock.ts';
import { despiteDisconnect, outsideRequest } from '../db/query-limits.ts';

const KEY_SHAPE = /^sl_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
/** How long a resolved key may serve from memory while the access version is unchanged. */
const KEY_CACHE_MS = 30_000;
const MAX_CACHED_KEYS = 10_000;
/** last_used_at is written at most this often per key and process. */
const TOUCH_INTERVAL_MS = 60_000;

type CachedKey = { keyId: string; client: ClientWithPlan; at: number };
type KeyCache = { version: number; byHash: Map<string, CachedKey> };
const keyCaches = new WeakMap<Db, KeyCache>();

function keyCache(db: Db): KeyCache {
  let cache = keyCaches.get(db);
  if (!cache) keyCaches.set(db, (cache = { version: -1, byHash: new Map() }));
  return cache;
}

interface CreatedApiKey {
  id: string;
  prefix: string;
  apiKey: string;
  clientId: string;
}

export async function createApiKey(db: Db, clientId: string, name: string | null = null): Promise<CreatedApiKey> {
  if (!(await findClient(db, clientId))) throw new NotFoundError(`client: no client '${clientId}'`);
  const prefix = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
  const apiKey = `sl_${prefix}_${randomToken(32)}`;
  const id = `key_${prefix}`;
  await insertApiKey(db, { id, clientId, prefix, keyHash: hashSecret(apiKey), name });
  return { id, prefix, apiKey, clientId };
}

/** Returns the key's client when the key is well-formed, known, unrevoked and its client enabled. */
export async function verifyApiKey(db: Db, apiKey: string): Promise<ClientWithPlan | undefined> {
  const match = KEY_SHAPE.exec(apiKey);
  if (!match) return undefined;
  const hash = hashSecret(apiKey);
  const cache = keyCache(db);
  const hit = cache.byHash.get(hash);
  if (hit && now() - hit.at < KEY_CACHE_MS) {
    // The version the hit was cached under, taken now: while this request reads the version,
    // a concurrent one may see a change, clear the cache and move cache.version on, and the
    // hit in hand is then stale even though the version read equals the cache's new one.
    const cachedUnder = cache.version;
    const version = await withinRequestLimits(versionReads(db).read());
    if (version === cachedUnder) {
      noteUse(db, hit.keyId);
      return hit.client;
    }
    // Something changed somewhere: every cached key is suspect, not only this one.
    if (version > cache.version) {
      cache.byHash.clear();
      cache.version = version;
    }
  }
  const { version, key, client } = await findApiKeyWithClient(db, match[1]!);
  if (!key || key.revokedAt || !secretMatches(apiKey, key.keyHash)) return undefined;
  if (!client || client.disabledAt) return undefined;
  remember(cache, version, hash, { keyId: key.id, client, at: now() });
  noteUse(db, key.id);
  return client;
}

/**
 * Reads of one value shared by the requests of one round trip (here: the access version). A
 * request must see every change committed before it arrived, so it may only share a read
 * begun after it arrived: requests that come while a read is in flight wait for it to end
 * and then share the next one. Under load one statement answers every API-key request of a
 * round trip, where each used to send its own (a statement is a round trip and a socket
 * write on each side). A shared read is not cancelled when the client that began it leaves
 * (despiteDisconnect); each request waits within its own limits (withinRequestLimits).
 */
export class SharedReads<T> {
  private inFlight: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly readOnce: () => Promise<T>) {}

  /** The value as a read begun after this call sees it. */
  read(): Promise<T> {
    if (!this.inFlight) return this.begin();
    const settled = () => undefined;
    this.next ??= this.inFlight.then(settled, settled).then(() => {
      this.next = null;
      return this.begin();
    });
    return this.next;
  }

  private begin(): Promise<T> {
    const read = despiteDisconnect(this.readOnce);
    this.inFlight = read;
    const done = () => {
      if (this.inFlight === read) this.inFlight = null;
    };
    read.then(done, done);
    return read;
  }
}

const versionReaders = new WeakMap<Db, SharedReads<number>>();

function versionReads(db: Db): SharedReads<number> {
  let reads = versionReaders.get(db);
  if (!reads) versionReaders.set(db, (reads = new SharedReads(() => readAccessVersion(db))));
  return reads;
}

/**
 * Caches what was read under `version`. Versions only grow, so a read older than the cache's
 * version is dropped (a slower request must not bring back what a newer one saw change).
 */
function remember(cache: KeyCache, version: number, hash: string, entry: CachedKey): void {
  if (version < cache.version) return;
  if (version > cache.version) {
    cache.byHash.clear();
    cache.version = version;
  }
  if (cache.byHash.size >= MAX_CACHED_KEYS) cache.byHash.clear();
  cache.byHash.set(hash, entry);
}

const touched = new Map<string, number>();
const pendingTouches = new WeakMap<Db, Set<string>>();

/**
 * Records last use without a write per request and without delaying it: a key is stamped at
 * most once per TOUCH_INTERVAL_MS, and the stamps due in one turn of the event loop are
 * written by one statement.
 */
function noteUse(db: Db, keyId: string): void {
  const t = now();
  if (t - (touched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  if (touched.size > 50_000) touched.clear();
  touched.set(keyId, t);
  let pending = pendingTouches.get(db);
  if (pending) {
    pending.add(keyId);
    return;
  }
  pendingTouches.set(db, (pending = new Set([keyId])));
  // Not the request's work: neither its time limit nor its client's disconnect applies.
  outsideRequest(() =>
    setImmediate(() => {
      pendingTouches.delete(db);
      touchApiKeys(db, [...pending]).catch(() => {
        /* best effort: a lost last-used stamp is harmless */
      });
    }),
  );
}

export function listKeys(db: Db, clientId?: string): Promise<ApiKeyRow[]> {
  return listApiKeys(db, clientId);
}

/** Revokes by key id (`key_…`) or prefix; the next request with that key is refused (by any process: see above). */
export async function revokeApiKey(db: Db, idOrPrefix: string): Promise<ApiKeyRow> {
  const row = await revokeKeyRow(db, idOrPrefix);
  if (!row) throw new NotFoundError(`key: no API key with id or prefix '${idOrPrefix}'`);
  return row;
}
