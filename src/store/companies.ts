// SQL for companies: lookups by domain and id and the company search (count, page, keyset batches).
import type { Db, Queryable, Tx } from '../db/db.ts';
import { noteWorldChange } from './change-notes.ts';
import { containsPattern, inBatches, Params } from '../db/sql.ts';
import { installsAsOf, type AsOf } from './installs-as-of.ts';
import type { TimeRange } from '../intelligence/buckets.ts';
import { EMPLOYEE_BAND_LABELS, REVENUE_BAND_LABELS } from '../bands.ts';

export interface CompanyRow {
  id: string;
  domain: string;
  name: string | null;
  industry_id: string | null;
  industry: string | null;
  employee_band: string | null;
  employee_count: number | null;
  revenue_band: string | null;
  revenue_usd: number | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  founded_year: number | null;
  website: string | null;
  logo_url: string | null;
  linkedin_url: string | null;
  crunchbase_url: string | null;
  description: string | null;
}

const COMPANY_COLUMNS = `c.id, c.domain, c.name, c.industry_id, ind.name AS industry, c.employee_band, c.employee_count,
  c.revenue_band, c.revenue_usd, c.street, c.city, c.state, c.postal_code, c.country::text AS country, c.phone,
  c.founded_year, c.website, c.logo_url, c.linkedin_url, c.crunchbase_url, c.description`;
const FROM = 'FROM companies c LEFT JOIN industries ind ON ind.id = c.industry_id';

/** What a search result or export line shows (CompanySummary): no more is read for the
 *  thousands of rows of an export (descriptions are the bulk of a row). */
export type CompanySummaryRow = Pick<
  CompanyRow,
  'id' | 'domain' | 'name' | 'logo_url' | 'industry' | 'revenue_band' | 'employee_band' | 'phone' | 'city' | 'state' | 'country' | 'postal_code' | 'website'
>;
const SUMMARY_COLUMNS = `c.id, c.domain, c.name, c.logo_url, ind.name AS industry, c.revenue_band, c.employee_band, c.phone,
  c.city, c.state, c.country::text AS country, c.postal_code, c.website`;

export async function findCompanyByDomain(db: Db, domain: string): Promise<CompanyRow | undefined> {
  const [row] = await db.query<CompanyRow>(`SELECT ${COMPANY_COLUMNS} ${FROM} WHERE c.domain = $1`, [domain]);
  return row;
}

/**
 * The company and its stored native firmographic profile (null when it has none) in one
 * statement: the firmographics endpoint's one read, where two cost a second round trip.
 */
export async function findCompanyWithProfile(db: Db, domain: string): Promise<(CompanyRow & { profile: Record<string, unknown> | null }) | undefined> {
  const [row] = await db.query<CompanyRow & { profile: Record<string, unknown> | null }>(
    `SELECT ${COMPANY_COLUMNS}, f.profile ${FROM} LEFT JOIN firmographics f ON f.company_id = c.id WHERE c.domain = $1`,
    [domain],
  );
  return row;
}

export interface CompanyRef {
  id: string;
  domain: string;
  name: string | null;
  logo: string | null;
}

export async function findCompaniesByDomains(db: Db, domains: string[]): Promise<CompanyRef[]> {
  return db.query<CompanyRef>('SELECT id, domain, name, logo_url AS logo FROM companies WHERE domain = ANY($1::text[])', [domains]);
}

interface CompanyFacts {
  id: string;
  domain: string;
  name: string | null;
  country: string | null;
  industry: string | null;
}

export async function companyFacts(db: Db, ids: string[]): Promise<CompanyFacts[]> {
  if (ids.length === 0) return [];
  return db.query<CompanyFacts>(
    `SELECT c.id, c.domain, c.name, trim(c.country)::text AS country, i.name AS industry
       FROM companies c LEFT JOIN industries i ON i.id = c.industry_id WHERE c.id = ANY($1::text[])`,
    [ids],
  );
}

/** A list filter over installs: companies using any (or all) of the given things. */
export interface InstallSetFilter {
  /** Vendor ids, product ids, or (for categories) requested category ids. */
  ids: string[];
  all: boolean;
}

