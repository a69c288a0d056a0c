// API keys: `sl_<prefix>_<secret>`. The prefix is stored in clear (to find the row and to
// show in listings); only the SHA-256 of the whole key is stored. Printed once at creation.
// Every request reads the key row, so a revocation takes effect on the next request.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { findApiKeyByPrefix, findClient, insertApiKey, listApiKeys, revokeApiKey as revokeKeyRow, touchApiKey, type ApiKeyRow, type ClientWithPlan } from '../store/access.ts';
import { NotFoundError } from '../errors.ts';
import { hashSecret, randomToken, secretMatches } from './secrets.ts';
import { now } from '../clock.ts';

const KEY_SHAPE = /^sl_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
/** last_used_at is written at most this often per key and process. */
const TOUCH_INTERVAL_MS = 60_000;
const touched = new Map<string, number>();

export interface CreatedApiKey {
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
  const row = await findApiKeyByPrefix(db, match[1]!);
  if (!row || row.revokedAt || !secretMatches(apiKey, row.keyHash)) return undefined;
  const client = await findClient(db, row.clientId);
  if (!client || client.disabledAt) return undefined;
  noteUse(db, row.id);
  return client;
}

/** Records last use without a write per request (and without delaying the request). */
function noteUse(db: Db, keyId: string): void {
  const t = now();
  if (t - (touched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  if (touched.size > 50_000) touched.clear();
  touched.set(keyId, t);
  touchApiKey(db, keyId).catch(() => {
    /* best effort: a lost last-used stamp is harmless */
  });
}

export type { ApiKeyRow };

export function listKeys(db: Db, clientId?: string): Promise<ApiKeyRow[]> {
  return listApiKeys(db, clientId);
}

/** Revokes by key id (`key_…`) or prefix; the next request with that key is refused. */
export async function revokeApiKey(db: Db, idOrPrefix: string): Promise<ApiKeyRow> {
  const row = await revokeKeyRow(db, idOrPrefix);
  if (!row) throw new NotFoundError(`key: no API key with id or prefix '${idOrPrefix}'`);
  return row;
}
