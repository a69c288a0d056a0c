// Short-lived per-process cache of client rows for bearer-token verification, so a token
// costs no query on most requests. Its lifetime is THE bound on how long a disabled client
// or a rotated secret keeps working with tokens already issued (documented: 30 s) when the
// change comes from another process; a change made through this process (auth/clients.ts)
// empties it at once. API keys have their own cache, checked against the access version
// on every request (api-keys.ts); the token endpoint always reads the database.
import type { Db } from '../db/db.ts';
import { findClient, findClientByExternalId, type ClientWithPlan } from '../store/access.ts';
import { now } from '../clock.ts';

export const CLIENT_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

type Entry = { client: ClientWithPlan | undefined; at: number };
const caches = new WeakMap<Db, Map<string, Entry>>();

async function cached(db: Db, key: string, load: () => Promise<ClientWithPlan | undefined>): Promise<ClientWithPlan | undefined> {
  let map = caches.get(db);
  if (!map) caches.set(db, (map = new Map()));
  const hit = map.get(key);
  if (hit && now() - hit.at < CLIENT_CACHE_MS) return hit.client;
  const client = await load();
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, { client, at: now() });
  return client;
}

export function cachedClient(db: Db, clientId: string): Promise<ClientWithPlan | undefined> {
  return cached(db, `id:${clientId}`, () => findClient(db, clientId));
}

export function cachedExternalClient(db: Db, externalId: string): Promise<ClientWithPlan | undefined> {
  return cached(db, `ext:${externalId}`, () => findClientByExternalId(db, externalId));
}

/** Forgets every cached client of `db`: called after a change to clients or plans made by this process. */
export function forgetCachedClients(db: Db): void {
  caches.get(db)?.clear();
}
