// Hand-built worlds for tests: give only the fields a test cares about; the rest get
// plausible defaults. Rows are inserted in foreign-key order in one transaction.
import type { Insertable } from 'kysely';
import type { Db } from '../../src/store/db.ts';
import type { Database } from '../../src/store/schema.ts';

type Partial1<T, K extends keyof T> = Partial<T> & Pick<T, K>;

export interface WorldSpec {
  industries?: Partial1<Insertable<Database['industries']>, 'id'>[];
  categories?: Partial1<Insertable<Database['categories']>, 'id'>[];
  vendors?: Partial1<Insertable<Database['vendors']>, 'id' | 'domain'>[];
  products?: Partial1<Insertable<Database['products']>, 'id' | 'vendor_id' | 'category_id'>[];
  companies?: Partial1<Insertable<Database['companies']>, 'id' | 'domain'>[];
  firmographics?: Insertable<Database['firmographics']>[];
  installs?: Partial1<Insertable<Database['installs']>, 'company_id' | 'product_id'>[];
  cohorts?: Partial1<Insertable<Database['cohorts']>, 'company_id' | 'kind' | 'member_id'>[];
  feed?: Partial1<Insertable<Database['feed_items']>, 'id' | 'company_id'>[];
  people?: Partial1<Insertable<Database['people']>, 'id'>[];
  contacts?: Partial1<Insertable<Database['contacts']>, 'person_id' | 'kind' | 'value'>[];
  truthSegments?: Insertable<Database['truth_segments']>[];
  truthInstalls?: Insertable<Database['truth_installs']>[];
}

const title = (id: string) => id.replace(/^[a-z]+_/, '').replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

export async function insertWorld(db: Db, w: WorldSpec): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const put = async <T extends keyof Database>(table: T, rows: Insertable<Database[T]>[]) => {
      if (rows.length > 0) await trx.insertInto(table).values(rows as any).execute();
    };
    await put('industries', (w.industries ?? []).map((r) => ({ name: title(r.id), sector: null, ...r })));
    await put('categories', (w.categories ?? []).map((r) => ({ name: title(r.id), parent_id: null, level: r.parent_id ? 1 : 0, description: null, ...r })));
    await put('vendors', (w.vendors ?? []).map((r) => ({ name: title(r.id), website: `https://${r.domain}`, logo_url: `https://logo.example/${r.domain}.png`, description: null, ...r })));
    await put('products', (w.products ?? []).map((r) => ({
      name: title(r.id), short_name: title(r.id).split(' ')[0], description: `${title(r.id)} does things.`, features: ['Feature A', 'Feature B', 'Feature C'],
      review_count: 10, star_rating: 4.2, avg_rating: 4.1, image_url: `https://img.example/${r.id}.png`, product_url: `https://p.example/${r.id}`, public_detail_url: `https://d.example/${r.id}`, ...r,
    })));
    await put('companies', (w.companies ?? []).map((r) => ({
      name: title(r.id), industry_id: null, employee_band: '50 - 199', employee_count: 120, revenue_band: '10M - 50M', revenue_usd: 20_000_000,
      street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US', phone: '+1 512 555 0100', founded_year: 2010,
      website: `https://${r.domain}`, logo_url: `https://logo.example/${r.domain}.png`, linkedin_url: null, crunchbase_url: null, description: null, ...r,
    })));
    await put('firmographics', w.firmographics ?? []);
    await put('installs', (w.installs ?? []).map((r) => ({
      first_verified: '2024-01-01T00:00:00Z', last_verified: '2026-10-01T00:00:00Z', hit_count: 10, intensity: 50, sources: ['website'], ...r,
    })));
    await put('cohorts', (w.cohorts ?? []).map((r, i) => ({ score: null, rank: i + 1, ...r })));
    await put('feed_items', (w.feed ?? []).map((r) => ({
      published_at: '2026-01-01T00:00:00Z', title: title(r.id), description: '', source_url: `https://news.example/${r.id}`, publisher_name: 'News Daily',
      publisher_logo_url: 'https://news.example/logo.png', enclosure_image_url: null, category: 'NEWS' as const, ...r,
    })));
    await put('people', (w.people ?? []).map((r) => ({
      company_id: null, full_name: title(r.id), title: 'Engineer', seniority: 'Senior', function: 'Engineering', country: 'US', city: 'Austin', linkedin_url: null, ...r,
    })));
    await put('contacts', (w.contacts ?? []).map((r) => ({ type: null, verified: false, ...r })));
    await put('truth_segments', w.truthSegments ?? []);
    await put('truth_installs', w.truthInstalls ?? []);
  });
}
