// Bulk writes of the generated demo world: one set-based INSERT … SELECT FROM unnest(...)
// per table and batch, inside the caller's transaction (Db.transaction). Array-valued
// columns (features, sources) travel as text joined by \x1f and are split in SQL,
// because unnest cannot carry arrays of arrays.
import type { Queryable, Tx } from './db.ts';

const SEP = '\x1f';
export const joinList = (xs: readonly string[]) => xs.join(SEP);

/** Tables the generator writes, children first (the order TRUNCATE and digest use). */
export const WORLD_TABLES = [
  'observations', 'truth_installs', 'truth_segments', 'contacts', 'people', 'feed_items', 'cohorts', 'installs',
  'firmographics', 'companies', 'products', 'vendors', 'categories', 'industries',
] as const;

export async function worldCounts(tx: Tx): Promise<{ companies: number; catalog: number }> {
  const [counts] = await tx.query<{ companies: number; catalog: number }>(`SELECT (SELECT count(*) FROM companies)::int AS companies,
    ((SELECT count(*) FROM categories) + (SELECT count(*) FROM vendors) + (SELECT count(*) FROM industries))::int AS catalog`);
  return counts!;
}

/** Whether any company or catalog row exists (the operator's own data, or an earlier world). */
export async function hasWorldData(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM companies) OR EXISTS (SELECT 1 FROM products) OR EXISTS (SELECT 1 FROM categories) AS any',
  );
  return row?.any ?? false;
}

/** Empties every world table (and purchases of the people removed); returns purchases dropped. */
export async function clearWorld(tx: Tx): Promise<number> {
  const [purchases] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases');
  // company_stacks: derived by the refresh, but it references companies, so it goes with them.
  await tx.query(`TRUNCATE ${WORLD_TABLES.join(', ')}, company_stacks, purchases RESTART IDENTITY`);
  return purchases!.n;
}

/**
 * Bulk-load mode for an empty world, inside the caller's transaction: secondary indexes
 * of the world tables are dropped (rebuilt once at the end, much faster than row by row)
 * and, where the role may, foreign-key triggers are skipped (the generator writes
 * referentially complete data; tests check it). Returns the function that restores both.
 */
export async function beginBulkLoad(tx: Tx): Promise<() => Promise<void>> {
  const indexes = await tx.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()))
     ORDER BY i.indexname`,
    [[...WORLD_TABLES]],
  );
  for (const ix of indexes) await tx.query(`DROP INDEX "${ix.indexname.replace(/"/g, '')}"`);
  let replica = false;
  await tx.query('SAVEPOINT bulk_load');
  try {
    await tx.query('SET LOCAL session_replication_role = replica');
    replica = true;
  } catch {
    await tx.query('ROLLBACK TO SAVEPOINT bulk_load'); // not a superuser: keep the triggers
  }
  await tx.query('RELEASE SAVEPOINT bulk_load');
  return async () => {
    if (replica) await tx.query('SET LOCAL session_replication_role = origin');
    for (const ix of indexes) await tx.query(ix.indexdef);
  };
}

export interface TaxonomyRows {
  industries: { id: string[]; name: string[]; sector: string[] };
  categories: { id: string[]; name: string[]; parent_id: (string | null)[]; level: number[]; description: string[] };
}

export async function insertTaxonomy(tx: Tx, t: TaxonomyRows): Promise<void> {
  const i = t.industries;
  await tx.query(`INSERT INTO industries (id, name, sector) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [i.id, i.name, i.sector]);
  const c = t.categories;
  // Parents precede children in the outline, so one ordered insert satisfies the FK.
  await tx.query(
    `INSERT INTO categories (id, name, parent_id, level, description)
     SELECT id, name, parent_id, level, description
     FROM unnest($1::text[], $2::text[], $3::text[], $4::smallint[], $5::text[]) WITH ORDINALITY AS t(id, name, parent_id, level, description, ord)
     ORDER BY ord`,
    [c.id, c.name, c.parent_id, c.level, c.description],
  );
}

export interface CatalogRows {
  vendors: { id: string[]; domain: string[]; name: string[]; website: string[]; logo_url: string[]; description: string[] };
  products: {
    id: string[]; vendor_id: string[]; category_id: string[]; name: string[]; short_name: string[]; description: string[];
    features: string[]; review_count: number[]; star_rating: number[]; avg_rating: number[]; image_url: string[]; product_url: string[]; public_detail_url: string[];
  };
}

export async function insertCatalog(tx: Tx, c: CatalogRows): Promise<void> {
  const v = c.vendors;
  await tx.query(
    `INSERT INTO vendors (id, domain, name, website, logo_url, description)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    [v.id, v.domain, v.name, v.website, v.logo_url, v.description],
  );
  const p = c.products;
  await tx.query(
    `INSERT INTO products (id, vendor_id, category_id, name, short_name, description, features, review_count, star_rating, avg_rating, image_url, product_url, public_detail_url)
     SELECT id, vendor_id, category_id, name, short_name, description, string_to_array(features, E'\\x1f'), review_count, star_rating, avg_rating, image_url, product_url, public_detail_url
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::real[], $10::real[], $11::text[], $12::text[], $13::text[])
       AS t(id, vendor_id, category_id, name, short_name, description, features, review_count, star_rating, avg_rating, image_url, product_url, public_detail_url)`,
    [p.id, p.vendor_id, p.category_id, p.name, p.short_name, p.description, p.features, p.review_count, p.star_rating, p.avg_rating, p.image_url, p.product_url, p.public_detail_url],
  );
}

