// What a writer notes of its own change, in the transaction of the change. Statement
// triggers on the world tables did this until migration 054: on a Citus cluster a
// distributed or reference table's triggers run on the shards, on the workers, where the
// coordinator's bookkeeping tables cannot be written (docs/scale-out.md). So every writer of
// the world (the importer, the detection run, the seed, the evaluation labels) says what it
// changed, through these statements, and a change made with plain SQL goes unnoticed until
// its writer notes it (docs/operations.md, "Changing data by hand").
//
// - the catalog (industries, categories, vendors, products) changed: the reference version
//   goes up, and every server drops its cached reference answers (http/reference-cache.ts);
// - companies or installs changed: a row in world_changes, and the market-sizing index of
//   every server rebuilds (services/facet-index.ts);
// - a company's industry, country, size or revenue band changed: one company.changed event
//   per field, from the old values kept before the write;
// - a news item was added: a feed.item event.
import type { Queryable, Tx } from '../db/db.ts';

/** The catalog changed: servers re-read their reference caches. */
export const NOTE_REFERENCE_CHANGE = 'UPDATE reference_version SET version = version + 1 WHERE id';

/** Companies or installs changed: market sizing rebuilds its index (rows of weight 1; concurrent writers never wait for each other). */
export const NOTE_WORLD_CHANGE = 'INSERT INTO world_changes DEFAULT VALUES';

/** NOTE_WORLD_CHANGE only when `condition` holds: for a WITH of the writing statement itself. */
export const noteWorldChangeIf = (condition: string) => `INSERT INTO world_changes (weight) SELECT 1 WHERE ${condition}`;

export async function noteReferenceChange(q: Queryable): Promise<void> {
  await q.query(NOTE_REFERENCE_CHANGE);
}

export async function noteWorldChange(q: Queryable): Promise<void> {
  await q.query(NOTE_WORLD_CHANGE);
}

/**
 * Before a write of companies: the fields whose change is an event, of the companies the
 * query `ids` names (one column of ids), kept in a temporary table of the connection until
 * RECORD_COMPANY_CHANGES compares them (or the transaction ends). Two statements.
 */
export function keepCompanyFields(ids: string): string[] {
  return [
    'DROP TABLE IF EXISTS company_fields_before',
    `CREATE TEMP TABLE company_fields_before ON COMMIT DROP AS
       SELECT id, industry_id, country::text AS country, employee_band, revenue_band, updated_at FROM companies WHERE id IN (${ids})`,
  ];
}

/**
 * After the write: one company.changed event per field whose value changed, against the
 * values keepCompanyFields kept. The id is a hash of what the event says and the
 * transaction's time (event_id(), the recipe of technographics/changes.ts), so recording
 * the same change twice writes it once; the old value held at least since the row's last
 * change, so the change happened between then and now. Two statements. (The earliest time is
 * written out, not a LATERAL subquery without FROM: Citus refuses one that calls now().)
 */
export const RECORD_COMPANY_CHANGES = [
  `INSERT INTO events (id, type, company_id, subject, occurred_at, earliest, latest, detected_at, confidence)
   SELECT event_id(ARRAY[n.id, 'company.changed', f.field, f.old_value, f.new_value, now()::text]), 'company.changed', n.id,
          jsonb_build_object('field', f.field, 'from', f.old_value, 'to', f.new_value),
          least(o.updated_at, now()) + (now() - least(o.updated_at, now())) / 2, least(o.updated_at, now()), now(), now(), 1
     FROM company_fields_before o JOIN companies n USING (id)
     CROSS JOIN LATERAL (VALUES ('industry', o.industry_id, n.industry_id),
                                ('country', o.country, n.country::text),
                                ('sizeBand', o.employee_band, n.employee_band),
                                ('revenueBand', o.revenue_band, n.revenue_band)) AS f(field, old_value, new_value)
    WHERE f.old_value IS DISTINCT FROM f.new_value
   ON CONFLICT (id) DO NOTHING`,
  'DROP TABLE company_fields_before',
];

/**
 * Runs `change` (a write of the companies `ids`, on `tx`) with its company.changed events
 * recorded and the world change noted, as the importer does for a companies file.
 */
export async function withCompanyChangeEvents<T>(tx: Tx, ids: readonly string[], change: () => Promise<T>): Promise<T> {
  const [drop, keep] = keepCompanyFields('SELECT unnest($1::text[])');
  await tx.query(drop!);
  await tx.query(keep!, [ids]);
  const result = await change();
  for (const stmt of RECORD_COMPANY_CHANGES) await tx.query(stmt);
  await noteWorldChange(tx);
  return result;
}

/** feed.item events of the news items `where` selects from feed_items `n` (added ones: an event per item, written once). */
export function recordFeedItemsAdded(where: string): string {
  return `INSERT INTO events (id, type, company_id, subject, occurred_at, earliest, latest, detected_at, confidence)
    SELECT event_id(ARRAY[n.company_id, 'feed.item', n.id]), 'feed.item', n.company_id,
           jsonb_build_object('feedItemId', n.id, 'title', n.title, 'category', n.category),
           n.published_at, n.published_at, n.published_at, now(), 1
      FROM feed_items n WHERE ${where}
    ON CONFLICT (id) DO NOTHING`;
}
