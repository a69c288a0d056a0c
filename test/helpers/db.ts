// A fresh, migrated database per test file: in-memory PGlite by default, or a new schema
// in the PostgreSQL server named by DATABASE_URL (dropped again on close).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db, type DbTimeouts } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';

export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;

/** The schema of each PostgreSQL test database, for a second pool on it (openSecondPool). */
const schemas = new WeakMap<Db, string>();

/**
 * Another connection pool on the same database, as a second server process would open:
 * on PostgreSQL a new pool on the same schema (`separate`: the caller closes it); on PGlite,
 * which one process owns, the same Db (not to be closed twice).
 */
export async function openSecondPool(db: Db): Promise<{ db: Db; separate: boolean }> {
  const schema = schemas.get(db);
  if (!TEST_DATABASE_URL || !schema) return { db, separate: false };
  return { db: await openDb({ databaseUrl: TEST_DATABASE_URL, schema, poolSize: 5 }), separate: true };
}

const jobsSchemaOf = (schema: string) => `${schema}_jobs`;

/** The job queue's schema for an app on this test database: its own on PostgreSQL (test files run side by side), the default on PGlite. */
export function testJobsSchema(db: Db): string | undefined {
  const schema = schemas.get(db);
  return schema ? jobsSchemaOf(schema) : undefined;
}

export async function createTestDb(options: { preparedStatements?: boolean; timeouts?: DbTimeouts } = {}): Promise<Db> {
  if (!TEST_DATABASE_URL) {
    const db = await openDb(options);
    await migrate(db);
    return db;
  }
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    // Extensions live in public, shared by every test schema; create them once, serialized.
    await admin.query('BEGIN');
    await admin.query('SELECT pg_advisory_xact_lock(7402114)');
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.query('COMMIT');
  } finally {
    await admin.end();
  }
  const db = await openDb({ databaseUrl: TEST_DATABASE_URL, schema, poolSize: 5, ...options });
  await migrate(db);
  const close = db.close.bind(db);
  schemas.set(db, schema);
  return Object.assign(db, {
    async close() {
      await close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${jobsSchemaOf(schema)}" CASCADE`).finally(() => c.end());
    },
  });
}
