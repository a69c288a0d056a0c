// The industry taxonomy: full list and one industry.
import type { Db } from '../db/db.ts';
import type { Industry } from '../schemas/industries.ts';
import { findIndustry, listIndustries as listRows } from '../store/industries.ts';
import { notFound } from './resolve.ts';

export async function listIndustries(db: Db): Promise<Industry[]> {
  return listRows(db);
}

export async function getIndustry(db: Db, id: string): Promise<Industry> {
  const row = await findIndustry(db, id);
  if (!row) throw notFound('industryId', 'industry', id);
  return row;
}
