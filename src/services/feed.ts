// A company's news feed, newest first, 20 items a page, walked with signed cursors.
import type { Db } from '../db/db.ts';
import { FEED_PAGE_SIZE, type Feed, type FeedInput, type FeedItem } from '../schemas/feed.ts';
import { feedItems, type FeedItemRow } from '../store/feed.ts';
import { serviceCursorKey, signCursor, verifyCursor } from './cursors.ts';
import { requireCompany } from './resolve.ts';

function toItem(r: FeedItemRow): FeedItem {
  const item: FeedItem = {
    id: r.id,
    title: r.title,
    description: r.description,
    date: new Date(r.published_at).toISOString(),
    sourceUrl: r.source_url,
    publisherName: r.publisher_name,
    publisherLogoUrl: r.publisher_logo_url,
    category: r.category as FeedItem['category'],
  };
  if (r.enclosure_image_url) item.enclosureImageUrl = r.enclosure_image_url;
  return item;
}

export async function companyFeed(db: Db, input: FeedInput, cursorSecret: string | undefined): Promise<Feed> {
  // The key on the primary (its first use stores it); the items from the replica when configured.
  const company = await requireCompany(db.read, input.companyDomain);
  const key = await serviceCursorKey(db, cursorSecret);
  const after = input.paginationId ? verifyCursor(key, company.id, input.paginationId) : null;
  // One extra row tells whether an older page exists, so the last page carries no cursor.
  const rows = await feedItems(db.read, company.id, after, FEED_PAGE_SIZE + 1);
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const feed: Feed = { feeds: page.map(toItem) };
  if (rows.length > FEED_PAGE_SIZE) {
    const last = page[page.length - 1]!;
    feed.paginationId = signCursor(key, company.id, { publishedAt: last.published_at, id: last.id });
  }
  return feed;
}
