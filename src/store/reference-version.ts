// The reference version: a counter (migration 015) that every writer of industries,
// categories, vendors or products bumps in the transaction of its change (change-notes.ts). Caches of
// reference data (http/reference-cache.ts, the prompt catalog) compare it instead of
// re-reading the tables.
import type { Db } from '../db/db.ts';

export async function readReferenceVersion(db: Db): Promise<number> {
  const [r] = await db.queryArrays<[string | number]>('SELECT version FROM reference_version WHERE id');
  return Number(r![0]);
}
