// SQL for the native firmographic profile (jsonb: the shape evolves, so it is stored as sent).
import type { Db } from './db.ts';

export async function findFirmographicProfile(db: Db, companyId: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ profile: Record<string, unknown> }>('SELECT profile FROM firmographics WHERE company_id = $1', [companyId]);
  return row?.profile;
}
