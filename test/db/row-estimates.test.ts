// Migration 024: the per-company tables carry a distinct-ratio for company_id, so the planner
// estimates one company's rows at tens, not hundreds, however many companies there are (a
// sampled estimate at 1,000,000 companies said 487 installs per company, and point reads
// planned whole-catalog joins). Checked on the migrated database of either engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';

test('company_id of installs, feed items, people and cohorts has a negative n_distinct (a ratio, right at any size)', async () => {
  const db = await createTestDb();
  try {
    const rows = await db.query<{ table: string; options: string[] | null }>(
      `SELECT c.relname AS "table", a.attoptions AS options
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND a.attname = 'company_id'
          AND c.relname IN ('installs', 'feed_items', 'people', 'cohorts')`,
    );
    assert.equal(rows.length, 4);
    for (const { table, options } of rows) {
      const ratio = Number((options ?? []).find((o) => o.startsWith('n_distinct='))?.slice('n_distinct='.length));
      assert.ok(ratio < 0 && ratio >= -0.2, `${table}.company_id n_distinct ${options}`);
    }
  } finally {
    await db.close();
  }
});
