// The category taxonomy: full list, one category, CSV export.
import type { Db } from '../store/db.ts';
import { NotFoundError } from '../errors.ts';
import type { Category } from '../schemas/categories.ts';
import { findCategory, listCategories as listRows, streamCategories, type CategoryRow } from '../store/categories.ts';
import { audited, type Actor } from './exports.ts';

const toCategory = (r: CategoryRow): Category => ({ id: r.id, name: r.name, parentId: r.parent_id, level: r.level, description: r.description });

export async function listCategories(db: Db): Promise<Category[]> {
  return (await listRows(db)).map(toCategory);
}

export async function getCategory(db: Db, id: string): Promise<Category> {
  const row = await findCategory(db, id);
  if (!row) throw new NotFoundError(`Category '${id}' not found`);
  return toCategory(row);
}

export function exportCategories(db: Db, actor: Actor): AsyncIterable<Category> {
  const rows = (async function* () {
    for await (const r of streamCategories(db)) yield toCategory(r);
  })();
  return audited(db, rows, { actor, action: 'categories.export', params: {} });
}
