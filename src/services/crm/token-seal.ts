// CRM API tokens at rest: sealed with AES-256-GCM before they are stored, opened only to call
// the CRM. The key comes from CRM_TOKEN_KEY (hashed to 32 bytes) or, when unset, from a random
// secret generated once and kept in the database (service_secrets), as the cursor key does; the
// configured key keeps the token unreadable to whoever holds only a database copy or a backup.
// The client and CRM are the additional authenticated data: a sealed token copied to another
// client's row does not open. Sealed form: `v1.` + base64url(iv ‖ tag ‖ ciphertext).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/db.ts';
import { getOrCreateSecret } from '../../store/service-secrets.ts';

const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECRET_NAME = 'crm_token_key';
const keys = new WeakMap<Db, Promise<Buffer>>();

const derive = (secret: string) => createHash('sha256').update('stacklens crm token v1\n').update(secret).digest();

/** The sealing key: from CRM_TOKEN_KEY when set, else the per-database stored secret (cached). */
export function crmTokenKey(db: Db, configured: string | undefined): Promise<Buffer> {
  if (configured) return Promise.resolve(derive(configured));
  let key = keys.get(db);
  if (!key) {
    key = getOrCreateSecret(db, SECRET_NAME, randomBytes(32).toString('base64url')).then(derive);
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const aad = (clientId: string, crm: string) => Buffer.from(`${clientId}\n${crm}`, 'utf8');

export function sealToken(key: Buffer, token: string, owner: { clientId: string; crm: string }): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(owner.clientId, owner.crm));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The token, or undefined when the sealed text does not open with this key and owner (another key, edited, moved). */
export function openToken(key: Buffer, sealed: string, owner: { clientId: string; crm: string }): string | undefined {
  if (!sealed.startsWith(PREFIX)) return undefined;
  const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(aad(owner.clientId, owner.crm));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** What may be shown of a token: its last 4 characters, and only when it is long enough that they give little away. */
export function tokenHint(token: string): string {
  return token.length >= 16 ? `…${token.slice(-4)}` : '…';
}
