// SQL of market sizing: the companies a search matches, counted by up to two dimensions in one
// statement: every cell, each dimension's own totals and a few sample companies per cell. A
// company counts once per cell; a technology or category cell counts the companies with an
// install of it, so a company using three CRMs is in three technology cells but once in the
// total (and once in its country's total).
//
// Sized for 50,000 companies × 20 installs: the working set `f` is narrow (company id and the
// two values, no names), names are read for the returned rows only, and samples are drawn from
// the rows of the returned cells only (EXPLAIN ANALYZE: a wide DISTINCT over a million rows
// with names sorted on disk took 17 s for the technology dimension).
import type { Db } from '../db/db.ts';
import { Params } from '../db/sql.ts';
import { matchingCompaniesSql, type CompanySearchCriteria } from './companies.ts';
import { installsAsOf } from './installs-as-of.ts';
import type { FacetDimension } from '../schemas/facets.ts';

/** A dimension's value given the company `c` (company dimensions) or its install `i` and product `pr`. */
const VALUE_SQL: Record<FacetDimension, string> = {
  country: 'c.country::text',
  industry: 'c.industry_id',
  employeeBand: 'c.employee_band',
  revenueBand: 'c.revenue_band',
  technology: 'i.product_id',
  category: 'pr.category_id',
};
/** The name of a value `v` (ids only). */
const NAME_SQL: Partial<Record<FacetDimension, (v: string) => string>> = {
  industry: (v) => `(SELECT name FROM industries WHERE id = ${v})`,
  technology: (v) => `(SELECT name FROM products WHERE id = ${v})`,
  category: (v) => `(SELECT name FROM categories WHERE id = ${v})`,
};
const fromInstalls = (d: FacetDimension | undefined) => d === 'technology' || d === 'category';

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
 * dimension are returned (ties by value); `cellCount` says how many cells there were in all.
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
  const [d1, d2] = dimensions as [FacetDimension, FacetDimension | undefined];
  const usesInstalls = fromInstalls(d1) || fromInstalls(d2);
  // Samples read the company's name: in `f` (one hash join), not by a lookup per row of the cells.
  const usesCompany = sample > 0 || !fromInstalls(d1) || (d2 !== undefined && !fromInstalls(d2));
  // A company without an install is in the null cell of an install dimension (LEFT JOIN).
  // Installs join the company row where there is one (on Citus, sharded tables join each
  // other on their distribution columns, not each with the matches).
  const companyId = usesCompany ? 'c.id' : 'm.id';
  const installs = !usesInstalls
    ? ''
    : criteria.asOf
      ? `LEFT JOIN LATERAL (SELECT a.product_id FROM ${installsAsOf(companyId, criteria.asOf, p)} a) i ON true`
      : `LEFT JOIN installs i ON i.company_id = ${companyId}`;
  const products = d1 === 'category' || d2 === 'category' ? 'LEFT JOIN products pr ON pr.id = i.product_id' : '';
  // (company, product) is unique; (company, category) is not: two products of one category.
  const distinct = d1 === 'category' || d2 === 'category' ? 'DISTINCT' : '';
  const v2 = d2 ? VALUE_SQL[d2] : 'NULL::text';
  const limitP = p.add(limit, 'int');
  // A dimension's totals count a company once: distinct (id, value) when the other dimension
  // may hold the company in several cells (an install dimension).
  const totals = (v: 'v1' | 'v2', other: FacetDimension | undefined) =>
    `SELECT ${v} AS v, count(*)::int AS companies FROM (SELECT ${fromInstalls(other) ? 'DISTINCT' : ''} id, ${v} FROM f) x GROUP BY ${v}
      ORDER BY companies DESC, ${v} NULLS LAST LIMIT ${limitP}`;
  const name = (d: FacetDimension | undefined, v: string) => (d && NAME_SQL[d] ? NAME_SQL[d](v) : 'NULL::text');
  // Values are never '' (ids, codes, labels): '' stands for null in the join of rows to cells.
  const key = (v: string) => `coalesce(${v}, '')`;
  // A cell's first companies by name, from the rows of the returned cells only.
  const picked =
    sample > 0
      ? `SELECT s.v1, s.v2, json_agg(json_build_object('domain', s.domain, 'name', s.name) ORDER BY s.rn) AS sample
           FROM (SELECT f.v1, f.v2, f.domain, f.name,
                        row_number() OVER (PARTITION BY f.v1, f.v2 ORDER BY lower(coalesce(f.name, f.domain)), f.id) AS rn
                   FROM f JOIN top t ON ${key('t.v1')} = ${key('f.v1')} AND ${key('t.v2')} = ${key('f.v2')}) s
          WHERE s.rn <= ${p.add(sample, 'int')}
          GROUP BY s.v1, s.v2`
      : 'SELECT NULL::text AS v1, NULL::text AS v2, NULL::json AS sample WHERE false';
  const sql = `
    WITH m AS MATERIALIZED (${matches}),
    f AS MATERIALIZED (
      SELECT ${distinct} m.id, ${VALUE_SQL[d1]} AS v1, ${v2} AS v2${sample > 0 ? ', c.domain, c.name' : ''}
        FROM m ${usesCompany ? 'JOIN companies c ON c.id = m.id' : ''} ${installs} ${products}),
    cells AS (SELECT v1, v2, count(*)::int AS companies FROM f GROUP BY v1, v2),
    top AS (SELECT v1, v2, companies, row_number() OVER (ORDER BY companies DESC, v1 NULLS LAST, v2 NULLS LAST) AS rank
              FROM cells ORDER BY rank LIMIT ${limitP}),
    picked AS (${picked}),
    counted AS (SELECT (SELECT count(*) FROM m)::int AS total, (SELECT count(*) FROM cells)::int AS cell_count)
    SELECT 0 AS level, t.v1, ${name(d1, 't.v1')} AS n1, t.v2, ${name(d2, 't.v2')} AS n2, t.companies, pk.sample, t.rank, k.total, k.cell_count
      FROM top t CROSS JOIN counted k LEFT JOIN picked pk ON ${key('pk.v1')} = ${key('t.v1')} AND ${key('pk.v2')} = ${key('t.v2')}
    ${
      d2
        ? `UNION ALL
    SELECT 1, t1.v, ${name(d1, 't1.v')}, NULL, NULL, t1.companies, NULL, row_number() OVER (ORDER BY t1.companies DESC, t1.v NULLS LAST), k.total, k.cell_count
      FROM (${totals('v1', d2)}) t1 CROSS JOIN counted k
    UNION ALL
    SELECT 2, NULL, NULL, t2.v, ${name(d2, 't2.v')}, t2.companies, NULL, row_number() OVER (ORDER BY t2.companies DESC, t2.v NULLS LAST), k.total, k.cell_count
      FROM (${totals('v2', d1)}) t2 CROSS JOIN counted k`
        : ''
    }
    ORDER BY level, rank`;
  const rows = await db.query<FacetRow & { total: number; cell_count: number }>(sql, p.values);
  // Every matching company is in a cell (no install: the null cell), so no row means no match.
  if (rows.length === 0) return { total: 0, rows: [], cellCount: 0 };
  return { total: rows[0]!.total, rows, cellCount: rows[0]!.cell_count };
}
