// Demo-world generator. Placeholder fixture world until the full generator lands
// (issue "Demo world"): a handful of rows so the service has something to serve.
import type { Db } from '../../store/db.ts';

export interface SeedOptions {
  companies: number;
  seed: string;
}

export async function seedWorld(db: Db, _options: SeedOptions): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('industries').values([{ id: 'ind_software', name: 'Software', sector: 'Technology' }]).execute();
    await trx.insertInto('categories').values([
      { id: 'cat_sales', name: 'Sales', parent_id: null, level: 0, description: null },
      { id: 'cat_crm', name: 'CRM', parent_id: 'cat_sales', level: 1, description: null },
    ]).execute();
    await trx.insertInto('vendors').values([{ id: 'ven_hubspot', domain: 'hubspot.com', name: 'HubSpot', website: 'https://hubspot.com', logo_url: null, description: null }]).execute();
    await trx.insertInto('products').values([{ id: 'prd_hubspot_crm', vendor_id: 'ven_hubspot', category_id: 'cat_crm', name: 'HubSpot CRM', short_name: 'HubSpot', star_rating: 4.4, avg_rating: 4.4, image_url: null, product_url: null, public_detail_url: null }]).execute();
    await trx.insertInto('companies').values([{ id: 'cmp_acme', domain: 'acme.example', name: 'Acme', industry_id: 'ind_software', employee_band: '50 - 199', employee_count: 120, revenue_band: '10M - 50M', revenue_usd: 20_000_000, street: null, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US', phone: null, founded_year: 2012, website: 'https://acme.example', logo_url: null, linkedin_url: null, crunchbase_url: null, description: 'Fixture company' }]).execute();
    await trx.insertInto('installs').values([{ company_id: 'cmp_acme', product_id: 'prd_hubspot_crm', first_verified: '2024-01-01T00:00:00Z', last_verified: '2026-10-01T00:00:00Z', hit_count: 12, intensity: 60, sources: ['website'] }]).execute();
  });
}
