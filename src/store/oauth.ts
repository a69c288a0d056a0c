// SQL for sign-in for people over OAuth: registered clients, authorization codes, grants and
// their refresh tokens. Codes and refresh tokens are looked up by hash; single use is one
// conditional UPDATE (the request that marks the row wins, a second finds it used).
import type { Queryable } from '../db/db.ts';
import type { Role } from '../schemas/roles.ts';

export type OAuthAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface OAuthClientRow {
  id: string;
  name: string;
  redirectUris: string[];
  secretHash: string | null;
  authMethod: OAuthAuthMethod;
  createdAt: Date;
}

const CLIENT_COLUMNS = `id, name, redirect_uris AS "redirectUris", secret_hash AS "secretHash", auth_method AS "authMethod", created_at AS "createdAt"`;

/**
 * Inserts a client unless `maxClients` are registered already; false when full. At the limit,
 * the oldest client nobody is signed in through (no grant with a refresh token still valid),
 * registered more than `idleMs` ago, makes room: most registered clients are one-off (an agent
 * registers anew on each install), and without eviction a flood of registrations from many
 * addresses would lock every new connector out until an operator cleaned up.
 */
export async function insertOAuthClient(db: Queryable, c: Omit<OAuthClientRow, 'createdAt'>, maxClients: number, idleMs: number): Promise<boolean> {
  await db.query(
    `DELETE FROM oauth_clients WHERE id = (
       SELECT c.id FROM oauth_clients c
       WHERE c.created_at < now() - make_interval(secs => $2::int / 1000.0)
         AND NOT EXISTS (
           SELECT 1 FROM oauth_grants g JOIN oauth_refresh_tokens r ON r.grant_id = g.id
           WHERE g.client_id = c.id AND g.revoked_at IS NULL AND r.used_at IS NULL AND r.expires_at > now())
       ORDER BY c.created_at, c.id LIMIT 1)
     AND (SELECT count(*) FROM oauth_clients) >= $1::int`,
    [maxClients, idleMs],
  );
  const rows = await db.query(
    `INSERT INTO oauth_clients (id, name, redirect_uris, secret_hash, auth_method)
     SELECT $1::text, $2::text, $3::text[], $4::text, $5::text
     WHERE (SELECT count(*) FROM oauth_clients) < $6::int
     RETURNING id`,
    [c.id, c.name, c.redirectUris, c.secretHash, c.authMethod, maxClients],
  );
  return rows.length === 1;
}

export async function findOAuthClient(db: Queryable, id: string): Promise<OAuthClientRow | undefined> {
  const [row] = await db.query<OAuthClientRow>(`SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE id = $1::text`, [id]);
  return row;
}

interface CodeRow {
  clientId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string;
  expiresAt: Date;
  usedAt: Date | null;
  familyId: string | null;
}

export async function insertCode(db: Queryable, hash: string, c: Omit<CodeRow, 'usedAt' | 'familyId'>): Promise<void> {
  await db.query(
    `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, resource, scope, expires_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::timestamptz)`,
    [hash, c.clientId, c.userId, c.redirectUri, c.codeChallenge, c.resource, c.scope, c.expiresAt],
  );
}

/**
 * Marks a code used and returns it, or returns the row as it was when it was used already
 * (`claimed` false): the caller refuses it and revokes what its first exchange gave.
 */
export async function claimCode(db: Queryable, hash: string, at: Date): Promise<{ code: CodeRow; claimed: boolean } | undefined> {
  const columns = `client_id AS "clientId", user_id AS "userId", redirect_uri AS "redirectUri", code_challenge AS "codeChallenge",
     resource, scope, expires_at AS "expiresAt", used_at AS "usedAt", family_id AS "familyId"`;
  const [claimed] = await db.query<CodeRow>(
    `UPDATE oauth_codes SET used_at = $2::timestamptz WHERE code_hash = $1::text AND used_at IS NULL RETURNING ${columns}`,
    [hash, at],
  );
  if (claimed) return { code: claimed, claimed: true };
  const [seen] = await db.query<CodeRow>(`SELECT ${columns} FROM oauth_codes WHERE code_hash = $1::text`, [hash]);
  return seen ? { code: seen, claimed: false } : undefined;
}