export interface CompanySearchCriteria {
  nameContains?: string;
  /** Free-text words; each must match the name, domain or industry name. */
  terms: string[];
  countries: string[];
  industryIds: string[];
  employeeBands: string[];
  revenueBands: string[];
  domains: string[];
  states: string[];
  cities: string[];
  postalCodes: string[];
  vendorIn?: InstallSetFilter;
  vendorNotIn?: InstallSetFilter;
  productIn?: InstallSetFilter;
  productNotIn?: InstallSetFilter;
  /** Category filters: `ids` are the requested roots; `subtree` maps each root to the ids below it (itself included). */
  categoryIn?: InstallSetFilter & { subtree: { root: string; id: string }[] };
  categoryNotIn?: InstallSetFilter & { subtree: { root: string; id: string }[] };
  /** Which installs count for the filters above: intensity scores and last_verified ranges. */
  intensityScores?: number[];
  dateRanges?: TimeRange[];
  /** True when only the install scope is given: keep companies with at least one install in it. */
  requireScopedInstall: boolean;
  /** Install filters read the installs of this past moment (installs-as-of.ts) instead of today's. */
  asOf?: AsOf;
}

/** The order of search results and exports: by name (the default), employee band, revenue band or country. */
export interface CompanySort {
  by: 'name' | 'employees' | 'revenue' | 'country';
  descending: boolean;
}

export const BY_NAME: CompanySort = { by: 'name', descending: false };

/** One column of the order: an expression that is never NULL, its type (for keyset parameters) and direction. */
interface SortKey {
  expr: string;
  type: 'text' | 'int' | 'boolean';
  descending: boolean;
}

/**
 * The keys a sort orders by. Every order ends with name, then id, so it is total and stable
 * across pages. A company without the sorted value comes last either way (an unknown size is
 * neither the smallest nor the largest); bands order by their rank, not their label. Name
 * order is the index companies_sort_key_idx (migration 008).
 */
function sortKeys(sort: CompanySort, p: Params): SortKey[] {
  const name: SortKey = { expr: 'lower(coalesce(c.name, c.domain))', type: 'text', descending: false };
  const id: SortKey = { expr: 'c.id', type: 'text', descending: false };
  if (sort.by === 'name')
    return [
      { ...name, descending: sort.descending },
      { ...id, descending: sort.descending },
    ];
  const [column, value]: [string, string] =
    sort.by === 'employees'
      ? ['c.employee_band', `coalesce(array_position(${p.add(EMPLOYEE_BAND_LABELS, 'text[]')}, c.employee_band), 0)`]
      : sort.by === 'revenue'
        ? ['c.revenue_band', `coalesce(array_position(${p.add(REVENUE_BAND_LABELS, 'text[]')}, c.revenue_band), 0)`]
        : ['c.country', "coalesce(c.country::text, '')"];
  return [
    { expr: `(${column} IS NULL)`, type: 'boolean', descending: false },
    { expr: value, type: sort.by === 'country' ? 'text' : 'int', descending: sort.descending },
    name,
    id,
  ];
}

/** The keys as select-list columns k0, k1, … */
const keyColumns = (keys: SortKey[]) => keys.map((k, i) => `${k.expr} AS k${i}`).join(', ');

const orderBy = (keys: string[], sort: SortKey[]) => keys.map((k, i) => `${k}${sort[i]!.descending ? ' DESC' : ''}`).join(', ');

/**
 * Rows after `after` in the order of `keys` (export batches). One direction throughout is a
 * row comparison, which the name order's index answers; mixed directions expand into
 * (k0 > v0) OR (k0 = v0 AND k1 > v1) OR …
 */
function keysetAfter(keys: SortKey[], after: unknown[], p: Params): string {
  const values = keys.map((k, i) => p.add(after[i], k.type));
  if (keys.every((k) => k.descending === keys[0]!.descending)) {
    return `(${keys.map((k) => k.expr).join(', ')}) ${keys[0]!.descending ? '<' : '>'} (${values.join(', ')})`;
  }
  const terms = keys.map((k, i) =>
    [...keys.slice(0, i).map((prev, j) => `${prev.expr} = ${values[j]}`), `${k.expr} ${k.descending ? '<' : '>'} ${values[i]}`].join(' AND '),
  );
  return `(${terms.map((t) => `(${t})`).join(' OR ')})`;
}

