// SQL for usage counts per client, UTC day and operation (usage_daily): added to in batches.
import type { Db } from '../db/db.ts';

export interface UsageCount {
  clientId: string;
  day: string;
  operation: string;
  requests: number;
  errors: number;
}

/** Adds a batch of counts in one statement (one row per client, day and operation in the batch). */
export async function addUsage(db: Db, counts: UsageCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db.query(
    `INSERT INTO usage_daily (client_id, day, operation, requests, errors)
     SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::bigint[], $5::bigint[])
     ON CONFLICT (client_id, day, operation) DO UPDATE
       SET requests = usage_daily.requests + EXCLUDED.requests, errors = usage_daily.errors + EXCLUDED.errors`,
    [counts.map((c) => c.clientId), counts.map((c) => c.day), counts.map((c) => c.operation), counts.map((c) => c.requests), counts.map((c) => c.errors)],
  );
}

/** A client's counts from `from` to `to` (inclusive UTC days), oldest day first. */
export async function findUsage(db: Db, clientId: string, from: string, to: string): Promise<UsageCount[]> {
  const rows = await db.query<{ day: string; operation: string; requests: number; errors: number }>(
    `SELECT day::text AS day, operation, requests, errors FROM usage_daily
      WHERE client_id = $1::text AND day BETWEEN $2::date AND $3::date ORDER BY day, operation`,
    [clientId, from, to],
  );
  return rows.map((r) => ({ clientId, day: r.day, operation: r.operation, requests: Number(r.requests), errors: Number(r.errors) }));
}