/** Column arrays of one batch of companies and everything that belongs to them. */
export function emptyCompanyBatch() {
  return {
    companies: cols('id', 'domain', 'name', 'industry_id', 'employee_band', 'employee_count', 'revenue_band', 'revenue_usd', 'street', 'city', 'state', 'postal_code', 'country', 'phone', 'founded_year', 'website', 'logo_url', 'linkedin_url', 'crunchbase_url', 'description'),
    firmographics: cols('company_id', 'profile'),
    truthSegments: cols('company_id', 'segment_id', 'industry_id', 'size_tier', 'region', 'maturity'),
    installs: cols('company_id', 'product_id', 'first_verified', 'last_verified', 'hit_count', 'intensity', 'sources'),
    truthInstalls: cols('company_id', 'product_id', 'in_use', 'kind'),
    people: cols('id', 'company_id', 'full_name', 'title', 'seniority', 'function', 'country', 'city', 'linkedin_url'),
    contacts: cols('person_id', 'kind', 'value', 'type', 'verified'),
    feed: cols('id', 'company_id', 'published_at', 'title', 'description', 'source_url', 'publisher_name', 'publisher_logo_url', 'enclosure_image_url', 'category'),
  };
}
export type CompanyBatch = ReturnType<typeof emptyCompanyBatch>;

function cols<K extends string>(...names: K[]): Record<K, unknown[]> {
  return Object.fromEntries(names.map((n) => [n, []])) as unknown as Record<K, unknown[]>;
}

/**
 * Writes one batch, statement after statement. Callers may leave the promise pending and
 * generate the next batch meanwhile (yielding to the event loop now and then).
 */
export async function insertCompanyBatch(tx: Tx, b: CompanyBatch, updatedAt: string): Promise<void> {
  const c = b.companies;
  const f = b.firmographics;
  const s = b.truthSegments;
  const i = b.installs;
  const p = b.people;
  const k = b.contacts;
  const n = b.feed;
  const statements: Array<[string, unknown[]]> = [
    [
      `INSERT INTO companies (id, domain, name, industry_id, employee_band, employee_count, revenue_band, revenue_usd, street, city, state, postal_code, country, phone, founded_year, website, logo_url, linkedin_url, crunchbase_url, description, updated_at)
       SELECT *, $21::timestamptz FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::smallint[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[])`,
      [c.id, c.domain, c.name, c.industry_id, c.employee_band, c.employee_count, c.revenue_band, c.revenue_usd, c.street, c.city, c.state, c.postal_code, c.country, c.phone, c.founded_year, c.website, c.logo_url, c.linkedin_url, c.crunchbase_url, c.description, updatedAt],
    ],
    [`INSERT INTO firmographics (company_id, profile, updated_at) SELECT *, $3::timestamptz FROM unnest($1::text[], $2::jsonb[])`, [f.company_id, f.profile, updatedAt]],
    [
      `INSERT INTO truth_segments (company_id, segment_id, industry_id, size_tier, region, maturity) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      [s.company_id, s.segment_id, s.industry_id, s.size_tier, s.region, s.maturity],
    ],
    // The evidence (what the detector found) and the truth (the true stack) are separate sets:
    // a tool in use may leave no trace, and a trace may outlive the tool.
    [
      `INSERT INTO installs (company_id, product_id, first_verified, last_verified, hit_count, intensity, sources)
       SELECT c, p, f, l, h, n, string_to_array(s, E'\\x1f')
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::smallint[], $7::text[]) AS t(c, p, f, l, h, n, s)`,
      [i.company_id, i.product_id, i.first_verified, i.last_verified, i.hit_count, i.intensity, i.sources],
    ],
    [
      `INSERT INTO truth_installs (company_id, product_id, in_use, kind) SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[])`,
      [b.truthInstalls.company_id, b.truthInstalls.product_id, b.truthInstalls.in_use, b.truthInstalls.kind],
    ],
    [
      `INSERT INTO people (id, company_id, full_name, title, seniority, function, country, city, linkedin_url) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])`,
      [p.id, p.company_id, p.full_name, p.title, p.seniority, p.function, p.country, p.city, p.linkedin_url],
    ],
    [
      `INSERT INTO contacts (person_id, kind, value, type, verified)
       SELECT p, k, v, t, ok FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[]) WITH ORDINALITY AS x(p, k, v, t, ok, ord) ORDER BY ord`,
      [k.person_id, k.kind, k.value, k.type, k.verified],
    ],
    [
      `INSERT INTO feed_items (id, company_id, published_at, title, description, source_url, publisher_name, publisher_logo_url, enclosure_image_url, category)
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`,
      [n.id, n.company_id, n.published_at, n.title, n.description, n.source_url, n.publisher_name, n.publisher_logo_url, n.enclosure_image_url, n.category],
    ],
  ];
  for (const [text, params] of statements) await tx.query(text, params);
}

export async function insertCohortRows(tx: Tx, rows: { company_id: string[]; member_id: string[]; rank: number[]; score: number[] }): Promise<void> {
  await tx.query(
    `INSERT INTO cohorts (company_id, kind, member_id, score, rank) SELECT c, 'defined', m, s, r FROM unnest($1::text[], $2::text[], $3::real[], $4::int[]) AS t(c, m, s, r)`,
    [rows.company_id, rows.member_id, rows.score, rows.rank],
  );
}
