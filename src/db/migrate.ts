// Numbered, forward-only SQL migrations (db/migrations/NNN_name.sql), each applied in
// its own transaction under an advisory lock, so concurrent starts apply each one once.
// Applied versions are recorded by number, so shipped files are never renumbered; the
// gaps in the numbering are explained in migrations/README.md.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { distributeTables } from './citus.ts';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_KEY = 7_402_113; // arbitrary, constant: "stacklens migrations"

interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3,}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: Number(file.split('_', 1)[0]),
      name: file.replace(/\.sql$/, ''),
      sql: fs.readFileSync(`${dir}/${file}`, 'utf8'),
    }));
}

/** How many migrations the database has applied. */
export async function appliedMigrationCount(db: Db): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
  return row?.n ?? 0;
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(db: Db, migrations = listMigrations()): Promise<string[]> {
  // Under the lock too: two processes starting at once on an empty database would both pass
  // IF NOT EXISTS and race on the catalog ("duplicate key … pg_type_typname_nsp_index").
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    try {
      await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
        const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
        if (done.length === 0) {
          await tx.query(m.sql);
          await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          applied.push(m.name);
        }
      });
    } catch (err) {
      throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  await distributeTables(db);
  return applied;
}
