// SQL for mcp_sessions: MCP sessions shared by every instance on the database. Rows are
// keyed by the SHA-256 of the session id; times come from the caller's clock (clock.ts).
import type { Db } from './db.ts';

export interface McpSessionRow {
  clientId: string;
  protocolVersion: string;
  createdAt: Date;
  lastSeenAt: Date;
}

export type CreateSessionOutcome = { created: true } | { created: false; oldestLastSeenAt: Date };

/**
 * Inserts a session unless the client already has `maxPerClient` live ones (then returns
 * when its least recently used one was last seen). One transaction under a per-client
 * advisory lock, so concurrent initializes of one client cannot pass the cap together;
 * the client's expired rows are deleted on the way.
 */
export async function insertSessionUnderCap(
  db: Db,
  s: { idHash: string; clientId: string; protocolVersion: string; now: Date; idleSince: Date; maxPerClient: number },
): Promise<CreateSessionOutcome> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('mcp_sessions:' || $1::text))", [s.clientId]);
    await tx.query('DELETE FROM mcp_sessions WHERE client_id = $1 AND last_seen_at <= $2', [s.clientId, s.idleSince]);
    const [live] = await tx.query<{ n: number; oldest: Date | null }>(
      'SELECT count(*)::int AS n, min(last_seen_at) AS oldest FROM mcp_sessions WHERE client_id = $1',
      [s.clientId],
    );
    if (live!.n >= s.maxPerClient) return { created: false, oldestLastSeenAt: live!.oldest! };
    await tx.query(
      'INSERT INTO mcp_sessions (id_hash, client_id, protocol_version, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)',
      [s.idHash, s.clientId, s.protocolVersion, s.now],
    );
    return { created: true };
  });
}

/** The session if it was seen after `idleSince` (not expired). */
export async function findLiveSession(db: Db, idHash: string, idleSince: Date): Promise<McpSessionRow | undefined> {
  const [row] = await db.query<McpSessionRow>(
    `SELECT client_id AS "clientId", protocol_version AS "protocolVersion", created_at AS "createdAt", last_seen_at AS "lastSeenAt"
       FROM mcp_sessions WHERE id_hash = $1 AND last_seen_at > $2`,
    [idHash, idleSince],
  );
  return row;
}

export async function touchSession(db: Db, idHash: string, now: Date): Promise<void> {
  await db.query('UPDATE mcp_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND last_seen_at < $2', [idHash, now]);
}

export async function deleteSession(db: Db, idHash: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM mcp_sessions WHERE id_hash = $1 RETURNING 1 AS gone', [idHash]);
  return rows.length > 0;
}

/** Deletes every session idle since `idleSince`; returns how many. */
export async function deleteIdleSessions(db: Db, idleSince: Date): Promise<number> {
  const rows = await db.query('DELETE FROM mcp_sessions WHERE last_seen_at <= $1 RETURNING 1 AS gone', [idleSince]);
  return rows.length;
}
