// API keys: `sl_<prefix>_<secret>`. The prefix is stored in clear (to find the row and to
// show in listings); only the SHA-256 of the whole key is stored. Printed once at creation.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { findApiKeyByPrefix, findClient, insertApiKey, type ClientWithPlan } from '../store/access.ts';
import { hashSecret, randomToken, secretMatches } from './secrets.ts';

const KEY_SHAPE = /^sl_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface CreatedApiKey {
  id: string;
  prefix: string;
  apiKey: string;
  clientId: string;
}

export async function createApiKey(db: Db, clientId: string, name: string | null = null): Promise<CreatedApiKey> {
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
  return client;
}
