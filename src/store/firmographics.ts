// SQL for the native firmographic profile (jsonb, the spec's evolving shape).
import type { Db } from './db.ts';

export async function findFirmographicProfile(db: Db, companyId: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ profile: Record<string, unknown> }>('SELECT profile FROM firmographics WHERE company_id = $1', [companyId]);
  return row?.profile;
}
