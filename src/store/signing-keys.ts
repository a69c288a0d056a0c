// SQL for token signing keys. The newest unretired key signs; retired keys stay published
// (public half only) until published_until, when every token they signed has expired.
import type { Db } from '../db/db.ts';

interface SigningKeyRow {
  kid: string;
  alg: string;
  publicJwk: Record<string, unknown>;
  createdAt: Date;
  retiredAt: Date | null;
  publishedUntil: Date | null;
}

interface ActiveSigningKeyRow extends SigningKeyRow {
  privateJwk: Record<string, unknown>;
}

const PUBLIC_COLUMNS = 'kid, alg, public_jwk, created_at, retired_at, published_until';

function toRow(r: Record<string, any>): SigningKeyRow {
  return { kid: r.kid, alg: r.alg, publicJwk: r.public_jwk, createdAt: r.created_at, retiredAt: r.retired_at, publishedUntil: r.published_until };
}

/** The key that signs new tokens (private half included), if any. */
export async function findActiveSigningKey(db: Db): Promise<ActiveSigningKeyRow | undefined> {
  const [r] = await db.query<Record<string, any>>(
    `SELECT ${PUBLIC_COLUMNS}, private_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1`,
  );
  return r && { ...toRow(r), privateJwk: r.private_jwk };
}

/** Public halves of every key whose tokens may still be valid: the JWKS. */
export async function listPublishedSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  const rows = await db.query<Record<string, any>>(
    `SELECT ${PUBLIC_COLUMNS} FROM signing_keys WHERE retired_at IS NULL OR published_until > now() ORDER BY created_at DESC, kid`,
  );
  return rows.map(toRow);
}

export async function listSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return (await db.query<Record<string, any>>(`SELECT ${PUBLIC_COLUMNS} FROM signing_keys ORDER BY created_at DESC, kid`)).map(toRow);
}

export interface NewSigningKey {
  kid: string;
  alg: string;
  publicJwk: Record<string, unknown>;
  privateJwk: Record<string, unknown>;
}

/** Adds the first key when there is none yet; returns false when another caller got there first. */
export async function insertFirstSigningKey(db: Db, key: NewSigningKey): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk)
     SELECT $1::text, $2::text, $3::jsonb, $4::jsonb
     WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE retired_at IS NULL)
     RETURNING kid`,
    [key.kid, key.alg, JSON.stringify(key.publicJwk), JSON.stringify(key.privateJwk)],
  );
  return rows.length > 0;
}

/**
 * Rotation, in one transaction: every active key retires (published for `keepPublishedSeconds`
 * more), the new key becomes active, and keys whose publication ended are deleted.
 * Returns the kids that were retired.
 */
export async function rotateSigningKeys(db: Db, key: NewSigningKey, keepPublishedSeconds: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const retired = await tx.query<{ kid: string }>(
      `UPDATE signing_keys SET retired_at = now(), published_until = now() + make_interval(secs => $1::int)
        WHERE retired_at IS NULL RETURNING kid`,
      [keepPublishedSeconds],
    );
    await tx.query('DELETE FROM signing_keys WHERE retired_at IS NOT NULL AND published_until <= now()');
    await tx.query(`INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk) VALUES ($1::text, $2::text, $3::jsonb, $4::jsonb)`, [
      key.kid,
      key.alg,
      JSON.stringify(key.publicJwk),
      JSON.stringify(key.privateJwk),
    ]);
    return retired.map((r) => r.kid);
  });
}
