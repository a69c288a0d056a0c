// Database checks of the readiness probe: the database answers, and its schema is current.
import type { Db } from './db.ts';
import { currentQueryLimits, withQueryLimits } from './query-limits.ts';

/**
 * One statement that both pings the database (within `timeoutMs`, else a 503 error) and
 * says which of `versions` (the migrations this build ships) it has not applied.
 */
export async function missingMigrations(db: Db, versions: readonly number[], timeoutMs = 2000): Promise<number[]> {
  const limits = { deadline: Date.now() + timeoutMs, signal: currentQueryLimits()?.signal, label: `the readiness probe (${timeoutMs} ms)` };
  const rows = await withQueryLimits(limits, () =>
    db.query<{ version: number }>(
      'SELECT v AS version FROM unnest($1::int[]) AS v WHERE NOT EXISTS (SELECT 1 FROM schema_migrations m WHERE m.version = v) ORDER BY v',
      [versions],
    ),
  );
  return rows.map((r) => r.version);
}
