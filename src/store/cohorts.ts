// SQL for reading peer sets: cohort pages of Peer items and member lists. The refresh job writes computed cohorts (intelligence.ts); Defined
// cohorts are imported.
import type { CohortKind } from '../schemas/intelligence.ts';
import type { Db } from '../db/db.ts';
import type { CompanyRef } from './companies.ts';

export async function countCohort(db: Db, companyId: string, kind: CohortKind): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM cohorts WHERE company_id = $1 AND kind = $2', [companyId, kind]);
  return row?.n ?? 0;
}

/** A page of members in rank order (ties on the member's domain). */
export async function cohortPage(db: Db, companyId: string, kind: CohortKind, offset: number, limit: number): Promise<CompanyRef[]> {
  return db.query<CompanyRef>(
    // The company's cohort rows as a subquery of their own: on Citus they are on its shard and
    // the members on any shard, a join Citus plans only with the cohort's rows read first (the
    // CTE), where PostgreSQL inlines it into the same join.
    `WITH h AS (SELECT member_id, rank FROM cohorts WHERE company_id = $1 AND kind = $2)
     SELECT m.id, m.domain, m.name, m.logo_url AS logo
       FROM h JOIN companies m ON m.id = h.member_id
      ORDER BY h.rank, m.domain
      OFFSET $3::int LIMIT $4::int`,
    [companyId, kind, offset, limit],
  );
}

/** Member ids in rank order, at most `limit`. */
export async function cohortMemberIds(db: Db, companyId: string, kind: CohortKind, limit = 10_000): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT member_id AS id FROM cohorts WHERE company_id = $1 AND kind = $2 ORDER BY rank, member_id LIMIT $3::int',
    [companyId, kind, limit],
  );
  return rows.map((r) => r.id);
}

/** The Default-cohort members of each of the companies, as [companyId, memberId] pairs. */
export async function defaultCohortPairs(db: Db, companyIds: string[]): Promise<[string, string][]> {
  if (companyIds.length === 0) return [];
  return db.queryArrays<[string, string]>(`SELECT company_id, member_id FROM cohorts WHERE kind = 'default' AND company_id = ANY($1::text[])`, [companyIds]);
}
