// The installs of a past moment, as a relation to read in place of `installs`: what the log
// shows then, by the rule installs are derived with (an observation within the staleness
// window before it; its dates and count up to then) and no drop since; an imported install
// (one without observations) counts from its first verification. Intensity as of then is the
// strongest single trace's weight. Used by a company's products and by company search (asOf).
import type { Params } from '../db/sql.ts';

/** A past moment to read installs at. */
export interface AsOf {
  /** The end of the day asked for (exclusive). */
  before: Date;
  /** The staleness window: a product seen within it before `before`, and not dropped since, was in use. */
  staleAfterDays: number;
}

/** The relation, with the columns of `installs` the readers use; `company` is a SQL expression (a placeholder, or `c.id` correlated). */
export function installsAsOf(company: string, asOf: AsOf, p: Params): string {
  const before = p.add(asOf.before.toISOString(), 'timestamptz');
  const stale = p.add(asOf.staleAfterDays, 'int');
  // The drops are an outer join, not a subquery per (company, product): on Citus events
  // are a local table, observations sharded, and Citus plans no correlated subquery between
  // them; a subquery of events alone it reads first and joins on the shards.
  return `(SELECT a.* FROM (
     SELECT o.company_id, o.product_id, min(o.seen_at) AS first_verified, max(o.seen_at) AS last_verified, count(*)::int AS hit_count,
          greatest(1, least(100, round(100 * max(o.weight))))::smallint AS intensity
     FROM observations o WHERE o.company_id = ${company} AND o.seen_at < ${before}
    GROUP BY o.company_id, o.product_id
   HAVING max(o.seen_at) >= ${before} - make_interval(days => ${stale})) a
   LEFT JOIN (SELECT d.company_id, d.subject->>'productId' AS product_id, d.occurred_at FROM events d
               WHERE d.type = 'technology.dropped' AND d.client_id IS NULL AND d.occurred_at < ${before}) d
     ON d.company_id = a.company_id AND d.product_id = a.product_id AND d.occurred_at > a.last_verified
   WHERE d.company_id IS NULL
   UNION ALL
   SELECT n.company_id, n.product_id, n.first_verified, least(n.last_verified, ${before}), n.hit_count, n.intensity FROM installs n
    WHERE n.company_id = ${company} AND n.first_verified < ${before}
      AND NOT EXISTS (SELECT 1 FROM observations o WHERE o.company_id = n.company_id AND o.product_id = n.product_id))`;
}
