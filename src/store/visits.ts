// SQL of the visit log (migration 034): the append-only insert of recorded collections, and a
// company's visits read back as the change rules take them (technographics/changes.ts).
import type { Queryable, Tx } from '../db/db.ts';
import type { PageKind, SeenProduct, Visit, VisitOutcome } from '../technographics/changes.ts';

/** One recorded collection of a company's site. */
export interface VisitRow extends Visit {
  companyId: string;
  runId: string | null;
  reason: string | null;
}

/** Appends visits; one recorded again (company, time, run) is kept once. Returns how many were new. */
export async function insertVisits(tx: Tx, rows: readonly VisitRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await tx.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO site_visits (company_id, visited_at, run_key, outcome, kinds, reason, seen)
       SELECT c, t, coalesce(run, ''), o, string_to_array(k, ','), r, s::jsonb
         FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS v(c, t, run, o, k, r, s)
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    [
      rows.map((r) => r.companyId),
      rows.map((r) => r.at.toISOString()),
      rows.map((r) => r.runId),
      rows.map((r) => r.outcome),
      rows.map((r) => r.kinds.join(',')),
      rows.map((r) => r.reason),
      rows.map((r) => JSON.stringify(Object.fromEntries(r.seen))),
    ],
  );
  return added[0]?.n ?? 0;
}

type RawVisit = {
  company_id: string;
  visited_at: Date;
  run_key: string;
  outcome: VisitOutcome;
  kinds: PageKind[];
  reason: string | null;
  seen: Record<string, SeenProduct>;
};

const toVisit = (r: RawVisit): VisitRow => ({
  companyId: r.company_id,
  at: new Date(r.visited_at),
  runId: r.run_key || null,
  outcome: r.outcome,
  kinds: r.kinds,
  reason: r.reason,
  seen: new Map(Object.entries(r.seen)),
});

/** A company's visits, oldest first. */
export async function companyVisits(db: Queryable, companyId: string): Promise<VisitRow[]> {
  return (await companiesVisits(db, [companyId])).get(companyId) ?? [];
}

/** The visits of several companies in one statement, each company's oldest first. */
export async function companiesVisits(db: Queryable, companyIds: readonly string[]): Promise<Map<string, VisitRow[]>> {
  const rows = await db.query<RawVisit>(
    `SELECT company_id, visited_at, run_key, outcome, kinds, reason, seen FROM site_visits WHERE company_id = ANY($1::text[])
      ORDER BY company_id, visited_at, run_key`,
    [companyIds],
  );
  const byCompany = new Map<string, VisitRow[]>();
  for (const r of rows) {
    const list = byCompany.get(r.company_id);
    if (list) list.push(toVisit(r));
    else byCompany.set(r.company_id, [toVisit(r)]);
  }
  return byCompany;
}