function buildWhere(c: CompanySearchCriteria, p: Params): string {
  const where: string[] = [];
  const anyOf = (column: string, values: string[], cast = 'text[]') => {
    if (values.length > 0) where.push(`${column} = ANY(${p.add(values, cast)})`);
  };
  const anyOfLower = (column: string, values: string[]) => {
    if (values.length > 0)
      where.push(
        `lower(${column}) = ANY(${p.add(
          values.map((v) => v.toLowerCase()),
          'text[]',
        )})`,
      );
  };
  if (c.nameContains) where.push(`c.name ILIKE ${p.add(containsPattern(c.nameContains))}`);
  for (const term of c.terms) {
    const t = p.add(containsPattern(term));
    where.push(`(c.name ILIKE ${t} OR lower(c.domain) ILIKE ${t} OR ind.name ILIKE ${t})`);
  }
  // Compared as the column's own type (char(2)), so the planner sees its statistics and can
  // use companies_country_covering_idx; the page query below keeps a LIMIT from turning that
  // knowledge into a walk of every company in sort order (see searchCompaniesCounted).
  anyOf('c.country', c.countries, 'bpchar[]');
  anyOf('c.industry_id', c.industryIds);
  anyOf('c.employee_band', c.employeeBands);
  anyOf('c.revenue_band', c.revenueBands);
  anyOf('c.domain', c.domains);
  anyOfLower('c.state', c.states);
  anyOfLower('c.city', c.cities);
  anyOf('c.postal_code', c.postalCodes);

  // The install scope (buckets) applies inside every install sub-query.
  let scope = '';
  if (c.intensityScores) scope += ` AND i.intensity = ANY(${p.add(c.intensityScores, 'int[]')})`;
  if (c.dateRanges) {
    const from = p.add(
      c.dateRanges.map((r) => r.from?.toISOString() ?? null),
      'timestamptz[]',
    );
    const to = p.add(
      c.dateRanges.map((r) => r.to?.toISOString() ?? null),
      'timestamptz[]',
    );
    scope += ` AND EXISTS (SELECT 1 FROM unnest(${from}, ${to}) AS r(f, t)
      WHERE (r.f IS NULL OR i.last_verified >= r.f) AND (r.t IS NULL OR i.last_verified < r.t))`;
  }
  // Products are joined only for vendor filters: an inner join PostgreSQL cannot drop, which
  // cost a hash of every product per search when the filter was on product ids.
  const installsRelation = () => (c.asOf ? `${installsAsOf('c.id', c.asOf, p)} i` : 'installs i');
  const installs = (withProducts: boolean) =>
    `FROM ${installsRelation()}${withProducts ? ' JOIN products p ON p.id = i.product_id' : ''} WHERE i.company_id = c.id${scope}`;

  // any: EXISTS a matching install; all: every listed thing has a matching install.
  const setFilter = (f: InstallSetFilter | undefined, column: string, negate: boolean) => {
    if (!f || f.ids.length === 0) return;
    const ids = p.add(f.ids, 'text[]');
    const from = installs(column.startsWith('p.'));
    const cond = f.all
      ? `(SELECT count(DISTINCT ${column}) ${from} AND ${column} = ANY(${ids})) = ${p.add(new Set(f.ids).size, 'int')}`
      : `EXISTS (SELECT 1 ${from} AND ${column} = ANY(${ids}))`;
    where.push(negate ? `NOT ${cond}` : cond);
  };
  setFilter(c.vendorIn, 'p.vendor_id', false);
  setFilter(c.vendorNotIn, 'p.vendor_id', true);
  setFilter(c.productIn, 'i.product_id', false);
  setFilter(c.productNotIn, 'i.product_id', true);
  const categoryFilter = (f: CompanySearchCriteria['categoryIn'], negate: boolean) => {
    if (!f || f.ids.length === 0) return;
    const roots = p.add(
      f.subtree.map((s) => s.root),
      'text[]',
    );
    const ids = p.add(
      f.subtree.map((s) => s.id),
      'text[]',
    );
    const join = `FROM ${installsRelation()} JOIN products p ON p.id = i.product_id JOIN unnest(${roots}, ${ids}) AS cm(root, id) ON cm.id = p.category_id
      WHERE i.company_id = c.id${scope}`;
    const cond = f.all ? `(SELECT count(DISTINCT cm.root) ${join}) = ${p.add(new Set(f.ids).size, 'int')}` : `EXISTS (SELECT 1 ${join})`;
    where.push(negate ? `NOT ${cond}` : cond);
  };
  categoryFilter(c.categoryIn, false);
  categoryFilter(c.categoryNotIn, true);
  if (c.requireScopedInstall) where.push(`EXISTS (SELECT 1 ${installs(false)})`);
  return where.length > 0 ? `WHERE ${where.join('\n  AND ')}` : '';
}

