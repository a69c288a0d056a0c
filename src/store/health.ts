// Database liveness query for the readiness probe.
import type { Db } from './db.ts';
import { currentQueryLimits, withQueryLimits } from './query-limits.ts';

/** Resolves when the database answers within `timeoutMs`; rejects (with a 503 error) otherwise. */
export async function pingDatabase(db: Db, timeoutMs = 2000): Promise<void> {
  const limits = { deadline: Date.now() + timeoutMs, signal: currentQueryLimits()?.signal, label: `the readiness probe (${timeoutMs} ms)` };
  await withQueryLimits(limits, () => db.query('SELECT 1'));
}
