// Bulk writes of the generated demo world, inside the caller's transaction (Db.transaction):
// the companies and what belongs to them as one COPY per table and batch (copy-text.ts), the
// catalog and cohorts as set-based INSERT … SELECT FROM unnest(...). Array-valued catalog
// columns (features) travel as text joined by \x1f and are split in SQL, because unnest
// cannot carry arrays of arrays.
import type { Queryable, Tx } from '../db/db.ts';
import { CopyRows, type CopyData } from '../db/copy-text.ts';

const SEP = '\x1f';
export const joinList = (xs: readonly string[]) => xs.join(SEP);

/** Tables the generator writes, children first (the order TRUNCATE and digest use). */
export const WORLD_TABLES = [
  'truth_history',
  'observations',
  'truth_installs',
  'truth_segments',
  'contacts',
  'people',
  'feed_items',
  'cohorts',
  'installs',
  'firmographics',
  'company_domains',
  'companies',
  'products',
  'vendors',
  'categories',
  'industries',
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
  await tx.query(
    `TRUNCATE ${WORLD_TABLES.join(', ')}, company_stacks, purchases, site_visits, events, webhook_deliveries, monitor_members, monitor_pending RESTART IDENTITY`,
  );
  return purchases!.n;
}

/** What beginBulkLoad dropped, and the way back. */
interface BulkLoad {
  /**
   * Rebuilds the dropped indexes of every world table but `cohorts` (the first refresh writes
   * cohorts after the world): once the population is read, the database builds them while the
   * refresh computes. Optional; `end` builds whatever is left.
   */
  restoreWorldIndexes(): Promise<void>;
  /** Rebuilds the indexes not rebuilt yet and restores the foreign-key triggers. */
  end(): Promise<void>;
}

/**
 * Bulk-load mode for an empty world, inside the caller's transaction: secondary indexes
 * of the world tables are dropped (rebuilt once at the end, much faster than row by row)
 * and, where the role may, foreign-key triggers are skipped (the generator writes
 * referentially complete data; tests check it).
 */
