// Hand-built worlds for tests: give only the fields a test cares about; the rest get
// plausible defaults. Rows are inserted in foreign-key order in one transaction.
import type { Db, Tx } from '../../src/db/db.ts';
import { TABLES, type ColumnSpec, type NewRow, type TableName } from '../../src/db/schema.ts';
import { noteReferenceChange, noteWorldChange, recordFeedItemsAdded } from '../../src/store/change-notes.ts';

type Partial1<T, K extends keyof T> = Partial<T> & Pick<T, K>;

export interface WorldSpec {
  industries?: Partial1<NewRow<'industries'>, 'id'>[];
  categories?: Partial1<NewRow<'categories'>, 'id'>[];
  vendors?: Partial1<NewRow<'vendors'>, 'id' | 'domain'>[];
  products?: Partial1<NewRow<'products'>, 'id' | 'vendor_id' | 'category_id'>[];
  companies?: Partial1<NewRow<'companies'>, 'id' | 'domain'>[];
  firmographics?: NewRow<'firmographics'>[];
  installs?: Partial1<NewRow<'installs'>, 'company_id' | 'product_id'>[];
  cohorts?: Partial1<NewRow<'cohorts'>, 'company_id' | 'kind' | 'member_id'>[];
  feed?: Partial1<NewRow<'feed_items'>, 'id' | 'company_id'>[];
  people?: Partial1<NewRow<'people'>, 'id'>[];
  contacts?: Partial1<NewRow<'contacts'>, 'person_id' | 'kind' | 'value'>[];
  truthSegments?: NewRow<'truth_segments'>[];
  truthInstalls?: NewRow<'truth_installs'>[];
}

const title = (id: string) =>
  id
    .replace(/^[a-z]+_/, '')
    .replace(/[_-]+/g, ' ')
    .replace(/\b\w/g, (c) => c.toUpperCase());

export async function insertWorld(db: Db, w: WorldSpec): Promise<void> {
  await db.transaction(async (tx) => {
    const put = <T extends TableName>(table: T, rows: NewRow<T>[]) => insertRows(tx, table, rows);
    await put(
      'industries',
      (w.industries ?? []).map((r) => ({ name: title(r.id), sector: null, ...r })),
    );
    await put(
      'categories',
      (w.categories ?? []).map((r) => ({ name: title(r.id), parent_id: null, level: r.parent_id ? 1 : 0, description: null, ...r })),
    );
    await put(
      'vendors',
      (w.vendors ?? []).map((r) => ({
        name: title(r.id),
        website: `https://${r.domain}`,
        logo_url: `https://logo.example/${r.domain}.png`,
        description: null,
        ...r,
      })),
    );
    await put(
      'products',
      (w.products ?? []).map((r) => ({
        name: title(r.id),
        short_name: title(r.id).split(' ')[0],
        description: `${title(r.id)} does things.`,
        features: ['Feature A', 'Feature B', 'Feature C'],
        review_count: 10,
        star_rating: 4.2,
        avg_rating: 4.1,
        image_url: `https://img.example/${r.id}.png`,
        product_url: `https://p.example/${r.id}`,
        public_detail_url: `https://d.example/${r.id}`,
        ...r,
      })),
    );
    await put(
      'companies',
      (w.companies ?? []).map((r) => ({
        name: title(r.id),
        industry_id: null,
        employee_band: '50 - 199',
        employee_count: 120,
        revenue_band: '10M - 50M',
        revenue_usd: 20_000_000,
        street: '1 Main St',
        city: 'Austin',
        state: 'TX',
        postal_code: '78701',
        country: 'US',
        phone: '+1 512 555 0100',
        founded_year: 2010,
        website: `https://${r.domain}`,
        logo_url: `https://logo.example/${r.domain}.png`,
        linkedin_url: null,
        crunchbase_url: null,
        description: null,
        ...r,
      })),
    );
    // As every writer of companies does: each domain claimed in company_domains (migration 055).
    await put(
      'company_domains',
      (w.companies ?? []).map((r) => ({ domain: r.domain, company_id: r.id })),
    );
    await put('firmographics', w.firmographics ?? []);
    await put(
      'installs',
      (w.installs ?? []).map((r) => ({
        first_verified: '2024-01-01T00:00:00Z',
        last_verified: '2026-10-01T00:00:00Z',
        hit_count: 10,
        intensity: 50,
        sources: ['website'],
        ...r,
      })),
    );
    await put(
      'cohorts',
      (w.cohorts ?? []).map((r, i) => ({ score: null, rank: i + 1, ...r })),
    );
    await put(
      'feed_items',
      (w.feed ?? []).map((r) => ({
        published_at: '2026-01-01T00:00:00Z',
        title: title(r.id),
        description: '',
        source_url: `https://news.example/${r.id}`,
        publisher_name: 'News Daily',
        publisher_logo_url: 'https://news.example/logo.png',
        enclosure_image_url: null,
        category: 'NEWS' as const,
        ...r,
      })),
    );
    await put(
      'people',
      (w.people ?? []).map((r) => ({
        company_id: null,
        full_name: title(r.id),
        title: 'Engineer',
        seniority: 'Senior',
        function: 'Engineering',
        country: 'US',
        city: 'Austin',
        linkedin_url: null,
        ...r,
      })),
    );
    await put(
      'contacts',
      (w.contacts ?? []).map((r) => ({ type: null, verified: false, ...r })),
    );
    await put('truth_segments', w.truthSegments ?? []);
    await put('truth_installs', w.truthInstalls ?? []);
    // As the importer notes what it writes: caches of the catalog and of the world drop, and
    // each news item added is a feed.item event.
    await noteReferenceChange(tx);
    await noteWorldChange(tx);
    if (w.feed?.length) await tx.query(recordFeedItemsAdded('n.id = ANY($1::text[])'), [w.feed.map((f) => f.id)]);
  });
}

/**
 * Inserts rows given as objects, in order: each run of rows naming the same columns is one
 * statement, values typed by the table itself (jsonb_populate_recordset); columns left out
 * keep their defaults. A jsonb value given as a string is JSON text, as in a SQL literal.
 */
async function insertRows<T extends TableName>(tx: Tx, table: T, rows: NewRow<T>[]): Promise<void> {
  let run: object[] = [];
  let runKey = '';
  const flush = async () => {
    if (run.length === 0) return;
    const columns = runKey
      .split(',')
      .map((c) => `"${c}"`)
      .join(', ');
    await tx.query(`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(null::${table}, $1::jsonb)`, [JSON.stringify(run)]);
    run = [];
  };
  const specs = TABLES[table] as Record<string, ColumnSpec>;
  const asJson = (column: string, value: unknown) => (specs[column]?.startsWith('jsonb') && typeof value === 'string' ? JSON.parse(value) : value);
  for (const row of rows) {
    const key = Object.keys(row).sort().join(',');
    if (key !== runKey) await flush();
    runKey = key;
    run.push(Object.fromEntries(Object.entries(row).map(([column, value]) => [column, asJson(column, value)])));
  }
  await flush();
}