export async function setCodeFamily(db: Queryable, hash: string, familyId: string): Promise<void> {
  await db.query(`UPDATE oauth_codes SET family_id = $2::text WHERE code_hash = $1::text`, [hash, familyId]);
}

/** Codes past their expiry are of no use to anyone: dropped as new ones are made. */
export async function deleteExpiredCodes(db: Queryable, at: Date): Promise<void> {
  await db.query(`DELETE FROM oauth_codes WHERE expires_at < $1::timestamptz - interval '1 hour'`, [at]);
}

interface GrantRow {
  id: string;
  clientId: string;
  userId: string;
  resource: string;
  scope: string;
  revokedAt: Date | null;
}

const GRANT_COLUMNS = `id, client_id AS "clientId", user_id AS "userId", resource, scope, revoked_at AS "revokedAt"`;

export async function insertGrant(db: Queryable, g: Omit<GrantRow, 'revokedAt'>): Promise<void> {
  await db.query(`INSERT INTO oauth_grants (id, client_id, user_id, resource, scope) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text)`, [
    g.id,
    g.clientId,
    g.userId,
    g.resource,
    g.scope,
  ]);
}

export async function findGrant(db: Queryable, id: string): Promise<GrantRow | undefined> {
  const [row] = await db.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM oauth_grants WHERE id = $1::text`, [id]);
  return row;
}

export async function revokeGrant(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(`UPDATE oauth_grants SET revoked_at = $2::timestamptz WHERE id = $1::text AND revoked_at IS NULL`, [id, at]);
}

export async function insertRefreshToken(db: Queryable, hash: string, grantId: string, expiresAt: Date): Promise<void> {
  await db.query(`INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at) VALUES ($1::text, $2::text, $3::timestamptz)`, [
    hash,
    grantId,
    expiresAt,
  ]);
}

interface RefreshRow {
  grantId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Marks a live refresh token used (rotation); otherwise returns the row as it is (`claimed` false). */
export async function claimRefreshToken(db: Queryable, hash: string, at: Date): Promise<{ token: RefreshRow; claimed: boolean } | undefined> {
  const columns = `grant_id AS "grantId", expires_at AS "expiresAt", used_at AS "usedAt"`;
  const [claimed] = await db.query<RefreshRow>(
    `UPDATE oauth_refresh_tokens SET used_at = $2::timestamptz
     WHERE token_hash = $1::text AND used_at IS NULL AND expires_at > $2::timestamptz RETURNING ${columns}`,
    [hash, at],
  );
  if (claimed) return { token: claimed, claimed: true };
  const [seen] = await db.query<RefreshRow>(`SELECT ${columns} FROM oauth_refresh_tokens WHERE token_hash = $1::text`, [hash]);
  return seen ? { token: seen, claimed: false } : undefined;
}

export async function findRefreshToken(db: Queryable, hash: string): Promise<RefreshRow | undefined> {
  const [row] = await db.query<RefreshRow>(
    `SELECT grant_id AS "grantId", expires_at AS "expiresAt", used_at AS "usedAt" FROM oauth_refresh_tokens WHERE token_hash = $1::text`,
    [hash],
  );
  return row;
}

/** A grant with its person, for every request that carries one of its access tokens. */
export async function findGrantWithUser(
  db: Queryable,
  id: string,
): Promise<(GrantRow & { user: { id: string; email: string; name: string; role: Role; disabledAt: Date | null } }) | undefined> {
  const [row] = await db.query<GrantRow & { email: string; name: string; role: Role; disabledAt: Date | null }>(
    `SELECT g.id, g.client_id AS "clientId", g.user_id AS "userId", g.resource, g.scope, g.revoked_at AS "revokedAt",
            u.email, u.name, u.role, u.disabled_at AS "disabledAt"
     FROM oauth_grants g JOIN console_users u ON u.id = g.user_id WHERE g.id = $1::text`,
    [id],
  );
  if (!row) return undefined;
  const { email, name, role, disabledAt, ...grant } = row;
  return { ...grant, user: { id: grant.userId, email, name, role, disabledAt } };
}