export async function beginBulkLoad(tx: Tx): Promise<BulkLoad> {
  const indexes = await tx.query<{ tablename: string; indexname: string; indexdef: string }>(
    `SELECT i.tablename, i.indexname, i.indexdef FROM pg_indexes i
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
  const dropped = new Set(indexes);
  const rebuild = async (which: (ix: (typeof indexes)[number]) => boolean) => {
    const now = [...dropped].filter(which);
    for (const ix of now) dropped.delete(ix); // before any await: a later call never builds one twice
    for (const ix of now) await tx.query(ix.indexdef);
  };
  return {
    restoreWorldIndexes: () => rebuild((ix) => ix.tablename !== 'cohorts'),
    async end() {
      if (replica) await tx.query('SET LOCAL session_replication_role = origin');
      await rebuild(() => true);
    },
  };
}

interface TaxonomyRows {
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

interface CatalogRows {
  vendors: { id: string[]; domain: string[]; name: string[]; website: string[]; logo_url: string[]; description: string[] };
  products: {
    id: string[];
    vendor_id: string[];
    category_id: string[];
    name: string[];
    short_name: string[];
    description: string[];
    features: string[];
    review_count: number[];
    star_rating: number[];
    avg_rating: number[];
    image_url: string[];
    product_url: string[];
    public_detail_url: string[];
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
    [
      p.id,
      p.vendor_id,
      p.category_id,
      p.name,
      p.short_name,
      p.description,
      p.features,
      p.review_count,
      p.star_rating,
      p.avg_rating,
      p.image_url,
      p.product_url,
      p.public_detail_url,
    ],
  );
}

/**
 * One batch of companies and everything that belongs to them, encoded row by row for COPY
 * (on the generator thread: what crosses to the writing thread is one string a table). The
 * tables are in foreign-key order.
 */
export function emptyCompanyBatch() {
  return {
    companies: new CopyRows('companies', [
      ['id', 'text'],
      ['domain', 'text'],
      ['name', 'text'],
      ['industry_id', 'text'],
      ['employee_band', 'text'],
      ['employee_count', 'int'],
      ['revenue_band', 'text'],
      ['revenue_usd', 'bigint'],
      ['street', 'text'],
      ['city', 'text'],
      ['state', 'text'],
      ['postal_code', 'text'],
      ['country', 'text'],
      ['phone', 'text'],
      ['founded_year', 'int'],
      ['website', 'text'],
      ['logo_url', 'text'],
      ['linkedin_url', 'text'],
      ['crunchbase_url', 'text'],
      ['description', 'text'],
      ['updated_at', 'timestamptz'],
    ]),
    companyDomains: new CopyRows('company_domains', [
      ['domain', 'text'],
      ['company_id', 'text'],
    ]),
    firmographics: new CopyRows('firmographics', [
      ['company_id', 'text'],
      ['profile', 'jsonb'],
      ['updated_at', 'timestamptz'],
    ]),
    truthSegments: new CopyRows('truth_segments', [
      ['company_id', 'text'],
      ['segment_id', 'text'],
      ['industry_id', 'text'],
      ['size_tier', 'text'],
      ['region', 'text'],
      ['maturity', 'text'],
    ]),
    installs: new CopyRows('installs', [
      ['company_id', 'text'],
      ['product_id', 'text'],
      ['first_verified', 'timestamptz'],
      ['last_verified', 'timestamptz'],
      ['hit_count', 'int'],
      ['intensity', 'int'],
      ['sources', 'text[]'],
    ]),
    truthInstalls: new CopyRows('truth_installs', [
      ['company_id', 'text'],
      ['product_id', 'text'],
      ['in_use', 'bool'],
      ['kind', 'text'],
    ]),
    people: new CopyRows('people', [
      ['id', 'text'],
      ['company_id', 'text'],
      ['full_name', 'text'],
      ['title', 'text'],
      ['seniority', 'text'],
      ['function', 'text'],
      ['country', 'text'],
      ['city', 'text'],
      ['linkedin_url', 'text'],
    ]),
    contacts: new CopyRows('contacts', [
      ['person_id', 'text'],
      ['kind', 'text'],
      ['value', 'text'],
      ['type', 'text'],
      ['verified', 'bool'],
    ]),
    feed: new CopyRows('feed_items', [
      ['id', 'text'],
      ['company_id', 'text'],
      ['published_at', 'timestamptz'],
      ['title', 'text'],
      ['description', 'text'],
      ['source_url', 'text'],
      ['publisher_name', 'text'],
      ['publisher_logo_url', 'text'],
      ['enclosure_image_url', 'text'],
      ['category', 'text'],
    ]),
    // What the detector found (the evidence) and the truth (the true stack) are separate sets:
    // a tool in use may leave no trace, and a trace may outlive the tool.
    observations: new CopyRows('observations', [
      ['company_id', 'text'],
      ['product_id', 'text'],
      ['seen_day', 'date'],
      ['evidence_hash', 'text'],
      ['source', 'text'],
      ['rule_id', 'text'],
      ['seen_at', 'timestamptz'],
      ['evidence', 'jsonb'],
      ['weight', 'real'],
      ['run_id', 'text'],
    ]),
    // The world's past (seed/history.ts): a panel's monthly visits, the events derived from them, the true changes.
    siteVisits: new CopyRows('site_visits', [
      ['company_id', 'text'],
      ['visited_at', 'timestamptz'],
      ['run_key', 'text'],
      ['outcome', 'text'],
      ['kinds', 'text[]'],
      ['reason', 'text'],
      ['seen', 'jsonb'],
    ]),
    events: new CopyRows('events', [
      ['id', 'text'],
      ['type', 'text'],
      ['company_id', 'text'],
      ['subject', 'jsonb'],
      ['occurred_at', 'timestamptz'],
      ['earliest', 'timestamptz'],
      ['latest', 'timestamptz'],
      ['detected_at', 'timestamptz'],
      ['confidence', 'real'],
      ['evidence', 'text[]'],
    ]),
    truthHistory: new CopyRows('truth_history', [
      ['company_id', 'text'],
      ['product_id', 'text'],
      ['period', 'int'],
      ['in_use_from', 'timestamptz'],
      ['in_use_until', 'timestamptz'],
      ['detectable', 'bool'],
      ['visible', 'bool'],
    ]),
  };
}
export type CompanyBatch = ReturnType<typeof emptyCompanyBatch>;

/** A batch ready to write, and its row counts. */
export interface EncodedCompanyBatch {
  tables: CopyData[];
  companies: number;
  installs: number;
  people: number;
  contacts: number;
  feedItems: number;
  visits: number;
  events: number;
}

export function encodeCompanyBatch(b: CompanyBatch): EncodedCompanyBatch {
  return {
    tables: Object.values(b).map((rows) => rows.encoded()),
    companies: b.companies.rows,
    installs: b.installs.rows,
    people: b.people.rows,
    contacts: b.contacts.rows,
    feedItems: b.feed.rows,
    visits: b.siteVisits.rows,
    events: b.events.rows,
  };
}

/** Writes one batch, table after table. */
export async function writeCompanyBatch(tx: Tx, batch: EncodedCompanyBatch): Promise<void> {
  for (const table of batch.tables) await tx.copyFrom(table);
}

export async function insertCohortRows(tx: Tx, rows: { company_id: string[]; member_id: string[]; rank: number[]; score: number[] }): Promise<void> {
  await tx.query(
    `INSERT INTO cohorts (company_id, kind, member_id, score, rank) SELECT c, 'defined', m, s, r FROM unnest($1::text[], $2::text[], $3::real[], $4::int[]) AS t(c, m, s, r)`,
    [rows.company_id, rows.member_id, rows.score, rows.rank],
  );
}
