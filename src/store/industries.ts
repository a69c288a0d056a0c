// SQL for the industry taxonomy.
import type { Db } from '../db/db.ts';

export interface IndustryRow {
  id: string;
  name: string;
  sector: string | null;
}

export async function listIndustries(db: Db): Promise<IndustryRow[]> {
  return db.query<IndustryRow>('SELECT id, name, sector FROM industries ORDER BY lower(name), id');
}

export async function findIndustry(db: Db, id: string): Promise<IndustryRow | undefined> {
  const [row] = await db.query<IndustryRow>('SELECT id, name, sector FROM industries WHERE id = $1', [id]);
  return row;
}

/** Industries whose id or name (case-insensitive) is one of these. */
export async function findIndustriesByIdOrName(db: Db, keys: string[]): Promise<IndustryRow[]> {
  return db.query<IndustryRow>('SELECT id, name, sector FROM industries WHERE id = ANY($1::text[]) OR lower(name) = ANY($2::text[])', [
    keys,
    keys.map((k) => k.toLowerCase()),
  ]);
}