/**
 * The FROM of a search's match set: industries are joined only when a search term may match
 * an industry's name. Without that join the planner can answer a country filter from the
 * covering index alone (migration 017); with it, even unused, it read the table.
 */
function matchesFrom(criteria: CompanySearchCriteria): string {
  return criteria.terms.length > 0 ? FROM : 'FROM companies c';
}

/**
 * The ids of the companies a search matches, as a statement to embed (monitors keep their
 * members with it): `restrictTo`, a placeholder of a text[] already in `p`, limits it to
 * those companies, so a monitor re-evaluates only the companies that changed.
 */
export function matchingCompaniesSql(criteria: CompanySearchCriteria, p: Params, restrictTo?: string): string {
  const where = buildWhere(criteria, p);
  const only = restrictTo ? `c.id = ANY(${restrictTo})` : '';
  const clause = only ? (where ? `${where} AND ${only}` : `WHERE ${only}`) : where;
  return `SELECT c.id ${matchesFrom(criteria)} ${clause}`;
}

/** Whether a search narrows the companies at all (else it matches every company). */
export function narrowsCompanies(criteria: CompanySearchCriteria): boolean {
  return criteria.terms.length > 0 || buildWhere(criteria, new Params()) !== '';
}

/** The ids of the companies a search matches: all of them in no order, or at most `limit` by id. */
export async function matchingCompanyIds(db: Db, criteria: CompanySearchCriteria, limit?: number): Promise<string[]> {
  const p = new Params();
  const sql = matchingCompaniesSql(criteria, p);
  const bounded = limit === undefined ? sql : `SELECT id FROM (${sql}) m ORDER BY id LIMIT ${p.add(limit, 'int')}`;
  return (await db.queryArrays<[string]>(bounded, p.values)).map((r) => r[0]);
}

