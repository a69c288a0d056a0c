// SQL of the daily event allowance (event_volume_daily): events handed to each client per UTC
// day, spent in the database so that every server instance counts against the same number.
import type { Db, Queryable, Tx } from '../db/db.ts';

export interface Allowance {
  /** Events granted by this call (0 when only looking). */
  granted: number;
  /** Events handed to the client on the day, this call's included. */
  used: number;
  /** The plan's events per day; 0 for a client that is not there. */
  limit: number;
  planId: string | null;
}

const PLAN_LIMIT = `(SELECT p.events_per_day FROM api_clients c JOIN plans p ON p.id = c.plan_id WHERE c.id = $1::text)`;
const PLAN_ID = `(SELECT plan_id FROM api_clients WHERE id = $1::text)`;

/**
 * Spends up to `want` events of a client's allowance for `day` (YYYY-MM-DD, UTC) and says how
 * many it granted. Inside the caller's transaction: the day's row is locked from the first
 * statement to the commit, so two instances spending at once cannot both pass the limit. A
 * plan changed since applies at once (the limit is read here, not from a cached principal).
 */
export async function spendAllowance(tx: Tx, clientId: string, day: string, want: number): Promise<Allowance> {
  // ON CONFLICT … DO UPDATE locks the row (a no-op update), and returns the count committed before.
  const [r] = await tx.query<{ events: string; lim: number | null; plan_id: string | null }>(
    `INSERT INTO event_volume_daily AS v (client_id, day, events) VALUES ($1::text, $2::date, 0)
     ON CONFLICT (client_id, day) DO UPDATE SET events = v.events
     RETURNING v.events, ${PLAN_LIMIT} AS lim, ${PLAN_ID} AS plan_id`,
    [clientId, day],
  );
  const before = Number(r!.events);
  const limit = r!.lim ?? 0;
  const granted = Math.max(0, Math.min(want, limit - before));
  if (granted > 0)
    await tx.query('UPDATE event_volume_daily SET events = events + $3::bigint WHERE client_id = $1::text AND day = $2::date', [clientId, day, granted]);
  return { granted, used: before + granted, limit, planId: r!.plan_id };
}

/** The allowance as it stands, without spending any (no write). */
export async function peekAllowance(db: Queryable, clientId: string, day: string): Promise<Allowance> {
  const [r] = await db.query<{ events: string | null; lim: number | null; plan_id: string | null }>(
    `SELECT (SELECT events FROM event_volume_daily WHERE client_id = $1::text AND day = $2::date) AS events, ${PLAN_LIMIT} AS lim, ${PLAN_ID} AS plan_id`,
    [clientId, day],
  );
  return { granted: 0, used: Number(r?.events ?? 0), limit: r?.lim ?? 0, planId: r?.plan_id ?? null };
}

/** A client's events per UTC day from `from` to `to` (inclusive), oldest first; days without any are absent. */
export async function findEventVolume(db: Db, clientId: string, from: string, to: string): Promise<{ day: string; events: number }[]> {
  const rows = await db.query<{ day: string; events: string }>(
    `SELECT day::text AS day, events FROM event_volume_daily WHERE client_id = $1::text AND day BETWEEN $2::date AND $3::date AND events > 0 ORDER BY day`,
    [clientId, from, to],
  );
  return rows.map((r) => ({ day: r.day, events: Number(r.events) }));
}
