// Writes test data the way a user does: through the importer (a JSON Lines file of one kind),
// so the change notes an import makes (events, the world and reference versions) are made.
import { Readable } from 'node:stream';
import type { Db, Queryable } from '../../src/db/db.ts';
import { recordFeedItemsAdded, withCompanyChangeEvents } from '../../src/store/change-notes.ts';
import { importFile, type ImportKind, type ImportSummary } from '../../src/ingest/import/index.ts';

/** Imports `records` (input field names, as in a file) as one file of `kind`; throws when any row is rejected. */
export async function importRecords(db: Db, kind: ImportKind, records: Record<string, unknown>[]): Promise<ImportSummary> {
  const summary = await importFile(db, kind, Readable.from(records.map((r) => `${JSON.stringify(r)}\n`)), { format: 'jsonl' });
  if (!summary.committed) throw new Error(`import of ${kind} rejected: ${JSON.stringify(summary.errors)}`);
  return summary;
}

/**
 * A news item written with SQL and its feed.item event recorded, as the feed import records
 * it: for tests that need the item inside a transaction of their own (`q`).
 */
export async function insertNewsItem(
  q: Queryable,
  item: { id: string; companyId: string; title: string; publishedAt?: string; category?: string },
): Promise<void> {
  await q.query(
    `INSERT INTO feed_items (id, company_id, published_at, title, category) VALUES ($1, $2, coalesce($3::timestamptz, now()), $4, coalesce($5, 'NEWS'))`,
    [item.id, item.companyId, item.publishedAt ?? null, item.title, item.category ?? null],
  );
  await q.query(recordFeedItemsAdded('n.id = $1'), [item.id]);
}

/**
 * An UPDATE of one company by SQL (`set` may use $2, $3… for `params`), with the
 * company.changed events and the world change the companies import records.
 */
export async function updateCompany(db: Db, companyId: string, set: string, params: unknown[] = []): Promise<void> {
  await db.transaction((tx) => withCompanyChangeEvents(tx, [companyId], () => tx.query(`UPDATE companies SET ${set} WHERE id = $1`, [companyId, ...params])));
}
