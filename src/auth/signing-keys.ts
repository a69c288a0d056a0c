// Token signing keys (ES256): created on first use, rotated by `stacklens keys rotate-signing`.
// Private halves stay in the database; the JWKS serves public halves only. Each process
// caches keys briefly so verifying a token needs no query; a token naming an unknown kid
// triggers at most one reload per few seconds (another instance may just have rotated).
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Db } from '../db/db.ts';
import { findActiveSigningKey, insertFirstSigningKey, listPublishedSigningKeys, rotateSigningKeys, type NewSigningKey } from '../store/signing-keys.ts';
import { now } from '../clock.ts';

export const SIGNING_ALG = 'ES256';
/** How long a process keeps using its cached signing key and key set before re-reading them. */
export const KEY_CACHE_MS = 30_000;
const UNKNOWN_KID_RELOAD_MS = 5_000;
/** Retired keys stay published this long beyond the token lifetime (covers KEY_CACHE_MS and clock skew). */
const RETIRED_KEY_MARGIN_SECONDS = 300;

interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
}

interface KeyCache {
  signing?: { key: SigningKey; at: number };
  signingLoad?: Promise<SigningKey>;
  published?: { keys: Map<string, { alg: string; jwk: JWK; key?: CryptoKey }>; at: number };
  publishedLoad?: Promise<void>;
}

const caches = new WeakMap<Db, KeyCache>();
function cacheOf(db: Db): KeyCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = {}));
  return c;
}

async function generateSigningKey(): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    alg: SIGNING_ALG,
    publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG },
  };
}

/** The key that signs new tokens; the first one is created here when the database has none. */
export async function currentSigningKey(db: Db): Promise<SigningKey> {
  const cache = cacheOf(db);
  if (cache.signing && now() - cache.signing.at < KEY_CACHE_MS) return cache.signing.key;
  cache.signingLoad ??= (async () => {
    let row = await findActiveSigningKey(db);
    if (!row) {
      await insertFirstSigningKey(db, await generateSigningKey());
      row = await findActiveSigningKey(db);
      if (!row) throw new Error('No active signing key after creating one');
    }
    const key = { kid: row.kid, alg: row.alg, privateKey: (await importJWK(row.privateJwk as JWK, row.alg)) as CryptoKey };
    cache.signing = { key, at: now() };
    return key;
  })().finally(() => {
    cache.signingLoad = undefined;
  });
  return cache.signingLoad;
}

async function loadPublished(db: Db, cache: KeyCache): Promise<void> {
  cache.publishedLoad ??= (async () => {
    const rows = await listPublishedSigningKeys(db);
    const keys = new Map(rows.map((r) => [r.kid, { alg: r.alg, jwk: r.publicJwk as JWK }]));
    cache.published = { keys, at: now() };
  })().finally(() => {
    cache.publishedLoad = undefined;
  });
  return cache.publishedLoad;
}

/** The public key for a kid, if that key is published; undefined otherwise (never throws for unknown kids). */
export async function publicKeyFor(db: Db, kid: string): Promise<{ alg: string; key: CryptoKey } | undefined> {
  const cache = cacheOf(db);
  const age = cache.published ? now() - cache.published.at : Infinity;
  if (age >= KEY_CACHE_MS || (!cache.published!.keys.has(kid) && age >= UNKNOWN_KID_RELOAD_MS)) {
    await loadPublished(db, cache);
  }
  const entry = cache.published?.keys.get(kid);
  if (!entry) return undefined;
  entry.key ??= (await importJWK(entry.jwk, entry.alg)) as CryptoKey;
  return { alg: entry.alg, key: entry.key };
}

/** The JSON Web Key Set: public halves of the active key and of retired keys still in use. */
export async function publishedJwks(db: Db): Promise<{ keys: JWK[] }> {
  await currentSigningKey(db); // a fresh installation publishes its first key at once
  const rows = await listPublishedSigningKeys(db);
  return { keys: rows.map((r) => publicOnly(r.publicJwk)) };
}

/** Strips anything but public members, whatever was stored. */
function publicOnly(jwk: Record<string, unknown>): JWK {
  const { kty, crv, x, y, n, e, kid, alg, use } = jwk as JWK;
  return Object.fromEntries(Object.entries({ kty, crv, x, y, n, e, kid, alg, use }).filter(([, v]) => v !== undefined)) as JWK;
}

/** Adds a new signing key; the old ones stay published for the token lifetime plus a margin. */
export async function rotateSigningKey(db: Db, tokenTtlSeconds: number): Promise<{ kid: string; retired: string[]; publishedForSeconds: number }> {
  const key = await generateSigningKey();
  const keep = tokenTtlSeconds + RETIRED_KEY_MARGIN_SECONDS;
  const retired = await rotateSigningKeys(db, key, keep);
  caches.delete(db);
  return { kid: key.kid, retired, publishedForSeconds: keep };
}
