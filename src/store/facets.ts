// SQL of market sizing: the companies a search matches, counted by up to two dimensions in one
// statement (GROUPING SETS gives every cell and each dimension's own totals in one pass), with
// a few sample companies per cell. A company counts once per cell; a technology or category
// cell counts the companies with an install of it, so a company using three CRMs is in three
// technology cells but once in the total.
import type { Db } from '../db/db.ts';
import { Params } from '../db/sql.ts';
import { matchingCompaniesSql, type CompanySearchCriteria } from './companies.ts';
import { installsAsOf } from './installs-as-of.ts';
import type { FacetDimension } from '../schemas/facets.ts';

/** How a dimension reads its value (and a name for ids), given the company `c` and, for installs, `t`. */
const DIMENSION_SQL: Record<FacetDimension, { value: string; name: string | null; installs: boolean }> = {
  country: { value: 'c.country::text', name: null, installs: false },
  industry: { value: 'c.industry_id', name: '(SELECT name FROM industries WHERE id = c.industry_id)', installs: false },
  employeeBand: { value: 'c.employee_band', name: null, installs: false },
  revenueBand: { value: 'c.revenue_band', name: null, installs: false },
  technology: { value: 't.product_id', name: 't.product_name', installs: true },
  category: { value: 't.category_id', name: 't.category_name', installs: true },
};

export interface FacetRow {
  /** 0: a cell of every dimension; 1 / 2: the totals of the first / second dimension alone. */
  level: number;
  v1: string | null;
  n1: string | null;
  v2: string | null;
  n2: string | null;
  companies: number;
  /** Up to `sample` companies of the cell (cells only), by name. */
  sample: Array<{ domain: string; name: string | null }> | null;
}

/**
 * The cells of a search by one or two dimensions, with the totals per dimension (level 1, 2)
 * and the number of matching companies (`total`). Only the `limit` largest cells and values per
 * dimension are returned (ties by value); `cells` says how many there were in all.
 */
export async function facetCounts(
  db: Db,
  criteria: CompanySearchCriteria,
  dimensions: readonly FacetDimension[],
  limit: number,
  sample: number,
): Promise<{ total: number; rows: FacetRow[]; cellCount: number }> {
  const p = new Params();
  const matches = matchingCompaniesSql(criteria, p);
  const [d1, d2] = dimensions.map((d) => DIMENSION_SQL[d]);
  const installs = d1!.installs || d2?.installs;
  const relation = criteria.asOf ? installsAsOf('c.id', criteria.asOf, p) : 'installs';
  // A company's distinct products (and their categories) when a dimension reads installs.
  const joinInstalls = installs
    ? `LEFT JOIN LATERAL (SELECT DISTINCT i.product_id, pr.name AS product_name, pr.category_id, cat.name AS category_name
                       FROM ${relation} i JOIN products pr ON pr.id = i.product_id LEFT JOIN categories cat ON cat.id = pr.category_id
                      WHERE i.company_id = c.id) t ON true`
    : '';
  const v2 = d2 ? d2.value : 'NULL::text';
  const n2 = d2?.name ?? 'NULL::text';
  // grouping(v1, v2): 0 for a cell, 1 for a first-dimension total, 2 for a second-dimension one.
  const [group, level] = d2 ? ['GROUPING SETS ((v1, v2), (v1), (v2))', 'grouping(v1, v2)'] : ['v1, v2', '0'];
  const limitP = p.add(limit, 'int');
  const sampleP = p.add(sample, 'int');
  const rows = await db.query<FacetRow & { total: number; cell_count: number }>(
    `WITH m AS MATERIALIZED (${matches}),
     f AS MATERIALIZED (
       SELECT DISTINCT c.id, c.domain, c.name, ${d1!.value} AS v1, ${d1!.name ?? 'NULL::text'} AS n1, ${v2} AS v2, ${n2} AS n2
         FROM m JOIN companies c ON c.id = m.id ${joinInstalls}),
     g AS (
       SELECT CASE ${level} WHEN 0 THEN 0 WHEN 1 THEN 1 ELSE 2 END AS level, v1, max(n1) AS n1, v2, max(n2) AS n2, count(DISTINCT id)::int AS companies
         FROM f GROUP BY ${group}),
     ranked AS (
       SELECT g.*, row_number() OVER (PARTITION BY level ORDER BY companies DESC, v1 NULLS LAST, v2 NULLS LAST) AS rank,
              count(*) FILTER (WHERE level = 0) OVER ()::int AS cell_count
         FROM g),
     samples AS (
       SELECT v1, v2, json_agg(json_build_object('domain', domain, 'name', name) ORDER BY rn) AS sample
         FROM (SELECT f.v1, f.v2, f.domain, f.name,
                      row_number() OVER (PARTITION BY f.v1, f.v2 ORDER BY lower(coalesce(f.name, f.domain)), f.id) AS rn FROM f) s
        WHERE rn <= ${sampleP}
        GROUP BY v1, v2)
     SELECT r.level, r.v1, r.n1, r.v2, r.n2, r.companies, r.cell_count, (SELECT count(*) FROM m)::int AS total, s.sample
       FROM ranked r
       LEFT JOIN samples s ON r.level = 0 AND s.v1 IS NOT DISTINCT FROM r.v1 AND s.v2 IS NOT DISTINCT FROM r.v2
      WHERE r.rank <= ${limitP}
      ORDER BY r.level, r.rank`,
    p.values,
  );
  // No match, no cell (every matching company is in one cell at least: no install is the null cell).
  if (rows.length === 0) return { total: 0, rows: [], cellCount: 0 };
  return { total: rows[0]!.total, rows, cellCount: rows[0]!.cell_count };
}
