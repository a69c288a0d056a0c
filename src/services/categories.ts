// The category taxonomy: full list, one category, CSV export.
import type { Db } from '../db/db.ts';
import type { Category } from '../schemas/categories.ts';
import { listCategories as listRows, streamCategories, type CategoryRow } from '../store/categories.ts';
import { audited, type Actor } from './exports.ts';
import { requireCategories } from './resolve.ts';

const toCategory = (r: CategoryRow): Category => ({ id: r.id, name: r.name, parentId: r.parent_id, level: r.level, description: r.description });

export async function listCategories(db: Db): Promise<Category[]> {
  return (await listRows(db)).map(toCategory);
}

export async function getCategory(db: Db, id: string): Promise<Category> {
  const [row] = await requireCategories(db, [id], 'categoryId');
  return toCategory(row!);
}

export function exportCategories(db: Db, actor: Actor): AsyncIterable<Category> {
  const rows = (async function* () {
    for await (const r of streamCategories(db)) yield toCategory(r);
  })();
  return audited(db, rows, { actor, action: 'categories.export', params: {} });
}
