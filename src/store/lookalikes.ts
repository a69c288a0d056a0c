// SQL for lookalikes: the whole population's in-use stacks as the latest refresh materialized
// them (with the company features of store/intelligence.ts they make the Population) and the
// few rows a page of results shows (the ids a search matches: store/companies.ts).
import type { Queryable } from '../db/db.ts';

/** Every materialized in-use stack: company id → product ids (companies the refresh has not reached are absent). */
export async function allMaterializedStacks(db: Queryable): Promise<Map<string, string[]>> {
  // Space-joined text rather than arrays: the split is far cheaper than the array parser (store/evidence.ts).
  const rows = await db.queryArrays<[string, string]>(`SELECT company_id, array_to_string(product_ids, ' ') FROM company_stacks`);
  return new Map(rows.map(([id, joined]) => [id, joined === '' ? [] : joined.split(' ')]));
}

export interface LookalikeRow {
  id: string;
  domain: string;
  name: string | null;
  industry: string | null;
  employeeBand: string | null;
  revenueBand: string | null;
  country: string | null;
}

export async function lookalikeRows(db: Queryable, ids: string[]): Promise<Map<string, LookalikeRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<LookalikeRow>(
    `SELECT c.id, c.domain, c.name, i.name AS industry, c.employee_band AS "employeeBand", c.revenue_band AS "revenueBand", trim(c.country)::text AS country
       FROM companies c LEFT JOIN industries i ON i.id = c.industry_id WHERE c.id = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function productNames(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.queryArrays<[string, string]>('SELECT id, name FROM products WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows);
}

/** Company id → domain. */
export async function findCompanyDomains(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.queryArrays<[string, string]>('SELECT id, domain FROM companies WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows);
}
