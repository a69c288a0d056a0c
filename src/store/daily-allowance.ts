// SQL of the per-client daily allowances a plan sets (daily_allowance, one row per client, kind
// and UTC day): events handed out, companies enriched, market-sizing calls, domains sent to
// detection. Spent in the database so that every server instance counts against one number.
import type { Db, Queryable, Tx } from '../db/db.ts';

/** What an allowance counts, and the plan column that sets it (a fixed map: never caller input). */
const PLAN_COLUMN = {
  events: 'events_per_day',
  enrich_rows: 'enrich_rows_per_day',
  facets: 'facets_per_day',
  detections: 'detections_per_day',
} as const;
type AllowanceKind = keyof typeof PLAN_COLUMN;

export interface Allowance {
  /** Units granted by this call (0 when only looking, or refused). */
  granted: number;
  /** Units used on the day before this call. */
  before: number;
  /** Units used on the day, this call's grant included. */
  used: number;
  /** The plan's units per day; 0 for a client that is not there. */
  limit: number;
  planId: string | null;
}

const planLimit = (kind: AllowanceKind) => `(SELECT p.${PLAN_COLUMN[kind]} FROM api_clients c JOIN plans p ON p.id = c.plan_id WHERE c.id = $1::text)`;
const PLAN_ID = `(SELECT plan_id FROM api_clients WHERE id = $1::text)`;

/**
 * Spends `want` units of a client's `kind` allowance for `day` (YYYY-MM-DD, UTC): as many as are
 * left (`partial`), or all or nothing. Inside the caller's transaction: the day's row is locked
 * from the first statement to the commit, so two instances spending at once cannot both pass the
 * limit. A plan changed since applies at once (the limit is read here, not from a cached principal).
 */
export async function spendDaily(tx: Tx, kind: AllowanceKind, clientId: string, day: string, want: number, partial: boolean): Promise<Allowance> {
  // ON CONFLICT … DO UPDATE locks the row (a no-op update), and returns the count committed before.
  const [r] = await tx.query<{ used: string; lim: number | null; plan_id: string | null }>(
    `INSERT INTO daily_allowance AS v (client_id, kind, day, used) VALUES ($1::text, $2::text, $3::date, 0)
     ON CONFLICT (client_id, kind, day) DO UPDATE SET used = v.used
     RETURNING v.used, ${planLimit(kind)} AS lim, ${PLAN_ID} AS plan_id`,
    [clientId, kind, day],
  );
  const before = Number(r!.used);
  const limit = r!.lim ?? 0;
  const left = Math.max(0, limit - before);
  const granted = partial ? Math.min(want, left) : want <= left ? want : 0;
  if (granted > 0)
    await tx.query('UPDATE daily_allowance SET used = used + $4::bigint WHERE client_id = $1::text AND kind = $2::text AND day = $3::date', [
      clientId,
      kind,
      day,
      granted,
    ]);
  return { granted, before, used: before + granted, limit, planId: r!.plan_id };
}

/** The allowance as it stands, without spending any (no write). */
export async function peekDaily(db: Queryable, kind: AllowanceKind, clientId: string, day: string): Promise<Allowance> {
  const [r] = await db.query<{ used: string | null; lim: number | null; plan_id: string | null }>(
    `SELECT (SELECT used FROM daily_allowance WHERE client_id = $1::text AND kind = $2::text AND day = $3::date) AS used,
            ${planLimit(kind)} AS lim, ${PLAN_ID} AS plan_id`,
    [clientId, kind, day],
  );
  const used = Number(r?.used ?? 0);
  return { granted: 0, before: used, used, limit: r?.lim ?? 0, planId: r?.plan_id ?? null };
}

/** A client's use of one allowance per UTC day from `from` to `to` (inclusive), oldest first; days without any are absent. */
export async function findDailyUse(db: Db, kind: AllowanceKind, clientId: string, from: string, to: string): Promise<{ day: string; used: number }[]> {
  const rows = await db.query<{ day: string; used: string }>(
    `SELECT day::text AS day, used FROM daily_allowance
      WHERE client_id = $1::text AND kind = $2::text AND day BETWEEN $3::date AND $4::date AND used > 0 ORDER BY day`,
    [clientId, kind, from, to],
  );
  return rows.map((r) => ({ day: r.day, used: Number(r.used) }));
}
