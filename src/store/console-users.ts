// SQL for the console's people (console_users) and their sessions (console_sessions). Emails
// are stored lowercased; session rows are keyed by the SHA-256 of the cookie's token. Times
// of sessions come from the caller's clock (clock.ts).
import type { Db, Queryable } from '../db/db.ts';
import type { Role } from '../schemas/roles.ts';

export interface ConsoleUserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
  createdAt: Date;
  disabledAt: Date | null;
}

const USER_COLUMNS = `id, email, name, role, password_hash AS "passwordHash", created_at AS "createdAt", disabled_at AS "disabledAt"`;

/** Inserts a person; false when the email is taken (whatever its case). */
export async function insertConsoleUser(db: Queryable, u: { id: string; email: string; name: string; role: Role; passwordHash: string }): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO console_users (id, email, name, role, password_hash) VALUES ($1::text, lower($2::text), $3::text, $4::text, $5::text)
     ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
    [u.id, u.email, u.name, u.role, u.passwordHash],
  );
  return rows.length === 1;
}

export async function findConsoleUserByEmail(db: Queryable, email: string): Promise<ConsoleUserRow | undefined> {
  const [row] = await db.query<ConsoleUserRow>(`SELECT ${USER_COLUMNS} FROM console_users WHERE lower(email) = lower($1::text)`, [email]);
  return row;
}

export async function findConsoleUser(db: Queryable, id: string): Promise<ConsoleUserRow | undefined> {
  const [row] = await db.query<ConsoleUserRow>(`SELECT ${USER_COLUMNS} FROM console_users WHERE id = $1::text`, [id]);
  return row;
}

export async function listConsoleUsersPage(db: Queryable, offset: number, limit: number): Promise<{ rows: ConsoleUserRow[]; total: number }> {
  const rows = await db.query<ConsoleUserRow>(`SELECT ${USER_COLUMNS} FROM console_users ORDER BY created_at, id OFFSET $1::int LIMIT $2::int`, [
    offset,
    limit,
  ]);
  const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM console_users');
  return { rows, total: count!.n };
}

export async function countConsoleUsers(db: Queryable): Promise<number> {
  const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM console_users');
  return count!.n;
}

/** Changes the given fields (undefined keeps one); false when there is no such person. */
export async function updateConsoleUser(
  db: Queryable,
  id: string,
  changes: { name?: string | undefined; role?: Role | undefined; passwordHash?: string | undefined },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE console_users SET name = coalesce($2::text, name), role = coalesce($3::text, role), password_hash = coalesce($4::text, password_hash)
      WHERE id = $1::text RETURNING id`,
    [id, changes.name ?? null, changes.role ?? null, changes.passwordHash ?? null],
  );
  return rows.length === 1;
}

/**
 * Replaces a password hash by a stronger one of the same password (at sign-in), only if it is
 * still the one read: a password changed meanwhile is never overwritten by the old one.
 */
export async function replaceConsoleUserPasswordHash(db: Queryable, id: string, previousHash: string, newHash: string): Promise<boolean> {
  const rows = await db.query('UPDATE console_users SET password_hash = $3::text WHERE id = $1::text AND password_hash = $2::text RETURNING id', [
    id,
    previousHash,
    newHash,
  ]);
  return rows.length === 1;
}

/**
 * Disables (now) or enables a person; disabling also ends their sessions, in one transaction.
 * False when there is no such person.
 */
export async function setConsoleUserDisabled(db: Db, id: string, disabled: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE console_users SET disabled_at = CASE WHEN $2::boolean THEN coalesce(disabled_at, now()) ELSE NULL END WHERE id = $1::text RETURNING id`,
      [id, disabled],
    );
    if (disabled) await tx.query('DELETE FROM console_sessions WHERE user_id = $1::text', [id]);
    return rows.length === 1;
  });
}

// Sessions -------------------------------------------------------------------------------------

export async function insertConsoleSession(db: Queryable, s: { idHash: string; userId: string; now: Date; expiresAt: Date }): Promise<void> {
  await db.query(
    'INSERT INTO console_sessions (id_hash, user_id, created_at, last_seen_at, expires_at) VALUES ($1::text, $2::text, $3::timestamptz, $3::timestamptz, $4::timestamptz)',
    [s.idHash, s.userId, s.now, s.expiresAt],
  );
}

interface SessionWithUser {
  lastSeenAt: Date;
  expiresAt: Date;
  user: ConsoleUserRow;
}

/** The live session (before its absolute expiry, seen after `idleSince`) of an enabled person. */
export async function findLiveConsoleSession(db: Queryable, idHash: string, at: Date, idleSince: Date): Promise<SessionWithUser | undefined> {
  const [row] = await db.query<ConsoleUserRow & { lastSeenAt: Date; expiresAt: Date }>(
    `SELECT u.id, u.email, u.name, u.role, u.password_hash AS "passwordHash", u.created_at AS "createdAt", u.disabled_at AS "disabledAt",
            s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt"
       FROM console_sessions s JOIN console_users u ON u.id = s.user_id
      WHERE s.id_hash = $1::text AND s.expires_at > $2::timestamptz AND s.last_seen_at > $3::timestamptz AND u.disabled_at IS NULL`,
    [idHash, at, idleSince],
  );
  if (!row) return undefined;
  const { lastSeenAt, expiresAt, ...user } = row;
  return { lastSeenAt, expiresAt, user };
}

export async function touchConsoleSession(db: Queryable, idHash: string, at: Date): Promise<void> {
  await db.query('UPDATE console_sessions SET last_seen_at = $2::timestamptz WHERE id_hash = $1::text AND last_seen_at < $2::timestamptz', [idHash, at]);
}

export async function deleteConsoleSession(db: Queryable, idHash: string): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE id_hash = $1::text', [idHash]);
}

export async function deleteConsoleSessionsOfUser(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE user_id = $1::text', [userId]);
}

/** Deletes a person's ended sessions (past their absolute expiry or idle since `idleSince`). */
export async function deleteEndedConsoleSessions(db: Queryable, userId: string, at: Date, idleSince: Date): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE user_id = $1::text AND (expires_at <= $2::timestamptz OR last_seen_at <= $3::timestamptz)', [
    userId,
    at,
    idleSince,
  ]);
}

// The console's API client ------------------------------------------------------------------------

/**
 * Creates the console's API client unless it exists (any instance may get there first), with
 * its starting credits on the ledger; true when this call created it.
 */
export async function insertConsoleClient(db: Db, c: { id: string; name: string; planId: string; secretHash: string; credits: number }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `INSERT INTO api_clients (id, name, plan_id, secret_hash, credits) VALUES ($1::text, $2::text, $3::text, $4::text, $5::int)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [c.id, c.name, c.planId, c.secretHash, c.credits],
    );
    if (rows.length === 0) return false;
    if (c.credits > 0) {
      await tx.query(`INSERT INTO credit_ledger (client_id, delta, reason, reference) VALUES ($1::text, $2::int, 'initial_grant', $3::text)`, [
        c.id,
        c.credits,
        c.planId,
      ]);
    }
    return true;
  });
}
