// Category chains (parent and top category of each category, kept in memory under the
// reference version) are the tree the company-product records name: held equal to the
// recursive walk in SQL they replaced, on a tree with three levels, a lone top category and
// a parent cycle (no top: a category is then its own top); and a rename shows at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { loadCategoryChains } from '../../src/store/catalog.ts';
import { importRecords } from '../helpers/import-records.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  await db.query(`INSERT INTO categories (id, name, parent_id) VALUES
    ('top', 'Top', NULL), ('mid', 'Mid', 'top'), ('leaf', 'Leaf', 'mid'), ('leaf2', 'Leaf two', 'mid'),
    ('lone', 'Lone', NULL), ('loop_a', 'Loop A', NULL), ('loop_b', 'Loop B', 'loop_a'), ('under_loop', 'Under loop', 'loop_b')`);
  await db.query(`UPDATE categories SET parent_id = 'loop_b' WHERE id = 'loop_a'`);
});
after(() => db.close());

/** The walk the page query did in SQL: each category's top ancestor, walked down from the tops. */
async function chainsInSql() {
  return db.query<{ id: string; name: string; parent_id: string | null; parent_name: string | null; root_id: string; root_name: string }>(
    `WITH RECURSIVE tree(id, root_id) AS (
       SELECT id, id FROM categories WHERE parent_id IS NULL
       UNION ALL
       SELECT c.id, t.root_id FROM categories c JOIN tree t ON c.parent_id = t.id)
     SELECT mc.id, mc.name, pc.id AS parent_id, pc.name AS parent_name, coalesce(rc.id, mc.id) AS root_id, coalesce(rc.name, mc.name) AS root_name
       FROM categories mc LEFT JOIN categories pc ON pc.id = mc.parent_id LEFT JOIN tree t ON t.id = mc.id LEFT JOIN categories rc ON rc.id = t.root_id
      ORDER BY mc.id`,
  );
}

test('the same parent and top category as the recursive walk, cycles included', async () => {
  const chains = await loadCategoryChains(db);
  const expected = await chainsInSql();
  assert.equal(chains.size, expected.length);
  for (const e of expected) {
    assert.deepEqual(
      chains.get(e.id),
      { id: e.id, name: e.name, parentId: e.parent_id, parentName: e.parent_name, rootId: e.root_id, rootName: e.root_name },
      e.id,
    );
  }
  assert.equal(chains.get('leaf')!.rootName, 'Top');
  assert.equal(chains.get('under_loop')!.rootId, 'under_loop', 'under a cycle: its own top');
});

test('a renamed category shows in the next read (the reference version moved)', async () => {
  await loadCategoryChains(db);
  await importRecords(db, 'categories', [{ id: 'top', name: 'Top renamed' }]);
  const chains = await loadCategoryChains(db);
  assert.equal(chains.get('leaf')!.rootName, 'Top renamed');
  assert.equal(chains.get('mid')!.parentName, 'Top renamed');
});
