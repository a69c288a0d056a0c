// SQL for an MCP session's resource subscriptions over HTTP and the messages of its GET
// stream (mcp_subscriptions, mcp_stream_events), keyed by the session id's hash.
import type { Queryable, Transactional } from '../db/db.ts';

/** Messages kept per session for resumption; older ones are deleted as new ones come. */
export const STREAM_EVENTS_KEPT = 100;

/** Adds a subscription starting after `afterSeq` (again: nothing changes); false at `max`. */
export async function addSubscription(
  db: Transactional,
  s: { sessionHash: string; clientId: string; monitorId: string; uri: string; afterSeq: number; max: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('mcp_subscriptions:' || $1::text))", [s.sessionHash]);
    const [held] = await tx.query<{ n: number; mine: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE monitor_id = $2)::int AS mine FROM mcp_subscriptions WHERE session_hash = $1',
      [s.sessionHash, s.monitorId],
    );
    if (held!.mine > 0) return true;
    if (held!.n >= s.max) return false;
    await tx.query('INSERT INTO mcp_subscriptions (session_hash, monitor_id, client_id, uri, after_seq) VALUES ($1, $2, $3, $4, $5)', [
      s.sessionHash,
      s.monitorId,
      s.clientId,
      s.uri,
      s.afterSeq,
    ]);
    return true;
  });
}

export async function removeSubscription(db: Queryable, sessionHash: string, monitorId: string): Promise<void> {
  await db.query('DELETE FROM mcp_subscriptions WHERE session_hash = $1 AND monitor_id = $2', [sessionHash, monitorId]);
}

/**
 * Claims the session's subscriptions not checked up to `uptoSeq`: marks them checked and
 * returns each with the seq it was checked to before (one statement, so two instances never
 * claim the same range).
 */
export async function claimSubscriptions(db: Queryable, sessionHash: string, uptoSeq: number): Promise<{ monitorId: string; uri: string; afterSeq: number }[]> {
  const rows = await db.query<{ monitor: string; uri: string; old: string | number }>(
    `UPDATE mcp_subscriptions s SET after_seq = $2
       FROM (SELECT monitor_id, after_seq AS old FROM mcp_subscriptions WHERE session_hash = $1 AND after_seq < $2 FOR UPDATE) o
      WHERE s.session_hash = $1 AND s.monitor_id = o.monitor_id
      RETURNING s.monitor_id AS monitor, s.uri AS uri, o.old AS old`,
    [sessionHash, uptoSeq],
  );
  return rows.map((r) => ({ monitorId: r.monitor, uri: r.uri, afterSeq: Number(r.old) }));
}

/** Appends messages to the session's stream and deletes what falls out of the bounds. */
export async function appendStreamEvents(db: Queryable, sessionHash: string, messages: readonly unknown[], olderThan: Date): Promise<void> {
  if (messages.length === 0) return;
  await db.query('INSERT INTO mcp_stream_events (session_hash, message) SELECT $1, m FROM unnest($2::jsonb[]) WITH ORDINALITY AS x(m, n) ORDER BY n', [
    sessionHash,
    messages.map((m) => JSON.stringify(m)),
  ]);
  await db.query(
    `DELETE FROM mcp_stream_events WHERE session_hash = $1 AND (created_at < $2 OR id <= (
       SELECT id FROM mcp_stream_events WHERE session_hash = $1 ORDER BY id DESC OFFSET $3::int LIMIT 1))`,
    [sessionHash, olderThan, STREAM_EVENTS_KEPT],
  );
}

/** The session's messages after `afterId`, oldest first (at most the kept ones). */
export async function streamEventsAfter(db: Queryable, sessionHash: string, afterId: number): Promise<{ id: number; message: unknown }[]> {
  const rows = await db.query<{ id: string | number; message: unknown }>(
    'SELECT id, message FROM mcp_stream_events WHERE session_hash = $1 AND id > $2 ORDER BY id LIMIT $3::int',
    [sessionHash, afterId, STREAM_EVENTS_KEPT],
  );
  return rows.map((r) => ({ id: Number(r.id), message: r.message }));
}

/** Whether the session still holds the message with this id (resumption from it is possible). */
export async function hasStreamEvent(db: Queryable, sessionHash: string, id: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 AS one FROM mcp_stream_events WHERE session_hash = $1 AND id = $2', [sessionHash, id]);
  return rows.length > 0;
}

/** Ends a session's subscriptions and stream (DELETE /mcp). */
export async function deleteSessionStream(db: Queryable, sessionHash: string): Promise<void> {
  await db.query('DELETE FROM mcp_subscriptions WHERE session_hash = $1', [sessionHash]);
  await db.query('DELETE FROM mcp_stream_events WHERE session_hash = $1', [sessionHash]);
}

/** Sessions whose subscriptions one sweep checks (the oldest-named first; the next sweep goes on). */
const SWEEP_SESSIONS = 1000;

/**
 * Deletes the messages older than `olderThan` (every session: they cannot be resumed from any
 * more) and the subscriptions of sessions that ended without a DELETE (evicted, expired),
 * asking the session store (database or Redis) which of up to SWEEP_SESSIONS sessions live.
 */
export async function sweepStreamEvents(db: Queryable, olderThan: Date, liveHashes: (hashes: readonly string[]) => Promise<Set<string>>): Promise<void> {
  await db.query('DELETE FROM mcp_stream_events WHERE created_at < $1', [olderThan]);
  let after = '';
  for (;;) {
    const rows = await db.query<{ session_hash: string }>(
      'SELECT DISTINCT session_hash FROM mcp_subscriptions WHERE session_hash > $1 ORDER BY session_hash LIMIT $2::int',
      [after, SWEEP_SESSIONS],
    );
    if (rows.length === 0) return;
    const hashes = rows.map((r) => r.session_hash);
    const live = await liveHashes(hashes);
    const ended = hashes.filter((h) => !live.has(h));
    if (ended.length > 0) await db.query('DELETE FROM mcp_subscriptions WHERE session_hash = ANY($1::text[])', [ended]);
    if (rows.length < SWEEP_SESSIONS) return;
    after = hashes[hashes.length - 1]!;
  }
}

/** The id of the session's newest message (0 when none): where a stream opened without Last-Event-ID starts. */
export async function latestStreamEventId(db: Queryable, sessionHash: string): Promise<number> {
  const [row] = await db.query<{ id: string | number | null }>('SELECT max(id) AS id FROM mcp_stream_events WHERE session_hash = $1', [sessionHash]);
  return Number(row?.id ?? 0);
}
