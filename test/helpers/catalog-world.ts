// A small hand-made catalog world for the REST tests: a category tree, four vendors,
// six products, five companies whose installs cover every bucket, firmographics, feed.
import type { Db } from '../../src/db/db.ts';
import { insertWorld } from './fixtures.ts';

const DAY = 86_400_000;
/** An ISO timestamp `days` before now: install dates land mid-bucket, far from cut-offs. */
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

export const FORMULA_CITY = "=cmd|' /C calc'!A0";

export async function insertCatalogWorld(db: Db): Promise<void> {
  await insertWorld(db, {
    industries: [
      { id: 'ind_software', name: 'Software', sector: 'Technology' },
      { id: 'ind_retail', name: 'Retail', sector: 'Consumer' },
    ],
    categories: [
      { id: 'cat_sales', name: 'Sales' },
      { id: 'cat_crm', name: 'CRM', parent_id: 'cat_sales', level: 1 },
      { id: 'cat_crm_smb', name: 'SMB CRM', parent_id: 'cat_crm', level: 2 },
      { id: 'cat_marketing', name: 'Marketing' },
      { id: 'cat_email', name: 'Email Marketing', parent_id: 'cat_marketing', level: 1 },
      { id: 'cat_infra', name: 'Infrastructure' },
    ],
    vendors: [
      { id: 'ven_sf', domain: 'salesforce.com', name: 'Salesforce' },
      { id: 'ven_hs', domain: 'hubspot.com', name: 'HubSpot' },
      { id: 'ven_aws', domain: 'amazon.com', name: 'Amazon Web Services' },
      { id: 'ven_mc', domain: 'mailchimp.com', name: 'Mailchimp' },
    ],
    products: [
      { id: 'prd_sf_crm', vendor_id: 'ven_sf', category_id: 'cat_crm', name: 'Sales Cloud', short_name: 'SFDC', features: ['Pipeline', 'Forecasting'] },
      { id: 'prd_sf_smb', vendor_id: 'ven_sf', category_id: 'cat_crm_smb', name: 'Essentials' },
      { id: 'prd_hs_crm', vendor_id: 'ven_hs', category_id: 'cat_crm', name: 'HubSpot CRM' },
      { id: 'prd_hs_mail', vendor_id: 'ven_hs', category_id: 'cat_email', name: 'Marketing Hub' },
      { id: 'prd_mc', vendor_id: 'ven_mc', category_id: 'cat_email', name: 'Mailchimp' },
      { id: 'prd_ec2', vendor_id: 'ven_aws', category_id: 'cat_infra', name: 'EC2', star_rating: null, avg_rating: null },
    ],
    companies: [
      {
        id: 'cmp_acme',
        domain: 'acme.com',
        name: 'Acme Corp',
        industry_id: 'ind_software',
        country: 'US',
        city: 'Austin',
        state: 'TX',
        employee_band: '200 - 499',
        revenue_band: '10M - 50M',
      },
      {
        id: 'cmp_beta',
        domain: 'beta.io',
        name: 'Beta Labs',
        industry_id: 'ind_software',
        country: 'DE',
        city: 'Berlin',
        state: 'BE',
        employee_band: '10 - 49',
        revenue_band: '1M - 2M',
        phone: null,
      },
      {
        id: 'cmp_gamma',
        domain: 'gamma.co',
        name: 'Gamma Retail',
        industry_id: 'ind_retail',
        country: 'US',
        city: 'New York',
        state: 'NY',
        employee_band: '1,000 - 4,999',
        revenue_band: '100M - 500M',
      },
      {
        id: 'cmp_delta',
        domain: 'delta.org',
        name: 'Delta',
        industry_id: 'ind_retail',
        country: 'GB',
        city: 'London',
        state: null,
        employee_band: '50 - 199',
        revenue_band: '5M - 10M',
      },
      {
        id: 'cmp_eps',
        domain: 'epsilon.com',
        name: 'Epsilon',
        industry_id: 'ind_software',
        country: 'FR',
        city: FORMULA_CITY,
        state: null,
        employee_band: '10 - 49',
        revenue_band: '2M - 5M',
      },
    ],
    installs: [
      { company_id: 'cmp_acme', product_id: 'prd_sf_crm', intensity: 80, last_verified: daysAgo(10), first_verified: daysAgo(1500), hit_count: 42 },
      { company_id: 'cmp_acme', product_id: 'prd_hs_mail', intensity: 20, last_verified: daysAgo(200), first_verified: daysAgo(1500) },
      { company_id: 'cmp_acme', product_id: 'prd_ec2', intensity: 50, last_verified: daysAgo(1000), first_verified: daysAgo(1500) },
      { company_id: 'cmp_beta', product_id: 'prd_hs_crm', intensity: 50, last_verified: daysAgo(10), first_verified: daysAgo(1500) },
      { company_id: 'cmp_beta', product_id: 'prd_mc', intensity: 70, last_verified: daysAgo(500), first_verified: daysAgo(1500) },
      { company_id: 'cmp_gamma', product_id: 'prd_sf_smb', intensity: 40, last_verified: daysAgo(500), first_verified: daysAgo(1500) },
      { company_id: 'cmp_gamma', product_id: 'prd_hs_crm', intensity: 90, last_verified: daysAgo(10), first_verified: daysAgo(1500) },
      { company_id: 'cmp_eps', product_id: 'prd_ec2', intensity: 10, last_verified: daysAgo(10), first_verified: daysAgo(1500) },
    ],
  });
}

/** Domains of a page's content, in order. */
export const domainsOf = (body: { content: { domain: string }[] }) => body.content.map((c) => c.domain);
