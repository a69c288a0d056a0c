// A small demo world for the MCP protocol tests (seeded, refreshed) and the typical
// arguments of every tool against it: the calls a model makes.
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';

export const USER = 'analyst@example.com';

/** Seeds the world and returns each tool's typical arguments. */
export async function seedMcpWorld(db: Db, companies = 300): Promise<{ calls: Array<[string, Record<string, unknown>]>; company: string; peers: string[] }> {
  await seedWorld(db, { companies, seed: 'mcp', asOf: '2026-11-01' });
  await refreshAll(db);
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params))[0]!;
  const company = await one<{ id: string; domain: string }>(
    `SELECT c.id, c.domain FROM companies c JOIN installs i ON i.company_id = c.id GROUP BY c.id, c.domain ORDER BY count(*) DESC, c.id LIMIT 1`,
  );
  const peers = (
    await db.query<{ domain: string }>(
      // The cohort's rows first (a CTE): members live on other shards on Citus (store/cohorts.ts).
      `WITH k AS (SELECT member_id, rank FROM cohorts WHERE company_id = $1 AND kind = 'default')
       SELECT m.domain FROM k JOIN companies m ON m.id = k.member_id ORDER BY k.rank LIMIT 3`,
      [company.id],
    )
  ).map((r) => r.domain);
  const vendor = await one<{ domain: string }>(
    `SELECT v.domain FROM vendors v JOIN products p ON p.vendor_id = v.id GROUP BY v.domain ORDER BY count(*) DESC, v.domain LIMIT 1`,
  );
  const product = await one<{ id: string; name: string }>(
    `SELECT p.id, p.name FROM installs i JOIN products p ON p.id = i.product_id WHERE i.company_id = $1 ORDER BY i.intensity DESC, p.id LIMIT 1`,
    [company.id],
  );
  const person = await one<{ id: string }>(`SELECT id FROM people WHERE company_id = $1 ORDER BY id LIMIT 1`, [company.id]);
  const c = company.domain;
  return {
    company: c,
    peers,
    calls: [
      ['companies_search', { filter: { vendorDomainIn: [vendor.domain] } }],
      ['companies_search', { query: 'a', export: true, onBehalfOfUser: USER }],
      ['enrich_companies', { domains: [c, 'nobody.example'], columns: ['city', 'vendors'], onBehalfOfUser: USER }],
      ['find_lookalikes', { seedDomains: [c, ...peers.slice(0, 2)], size: 5 }],
      ['lists_upload', { name: 'Targets', rows: [{ domain: c }, { name: 'Nobody Anywhere', country: 'US' }] }],
      ['lists_get', { listId: '$lists_upload.id' }],
      ['company_products_paged', { companyDomain: c }],
      ['company_firmographics', { companyDomain: c }],
      ['company_feed', { companyDomain: c }],
      ['company_changes', { companyDomain: c }],
      ['vendors_search', { vendor: 'soft', fuzzy: true }],
      ['vendor_products', { vendorDomain: vendor.domain }],
      ['categories_list', {}],
      ['lookup', { q: product.name.slice(0, -1) }],
      ['submit_feedback', { kind: 'wrong_technology', companyDomain: c, productId: product.id, message: 'Not on their site any more' }],
      ['industries_list', {}],
      ['profiles_search', { companyDomains: [c] }],
      ['profile_get', { profileId: person.id }],
      ['profiles_purchase', { profileIds: [person.id], onBehalfOfUser: USER }],
      ['credits_balance', {}],
      ['company_cohort', { companyDomain: c, cohort: 'Default' }],
      ['company_competitors', { companyDomain: c }],
      ['usage_metrics', { companyDomain: c, cohort: 'Default' }],
      ['usage_metrics_details', { companyDomain: c, cohortCompanyDomain: peers }],
      ['products_related_in_cohort', { companyDomain: c, productId: product.id, cohort: 'Default' }],
      ['products_in_use', { companyDomain: c, productIds: [product.id, 'prd_unknown'] }],
      ['product_adoption', { productId: product.id }],
      ['find_customers_of_products', { prompt: `companies using ${product.name}`, onBehalfOfUser: USER }],
      ['find_techstacks_for_company', { companyDomain: c, onBehalfOfUser: USER }],
      ['find_people_profiles', { prompt: `CTO at ${c}`, onBehalfOfUser: USER }],
    ],
  };
}
