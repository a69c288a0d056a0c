// SQL for feed items: newest first, keyset on (published_at DESC, id DESC).
import type { Db } from '../db/db.ts';
import { Params } from '../db/sql.ts';

export interface FeedItemRow {
  id: string;
  /** published_at as ISO 8601 UTC text with microseconds: exact, for the keyset. */
  published_at: string;
  title: string;
  description: string;
  source_url: string | null;
  publisher_name: string | null;
  publisher_logo_url: string | null;
  enclosure_image_url: string | null;
  category: string;
}

/** Up to `limit` items of the company strictly older than `after` (null = the newest). */
export async function feedItems(db: Db, companyId: string, after: { publishedAt: string; id: string } | null, limit: number): Promise<FeedItemRow[]> {
  const p = new Params();
  const keyset = after ? `AND (published_at, id) < (${p.add(after.publishedAt, 'timestamptz')}, ${p.add(after.id, 'text')})` : '';
  return db.query<FeedItemRow>(
    `SELECT id, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS published_at,
            title, description, source_url, publisher_name, publisher_logo_url, enclosure_image_url, category
     FROM feed_items WHERE company_id = ${p.add(companyId, 'text')} ${keyset}
     ORDER BY published_at DESC, id DESC LIMIT ${p.add(limit, 'int')}`,
    p.values,
  );
}
