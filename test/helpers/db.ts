// A fresh, migrated database per test file: in-memory PGlite by default, or a new schema
// in the PostgreSQL server named by DATABASE_URL (dropped again on close).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDb, type Db, type DbTimeouts } from '../../src/db/db.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';

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

/**
 * The migrated empty database as a PGlite data-folder tarball, made once and shared by the
 * test files of a run through the OS temp folder: a new in-memory PGlite runs initdb in
 * WebAssembly and then every migration (9.4 CPU-seconds at a load of 7 on this machine), a
 * start from the tarball 4.7. Named by the migrations' text, PGlite's version and the worker's
 * start settings, so a changed migration or upgrade makes a new one.
 */
async function migratedTemplate(): Promise<Uint8Array> {
  const root = path.resolve(import.meta.dirname, '../..');
  const key = createHash('sha256')
    .update(fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')))
    .update(fs.readFileSync(path.join(root, 'src/db/pglite-worker.ts')))
    .update(JSON.stringify(listMigrations().map((m) => [m.name, m.sql])))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `stacklens-test-db-${key}.tar`);
  try {
    return fs.readFileSync(file);
  } catch {
    // not made yet by this run or an earlier one
  }
  const db = await openDb({});
  try {
    await migrate(db);
    const tar = await db.embeddedSnapshot!();
    // Written whole under a name of its own, then renamed: a file beside never reads half of it.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, tar);
    fs.renameSync(partial, file);
    // Templates of other migration sets (43 MB each) go once a day old: another checkout's run may still use a newer one.
    for (const name of fs.readdirSync(os.tmpdir())) {
      const other = path.join(os.tmpdir(), name);
      if (/^stacklens-test-db-[0-9a-f]{16}\.tar$/.test(name) && other !== file && fs.statSync(other).mtimeMs < Date.now() - 86_400_000)
        fs.rmSync(other, { force: true });
    }
    return tar;
  } finally {
    await db.close();
  }
}
let template: Promise<Uint8Array> | undefined;

export async function createTestDb(options: { preparedStatements?: boolean; timeouts?: DbTimeouts } = {}): Promise<Db> {
  if (!TEST_DATABASE_URL) {
    template ??= migratedTemplate();
    const db = await openDb({ ...options, snapshot: await template });
    await migrate(db); // applies nothing (the template is named by the migrations); ~0.1 s, and it keeps the helper honest
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
