// SQL for service_settings: small named facts a server records for the other processes on
// the same database (last writer wins).
import type { Queryable } from '../db/db.ts';

export async function writeSetting(db: Queryable, name: string, value: unknown): Promise<void> {
  await db.query(
    `INSERT INTO service_settings (name, value) VALUES ($1, $2::jsonb)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [name, JSON.stringify(value)],
  );
}

export async function readSetting<T>(db: Queryable, name: string): Promise<{ value: T; updatedAt: Date } | undefined> {
  const [row] = await db.query<{ value: T; updated_at: Date }>('SELECT value, updated_at FROM service_settings WHERE name = $1', [name]);
  return row && { value: row.value, updatedAt: row.updated_at };
}
