// SQL for the evaluation only: the demo world's hidden truth (segments, true in-use
// flags) next to what the service computed. The API never reads these tables.
import type { Db } from './db.ts';
import type { EvidenceTuple } from './intelligence.ts';

export interface TruthSegment {
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
  const res = await db.pool.query<[string, string]>({ text: 'SELECT company_id, product_id FROM truth_installs WHERE in_use', rowMode: 'array' });
  return res.rows;
}

/** Every install's evidence with its true flag (no truth row = not in use). */
export async function labelledEvidence(db: Db): Promise<{ evidence: EvidenceTuple; inUse: boolean }[]> {
  const res = await db.pool.query<[...EvidenceTuple, boolean]>({
    text: `SELECT i.company_id, i.product_id,
                  extract(epoch FROM i.last_verified)::float8 * 1000, extract(epoch FROM i.first_verified)::float8 * 1000,
                  i.hit_count, i.intensity::int, cardinality(i.sources), coalesce(t.in_use, false)
             FROM installs i LEFT JOIN truth_installs t ON t.company_id = i.company_id AND t.product_id = i.product_id`,
    rowMode: 'array',
  });
  return res.rows.map((r) => ({ evidence: r.slice(0, 7) as EvidenceTuple, inUse: r[7] }));
}

/** Computed peers of every company for one kind, in rank order. */
export async function peersOfKind(db: Db, kind: string): Promise<Map<string, string[]>> {
  const res = await db.pool.query<[string, string]>({
    text: 'SELECT company_id, member_id FROM cohorts WHERE kind = $1 ORDER BY company_id, rank',
    values: [kind],
    rowMode: 'array',
  });
  const out = new Map<string, string[]>();
  for (const [c, m] of res.rows) {
    const list = out.get(c);
    if (list) list.push(m);
    else out.set(c, [m]);
  }
  return out;
}
