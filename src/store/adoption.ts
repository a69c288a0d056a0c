// SQL of adoption trends: per month, the companies using a set of products at the month's end,
// and the adoptions and drops of those products that happened in the month.
//
// "Using at the month's end" reads the observation log as a sequence of sightings: a product
// is in use from a sighting to the next one (however far apart: seen in an archived page two
// years ago and on today's page, it was there between), and for the staleness window after
// the last one, unless a drop event falls in between, which ends the use where it happened.
// Without the bridging, a company seen today and two years ago would count only in the months
// just after each sighting, and a world observed mostly today would show a jump near today.
// An imported install (no observations) counts from its first verification.
import type { Queryable } from '../db/db.ts';
import { Params } from '../db/sql.ts';
import { matchingCompaniesSql, type CompanySearchCriteria } from './companies.ts';

interface AdoptionRow {
  start: Date;
  companies: number;
  adoptions: number;
  drops: number;
}

/** One row per month from `first` to `last` (first days of months, UTC), oldest first. */
export async function adoptionByMonth(
  db: Queryable,
  productIds: readonly string[],
  first: Date,
  last: Date,
  staleAfterDays: number,
  criteria: CompanySearchCriteria,
): Promise<AdoptionRow[]> {
  const p = new Params();
  const products = p.add(productIds, 'text[]');
  const from = p.add(first.toISOString(), 'timestamptz');
  const to = p.add(last.toISOString(), 'timestamptz');
  const stale = p.add(staleAfterDays, 'int');
  const companies = matchingCompaniesSql(criteria, p);
  const rows = await db.query<{ start: Date; companies: number; adoptions: number; drops: number }>(
    `WITH periods AS (
       SELECT g AS start, g + interval '1 month' AS finish FROM generate_series(${from}, ${to}, interval '1 month') AS g),
     matched AS MATERIALIZED (${companies}),
     sightings AS (
       SELECT o.company_id, o.product_id, o.seen_at,
              lead(o.seen_at) OVER (PARTITION BY o.company_id, o.product_id ORDER BY o.seen_at) AS next_seen
         FROM observations o WHERE o.product_id = ANY(${products})),
     spans AS (
       SELECT s.company_id, s.seen_at AS from_at,
              least(coalesce(s.next_seen, s.seen_at + make_interval(days => ${stale})),
                    coalesce((SELECT min(d.occurred_at) FROM events d
                               WHERE d.type = 'technology.dropped' AND d.client_id IS NULL AND d.company_id = s.company_id
                                 AND d.subject->>'productId' = s.product_id AND d.occurred_at > s.seen_at
                                 AND d.occurred_at < coalesce(s.next_seen, s.seen_at + make_interval(days => ${stale}))), 'infinity')) AS to_at
         FROM sightings s WHERE s.next_seen IS DISTINCT FROM s.seen_at),
     in_use AS (
       SELECT pe.start, sp.company_id FROM periods pe JOIN spans sp ON sp.from_at < pe.finish AND sp.to_at >= pe.finish
       UNION
       SELECT pe.start, i.company_id
         FROM periods pe JOIN installs i ON i.product_id = ANY(${products}) AND i.first_verified < pe.finish
        WHERE NOT EXISTS (SELECT 1 FROM observations o WHERE o.company_id = i.company_id AND o.product_id = i.product_id)),
     counted AS (
       SELECT u.start, count(*)::int AS companies FROM in_use u JOIN matched m ON m.id = u.company_id GROUP BY u.start),
     changes AS (
       SELECT pe.start, count(*) FILTER (WHERE e.type = 'technology.adopted')::int AS adoptions,
              count(*) FILTER (WHERE e.type = 'technology.dropped')::int AS drops
         FROM periods pe JOIN events e ON e.occurred_at >= pe.start AND e.occurred_at < pe.finish
              AND e.type IN ('technology.adopted', 'technology.dropped') AND e.client_id IS NULL AND e.seq IS NOT NULL
              AND e.subject->>'productId' = ANY(${products})
         JOIN matched m ON m.id = e.company_id
        GROUP BY pe.start)
     SELECT pe.start, coalesce(c.companies, 0) AS companies, coalesce(ch.adoptions, 0) AS adoptions, coalesce(ch.drops, 0) AS drops
       FROM periods pe LEFT JOIN counted c USING (start) LEFT JOIN changes ch USING (start)
      ORDER BY pe.start`,
    p.values,
  );
  return rows.map((r) => ({ start: new Date(r.start), companies: r.companies, adoptions: r.adoptions, drops: r.drops }));
}

/** The ids of the products a trend counts: one product, the products of categories, or a vendor's. */
export async function trendProductIds(db: Queryable, of: { categoryIds: readonly string[] } | { vendorId: string }): Promise<string[]> {
  const rows =
    'vendorId' in of
      ? await db.query<{ id: string }>('SELECT id FROM products WHERE vendor_id = $1', [of.vendorId])
      : await db.query<{ id: string }>('SELECT id FROM products WHERE category_id = ANY($1::text[])', [of.categoryIds]);
  return rows.map((r) => r.id);
}

/** A product's name. */
export async function productName(db: Queryable, id: string): Promise<string | undefined> {
  const [row] = await db.query<{ name: string }>('SELECT name FROM products WHERE id = $1', [id]);
  return row?.name;
}