/** The number of companies a search matches (also the count mode of market sizing). */
export async function countCompanies(db: Db, criteria: CompanySearchCriteria): Promise<number> {
  const p = new Params();
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int8 AS n ${matchesFrom(criteria)} ${buildWhere(criteria, p)}`, p.values);
  return row!.n;
}

/**
 * One page and the number of all matches from one statement: the filters (install
 * sub-queries included) are evaluated once, into a MATERIALIZED CTE of (id, sort keys), which
 * gives the count and, sorted, the page; only the page's rows are then read in full. A
 * `count(*) OVER ()` under the LIMIT did the same work but let the planner cost the LIMIT as
 * if it could stop early: for a popular product in a large country it walked every company
 * in sort order and probed its installs (≈ 113,000 buffers, 59 ms) where hashing the
 * product's installs against the country's companies takes ≈ 4,000 (EXPLAIN ANALYZE, scale
 * M). A page past the end (or of size 0) has no row to carry the total, so only then is it
 * counted on its own.
 */
export async function searchCompaniesCounted(
  db: Db,
  criteria: CompanySearchCriteria,
  limit: number,
  offset: number,
  sort: CompanySort = BY_NAME,
): Promise<{ rows: CompanySummaryRow[]; total: number }> {
  const p = new Params();
  const where = buildWhere(criteria, p);
  const keys = sortKeys(sort, p);
  const names = keys.map((_, i) => `k${i}`);
  const rows = await db.query<CompanySummaryRow & { total: number }>(
    `WITH matches AS MATERIALIZED (SELECT c.id, ${keyColumns(keys)} ${matchesFrom(criteria)} ${where})
     SELECT ${SUMMARY_COLUMNS}, (SELECT count(*) FROM matches)::int8 AS total
       FROM (SELECT * FROM matches ORDER BY ${orderBy(names, keys)} LIMIT ${p.add(limit, 'int')} OFFSET ${p.add(offset, 'int8')}) page
       JOIN companies c ON c.id = page.id LEFT JOIN industries ind ON ind.id = c.industry_id
      ORDER BY ${orderBy(
        names.map((n) => `page.${n}`),
        keys,
      )}`,
    p.values,
  );
  if (rows.length > 0) return { rows, total: Number(rows[0]!.total) };
  return { rows, total: offset > 0 || limit <= 0 ? await countCompanies(db, criteria) : 0 };
}

/** Every match, in the same order, read in keyset batches (for exports). */
export function streamCompanies(db: Db, criteria: CompanySearchCriteria, sort: CompanySort = BY_NAME, batchSize = 1000): AsyncGenerator<CompanySummaryRow> {
  type Keyed = CompanySummaryRow & Record<`k${number}`, unknown>;
  return inBatches<Keyed>(async (after) => {
    const p = new Params();
    let where = buildWhere(criteria, p);
    const keys = sortKeys(sort, p);
    if (after) {
      const keyset = keysetAfter(
        keys,
        keys.map((_, i) => after[`k${i}`]),
        p,
      );
      where = where ? `${where} AND ${keyset}` : `WHERE ${keyset}`;
    }
    return db.query<Keyed>(
      `SELECT ${SUMMARY_COLUMNS}, ${keyColumns(keys)} ${FROM} ${where}
        ORDER BY ${orderBy(
          keys.map((k) => k.expr),
          keys,
        )} LIMIT ${p.add(batchSize, 'int')}`,
      p.values,
    );
  }, batchSize);
}

/**
 * Deletes companies with what goes with them: their rows of every table with a foreign key
 * to companies (by cascade), their cohorts and their memberships in other companies'
 * cohorts (cohorts keep no foreign keys: the refresh writes hundreds of thousands of rows),
 * their domains (company_domains, sharded apart on Citus: no foreign key either) and the
 * world change. Returns how many were deleted.
 */
export async function deleteCompanies(tx: Tx, ids: readonly string[]): Promise<number> {
  await tx.query('DELETE FROM cohorts WHERE company_id = ANY($1::text[]) OR member_id = ANY($1::text[])', [ids]);
  await tx.query('DELETE FROM company_domains WHERE company_id = ANY($1::text[])', [ids]);
  const deleted = await tx.query('DELETE FROM companies WHERE id = ANY($1::text[]) RETURNING 1', [ids]);
  if (deleted.length > 0) await noteWorldChange(tx);
  return deleted.length;
}

/**
 * Companies by id, read in a statement of their own: a reader of rows that live apart from
 * companies (events, list rows, people) joins them here, because Citus refuses a join of
 * tables sharded apart. Ids with no company are absent from the map.
 */
export async function companiesByIds(
  db: Queryable,
  ids: Iterable<string | null>,
): Promise<Map<string, { domain: string; name: string | null; country: string | null }>> {
  const unique = [...new Set([...ids].filter((id): id is string => id !== null))];
  const found = new Map<string, { domain: string; name: string | null; country: string | null }>();
  if (unique.length === 0) return found;
  const rows = await db.query<{ id: string; domain: string; name: string | null; country: string | null }>(
    'SELECT id, domain, name, country::text AS country FROM companies WHERE id = ANY($1::text[])',
    [unique],
  );
  for (const { id, ...company } of rows) found.set(id, company);
  return found;
}
