// SQL for mcp_sessions: MCP sessions shared by every instance on the database. Rows are
// keyed by the SHA-256 of the session id; times come from the caller's clock (clock.ts).
import type { Db } from '../db/db.ts';

interface McpSessionRow {
  clientId: string;
  protocolVersion: string;
  createdAt: Date;
  lastSeenAt: Date;
}

type CreateSessionOutcome = { created: true; evicted: boolean } | { created: false; oldestLastSeenAt: Date };

/**
 * Inserts a session. At the client's cap (`maxPerClient` live ones) its least recently used
 * session outside `busy` (id hashes with a request in flight) is ended to make room; when
 * every one is busy, nothing is inserted and the outcome says when the least recently used
 * one was last seen. One transaction under a per-client advisory lock, so concurrent
 * initializes of one client cannot pass the cap together; the client's expired rows are
 * deleted on the way.
 */
export async function insertSessionUnderCap(
  db: Db,
  s: { idHash: string; clientId: string; protocolVersion: string; now: Date; idleSince: Date; maxPerClient: number; busy: readonly string[] },
): Promise<CreateSessionOutcome> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('mcp_sessions:' || $1::text))", [s.clientId]);
    await tx.query('DELETE FROM mcp_sessions WHERE client_id = $1 AND last_seen_at <= $2', [s.clientId, s.idleSince]);
    const [live] = await tx.query<{ n: number; oldest: Date | null }>(
      'SELECT count(*)::int AS n, min(last_seen_at) AS oldest FROM mcp_sessions WHERE client_id = $1',
      [s.clientId],
    );
    let evicted = false;
    if (live!.n >= s.maxPerClient) {
      const gone = await tx.query(
        `DELETE FROM mcp_sessions WHERE id_hash IN (
           SELECT id_hash FROM mcp_sessions WHERE client_id = $1 AND NOT (id_hash = ANY($2::text[]))
            ORDER BY last_seen_at, created_at LIMIT $3::int)
         RETURNING 1 AS gone`,
        [s.clientId, s.busy, live!.n - s.maxPerClient + 1],
      );
      if (live!.n - gone.length >= s.maxPerClient) return { created: false, oldestLastSeenAt: live!.oldest! };
      evicted = gone.length > 0;
    }
    await tx.query('INSERT INTO mcp_sessions (id_hash, client_id, protocol_version, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)', [
      s.idHash,
      s.clientId,
      s.protocolVersion,
      s.now,
    ]);
    return { created: true, evicted };
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

/** Which of these id hashes are sessions on record (expired ones included until the sweep deletes them). */
export async function sessionsOnRecord(db: Db, idHashes: readonly string[]): Promise<Set<string>> {
  if (idHashes.length === 0) return new Set();
  const rows = await db.query<{ id_hash: string }>('SELECT id_hash FROM mcp_sessions WHERE id_hash = ANY($1::text[])', [[...idHashes]]);
  return new Set(rows.map((r) => r.id_hash));
}
