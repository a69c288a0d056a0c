// SQL for the evaluation only: the demo world's hidden truth (segments, true in-use
// flags) next to what the service computed. The API never reads these tables.
import type { Db } from '../db/db.ts';
import type { InstallSignalTuple } from './intelligence.ts';
import { noteWorldChange } from './change-notes.ts';

interface TruthSegment {
  companyId: string;
  segmentId: string;
  industryId: string | null;
  sizeTier: string | null;
  region: string | null;
  maturity: string | null;
}

export async function truthSegments(db: Db): Promise<TruthSegment[]> {
  return db.query<TruthSegment>(
    `SELECT company_id AS "companyId", segment_id AS "segmentId", industry_id AS "industryId", size_tier AS "sizeTier", region, maturity
       FROM truth_segments`,
  );
}

/** The truly in-use (company, product) pairs. */
export async function truthInUse(db: Db): Promise<[string, string][]> {
  return db.queryArrays<[string, string]>('SELECT company_id, product_id FROM truth_installs WHERE in_use');
}

/** Every install's evidence with its true flag (no truth row = not in use). */
export async function labelledEvidence(db: Db): Promise<{ evidence: InstallSignalTuple; inUse: boolean }[]> {
  const rows = await db.queryArrays<[...InstallSignalTuple, boolean]>(
    `SELECT i.company_id, i.product_id,
            extract(epoch FROM i.last_verified)::float8 * 1000, extract(epoch FROM i.first_verified)::float8 * 1000,
            i.hit_count, i.intensity::int, cardinality(i.sources), coalesce(t.in_use, false)
       FROM installs i LEFT JOIN truth_installs t ON t.company_id = i.company_id AND t.product_id = i.product_id`,
  );
  return rows.map((r) => ({ evidence: r.slice(0, 7) as InstallSignalTuple, inUse: r[7] }));
}

/** Computed peers of every company for one kind, in rank order. */
export async function peersOfKind(db: Db, kind: string): Promise<Map<string, string[]>> {
  const rows = await db.queryArrays<[string, string]>('SELECT company_id, member_id FROM cohorts WHERE kind = $1 ORDER BY company_id, rank', [kind]);
  const out = new Map<string, string[]>();
  for (const [c, m] of rows) {
    const list = out.get(c);
    if (list) list.push(m);
    else out.set(c, [m]);
  }
  return out;
}

/** Truly in-use (company, product) pairs that have install evidence, by company. */
export async function evidencedTruth(db: Db): Promise<Map<string, string[]>> {
  const rows = await db.queryArrays<[string, string]>(
    `SELECT t.company_id, t.product_id FROM truth_installs t
       JOIN installs i ON i.company_id = t.company_id AND i.product_id = t.product_id
      WHERE t.in_use ORDER BY t.company_id, t.product_id`,
  );
  const out = new Map<string, string[]>();
  for (const [c, p] of rows) {
    const list = out.get(c);
    if (list) list.push(p);
    else out.set(c, [p]);
  }
  return out;
}

/** Deletes install evidence (held-out evaluation on a throwaway world only). */
export async function deleteInstalls(db: Db, pairs: [string, string][]): Promise<void> {
  for (let i = 0; i < pairs.length; i += 20_000) {
    const chunk = pairs.slice(i, i + 20_000);
    await db.query(
      `DELETE FROM installs i USING unnest($1::text[], $2::text[]) AS h(company_id, product_id)
        WHERE i.company_id = h.company_id AND i.product_id = h.product_id`,
      [chunk.map((p) => p[0]), chunk.map((p) => p[1])],
    );
  }
  if (pairs.length > 0) await noteWorldChange(db);
}

/** People with their company, for generating prompts with known intent. */
export async function peopleSample(
  db: Db,
  limit: number,
): Promise<{ id: string; title: string; seniority: string; function: string; country: string; companyId: string; companyDomain: string }[]> {
  // The sample first, then its companies: on Citus people and companies are sharded apart,
  // and a join of the two is refused (a company_id names a company: the foreign key).
  return db.query(
    `WITH p AS MATERIALIZED (
       SELECT id, title, seniority, function, country, company_id FROM people
        WHERE title IS NOT NULL AND seniority IS NOT NULL AND function IS NOT NULL AND country IS NOT NULL AND company_id IS NOT NULL
        ORDER BY md5(id) LIMIT $1::int)
     SELECT p.id, p.title, p.seniority, p.function, trim(p.country)::text AS country, c.id AS "companyId", c.domain AS "companyDomain"
       FROM p JOIN companies c ON c.id = p.company_id
      ORDER BY md5(p.id)`,
    [limit],
  );
}

/** One product's true use over a visited company's window (migration 040), dates in ms. */
export interface TrueUseRow {
  companyId: string;
  productId: string;
  from: number | null;
  until: number | null;
  detectable: boolean;
  visible: boolean;
}

export async function truthHistory(db: Db): Promise<TrueUseRow[]> {
  const rows = await db.queryArrays<[string, string, number | null, number | null, boolean, boolean]>(
    `SELECT company_id, product_id, extract(epoch FROM in_use_from)::float8 * 1000, extract(epoch FROM in_use_until)::float8 * 1000, detectable, visible
       FROM truth_history ORDER BY company_id, product_id`,
  );
  return rows.map(([companyId, productId, from, until, detectable, visible]) => ({ companyId, productId, from, until, detectable, visible }));
}

/** The companies with a visited past: their domain and the times of their first and last visit (ms). */
export async function visitedCompanies(db: Db): Promise<{ companyId: string; domain: string; first: number; last: number }[]> {
  const rows = await db.queryArrays<[string, string, number, number]>(
    `SELECT v.company_id, c.domain, extract(epoch FROM min(v.visited_at))::float8 * 1000, extract(epoch FROM max(v.visited_at))::float8 * 1000
       FROM site_visits v JOIN companies c ON c.id = v.company_id
      WHERE v.company_id IN (SELECT company_id FROM truth_history) GROUP BY v.company_id, c.domain ORDER BY v.company_id`,
  );
  return rows.map(([companyId, domain, first, last]) => ({ companyId, domain, first, last }));
}

/** Adoption and drop events about the world: company, product, type, occurredAt and the bounds it was dated between (ms). */
export async function technologyChangeEvents(
  db: Db,
): Promise<{ companyId: string; productId: string; type: string; at: number; earliest: number; latest: number }[]> {
  const rows = await db.queryArrays<[string, string, string, number, number, number]>(
    `SELECT company_id, subject->>'productId', type, extract(epoch FROM occurred_at)::float8 * 1000,
            extract(epoch FROM earliest)::float8 * 1000, extract(epoch FROM latest)::float8 * 1000 FROM events
      WHERE type IN ('technology.adopted', 'technology.dropped') AND client_id IS NULL ORDER BY company_id, occurred_at, id`,
  );
  return rows.map(([companyId, productId, type, at, earliest, latest]) => ({ companyId, productId, type, at, earliest, latest }));
}
