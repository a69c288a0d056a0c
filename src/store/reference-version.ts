// The reference version: a counter bumped by triggers (migration 015) in the same
// transaction as any change to industries, categories, vendors or products. Caches of
// reference data (http/reference-cache.ts, the prompt catalog) compare it instead of
// re-reading the tables.
import type { Db } from '../db/db.ts';

export async function readReferenceVersion(db: Db): Promise<number> {
  const [r] = await db.queryArrays<[string | number]>('SELECT version FROM reference_version WHERE id');
  return Number(r![0]);
}
