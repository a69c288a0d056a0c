// SQL for the category taxonomy: listing, lookups, subtrees.
import type { Db } from '../db/db.ts';
import { inBatches } from '../db/sql.ts';

export interface CategoryRow {
  id: string;
  name: string;
  parent_id: string | null;
  level: number;
  description: string | null;
}

const COLUMNS = 'id, name, parent_id, level, description';

export async function listCategories(db: Db): Promise<CategoryRow[]> {
  return db.query<CategoryRow>(`SELECT ${COLUMNS} FROM categories ORDER BY id`);
}

/** Every category in id order, in keyset batches (for the CSV export). */
export function streamCategories(db: Db, batchSize = 1000): AsyncGenerator<CategoryRow> {
  return inBatches<CategoryRow>(
    (after) => db.query<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE id > $1 ORDER BY id LIMIT $2`, [after?.id ?? '', batchSize]),
    batchSize,
  );
}

export async function findCategoriesByIds(db: Db, ids: string[]): Promise<CategoryRow[]> {
  return db.query<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE id = ANY($1::text[])`, [ids]);
}

/** Categories whose name matches one of these, case-insensitively (names need not be unique). */
export async function findCategoriesByNames(db: Db, names: string[]): Promise<CategoryRow[]> {
  return db.query<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE lower(name) = ANY($1::text[])`, [names.map((n) => n.toLowerCase())]);
}

/** (root, id) for each given root and every category below it, the root included. */
export async function categorySubtrees(db: Db, rootIds: string[]): Promise<{ root: string; id: string }[]> {
  return db.query<{ root: string; id: string }>(
    `WITH RECURSIVE sub(root, id) AS (
       SELECT id, id FROM categories WHERE id = ANY($1::text[])
       UNION
       SELECT sub.root, c.id FROM categories c JOIN sub ON c.parent_id = sub.id
     ) SELECT root, id FROM sub`,
    [rootIds],
  );
}

/** The category and every category below it. */
export async function categoryWithDescendants(db: Db, categoryId: string): Promise<string[]> {
  return (await categorySubtrees(db, [categoryId])).map((r) => r.id);
}
