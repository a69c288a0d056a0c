import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, listMigrations } from '../../src/db/migrate.ts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from '../../src/db/db.ts';
import { createTestDb, TEST_DATABASE_URL } from '../helpers/db.ts';

test('migrations apply once, in order, and a failing one leaves nothing behind', async () => {
  const db = await createTestDb();
  try {
    const versions = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(
      versions.map((r) => r.version),
      listMigrations().map((m) => m.version),
    );
    assert.deepEqual(await migrate(db), [], 'a second run applies nothing');

    const broken = [{ version: 9999, name: '9999_broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();' }];
    await assert.rejects(migrate(db, broken), /Migration 9999_broken failed/);
    const left = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    assert.equal(left.length, 0, 'the failed migration rolled back whole');
    const recorded = await db.query('SELECT 1 FROM schema_migrations WHERE version = 9999');
    assert.equal(recorded.length, 0);
  } finally {
    await db.close();
  }
});

test('only numbered .sql files are migrations, each version once (the folder README is not one)', () => {
  const listed = listMigrations();
  const versions = listed.map((m) => m.version);
  assert.deepEqual(
    versions,
    [...new Set(versions)].sort((a, b) => a - b),
  );
  assert.ok(listed.every((m) => /^\d{3,}_[\w-]+$/.test(m.name)));
  assert.ok(!listed.some((m) => /readme/i.test(m.name)));
});

test('schema carries the lookups the API needs', async () => {
  const db = await createTestDb();
  try {
    const idx = await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`);
    const names = new Set(idx.map((r) => r.indexname));
    for (const name of [
      'companies_domain_key',
      'installs_pkey',
      'installs_product_idx',
      'products_vendor_idx',
      'products_category_idx',
      'vendors_name_trgm_idx',
      'companies_name_trgm_idx',
    ]) {
      assert.ok(names.has(name), `missing index ${name}`);
    }
    const plans = await db.query<{ id: string; can_ai: boolean }>('SELECT id, can_ai FROM plans ORDER BY id');
    assert.deepEqual(plans, [
      { id: 'basic', can_ai: false },
      { id: 'full', can_ai: true },
    ]);
    await assert.rejects(
      db.query(`INSERT INTO installs (company_id, product_id, first_verified, last_verified) VALUES ('x', 'y', now(), now() - interval '1 day')`),
      'installs reject unknown company/product and last < first',
    );
  } finally {
    await db.close();
  }
});

test('processes migrating one empty database at once apply each migration once (PostgreSQL)', async (t) => {
  if (!TEST_DATABASE_URL) {
    t.skip('several processes share one database only on PostgreSQL; the embedded database has one owner');
    return;
  }
  // A fresh schema with nothing in it, not even schema_migrations: as N instances of a new
  // deployment starting together see it. Each pool stands for one process.
  const schema = `m_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const pools = await Promise.all(Array.from({ length: 4 }, () => openDb({ databaseUrl: TEST_DATABASE_URL, schema, poolSize: 2 })));
  try {
    const applied = await Promise.all(pools.map((db) => migrate(db)));
    const all = applied.flat().sort();
    assert.deepEqual(
      all,
      listMigrations().map((m) => m.name),
      'every migration applied exactly once across the processes',
    );
    const [row] = await pools[0]!.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    assert.equal(row!.n, listMigrations().length);
  } finally {
    await Promise.all(pools.map((db) => db.close()));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
  }
});
