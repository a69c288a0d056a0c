// SQL of the market-sizing index (services/facet-index.ts): the world's version, and the
// world as the index holds it — every company's firmographic values and its installed
// products, read in one snapshot with the version of that snapshot.
import type { Db, Queryable } from '../db/db.ts';

/**
 * What the world holds for market sizing, at a version. Companies come in the order of
 * search samples (by lower(name or domain), then id), values of each dimension in the
 * order PostgreSQL sorts them, so ties between cells break as the SQL path breaks them.
 */
export interface FacetWorldRows {
  /** reference_version and the sum of world_changes, as one string. */
  version: string;
  companies: Array<[id: string, country: string | null, industryId: string | null, employeeBand: string | null, revenueBand: string | null]>;
  /** [product id, name, category id] by product id. */
  products: Array<[string, string, string | null]>;
  /** [id, name] by id. */
  categories: Array<[string, string]>;
  industries: Array<[string, string]>;
  /** Country codes and band labels in the database's order (the sort of ties). */
  countries: string[];
  employeeBands: string[];
  revenueBands: string[];
}

const VERSION_SQL = `SELECT (SELECT version FROM reference_version WHERE id)::text || '.' || (SELECT coalesce(sum(weight), 0) FROM world_changes)::text`;

/** The version the world is at in this snapshot (cheap: two small tables). */
export async function facetWorldVersion(db: Queryable): Promise<string> {
  const [r] = await db.queryArrays<[string]>(VERSION_SQL);
  return r![0];
}

/** Installs per call of `onInstalls` while loading (bounded memory and event-loop turns). */
const INSTALL_BATCH = 100_000;

/**
 * Reads the world in one REPEATABLE READ snapshot: the rows above, handed to `start`, then the
 * installs in batches of (company id, product id) ordered by company, handed to the function
 * `start` returned.
 */
export async function loadFacetWorld(db: Db, start: (world: FacetWorldRows) => (installs: Array<[string, string]>) => void): Promise<void> {
  return db.transaction(
    async (tx) => {
      const [[version]] = (await tx.queryArrays<[string]>(VERSION_SQL)) as [[string]];
      const companies = await tx.queryArrays<FacetWorldRows['companies'][number]>(
        `SELECT id, country::text, industry_id, employee_band, revenue_band FROM companies ORDER BY lower(coalesce(name, domain)), id`,
      );
      const products = await tx.queryArrays<[string, string, string | null]>('SELECT id, name, category_id FROM products ORDER BY id');
      const categories = await tx.queryArrays<[string, string]>('SELECT id, name FROM categories ORDER BY id');
      const industries = await tx.queryArrays<[string, string]>('SELECT id, name FROM industries ORDER BY id');
      const distinct = async (column: string) =>
        (await tx.queryArrays<[string]>(`SELECT DISTINCT ${column} FROM companies WHERE ${column} IS NOT NULL ORDER BY 1`)).map((r) => r[0]);
      const countries = await distinct('country::text');
      const employeeBands = await distinct('employee_band');
      const revenueBands = await distinct('revenue_band');
      const onInstalls = start({ version, companies, products, categories, industries, countries, employeeBands, revenueBands });
      let after: [string, string] = ['', ''];
      for (;;) {
        const rows = await tx.queryArrays<[string, string]>(
          `SELECT company_id, product_id FROM installs WHERE (company_id, product_id) > ($1::text, $2::text)
            ORDER BY company_id, product_id LIMIT ${INSTALL_BATCH}`,
          after,
        );
        if (rows.length === 0) break;
        onInstalls(rows);
        if (rows.length < INSTALL_BATCH) break;
        after = rows[rows.length - 1]!;
      }
    },
    { readOnly: true, isolation: 'repeatable read' },
  );
}

/** Domains and names of the sample companies, by id. */
export async function companyNamesById(db: Queryable, ids: readonly string[]): Promise<Map<string, { domain: string; name: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.queryArrays<[string, string, string | null]>('SELECT id, domain, name FROM companies WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map(([id, domain, name]) => [id, { domain, name }]));
}

/**
 * Folds the rows of world_changes into one, the sum kept (so every snapshot's sum stays what
 * it was); rows written meanwhile by other transactions are left for the next time.
 */
export async function foldWorldChanges(db: Queryable): Promise<void> {
  await db.query(
    `WITH top AS (SELECT max(id) AS id FROM world_changes),
          gone AS (DELETE FROM world_changes w USING top WHERE w.id < top.id RETURNING w.weight)
     UPDATE world_changes w SET weight = w.weight + (SELECT sum(weight) FROM gone)
       FROM top WHERE w.id = top.id AND EXISTS (SELECT 1 FROM gone)`,
  );
}
