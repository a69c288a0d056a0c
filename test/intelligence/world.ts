// A hand-built world for the intelligence tests, where the right answers are known:
// two industries, a handful of products, 70 software companies in three size bands and
// 12 finance companies, plus four companies whose stacks make the comparison obvious.
import type { WorldSpec } from '../helpers/fixtures.ts';

export const AS_OF = '2026-10-01T00:00:00Z';
const FRESH = { first_verified: '2024-01-01T00:00:00Z', last_verified: AS_OF, hit_count: 40, intensity: 70, sources: ['website', 'jobs'] };
const STALE = { first_verified: '2019-01-01T00:00:00Z', last_verified: '2020-01-01T00:00:00Z', hit_count: 1, intensity: 5, sources: ['website'] };

export function intelligenceWorld(): WorldSpec {
  const companies: NonNullable<WorldSpec['companies']> = [];
  const installs: NonNullable<WorldSpec['installs']> = [];
  const bands = ['10 - 49', '50 - 199', '200 - 499'];
  for (let i = 0; i < 70; i++) {
    const id = `cmp_soft${String(i).padStart(2, '0')}`;
    const band = bands[i % 3]!;
    companies.push({
      id,
      domain: `soft${i}.example`,
      industry_id: 'ind_soft',
      employee_band: band,
      country: i % 2 ? 'US' : 'CA',
      description: 'Cloud software for accounting teams',
    });
    installs.push({ company_id: id, product_id: i % 4 === 0 ? 'prd_crm_b' : 'prd_crm_a', ...FRESH });
    if (i % 2 === 0) installs.push({ company_id: id, product_id: 'prd_email_a', ...FRESH });
    if (i % 5 === 0) installs.push({ company_id: id, product_id: 'prd_analytics', ...FRESH });
  }
  for (let i = 0; i < 12; i++) {
    const id = `cmp_fin${String(i).padStart(2, '0')}`;
    companies.push({
      id,
      domain: `fin${i}.example`,
      industry_id: 'ind_fin',
      employee_band: '50 - 199',
      country: 'GB',
      description: 'Retail banking and lending',
    });
    installs.push({ company_id: id, product_id: 'prd_email_c', ...FRESH }, { company_id: id, product_id: 'prd_analytics', ...FRESH });
  }
  companies.push(
    {
      id: 'cmp_me',
      domain: 'me.example',
      industry_id: 'ind_soft',
      employee_band: '50 - 199',
      country: 'US',
      description: 'Cloud software for accounting teams',
    },
    { id: 'cmp_same', domain: 'same.example', industry_id: 'ind_soft', employee_band: '50 - 199', country: 'US' },
    { id: 'cmp_diff', domain: 'diff.example', industry_id: 'ind_soft', employee_band: '50 - 199', country: 'US' },
    { id: 'cmp_none', domain: 'none.example', industry_id: 'ind_soft', employee_band: '50 - 199', country: 'US' },
    { id: 'cmp_mixed', domain: 'mixed.example', industry_id: 'ind_soft', employee_band: '50 - 199', country: 'US' },
  );
  installs.push(
    { company_id: 'cmp_me', product_id: 'prd_crm_a', ...FRESH },
    { company_id: 'cmp_me', product_id: 'prd_email_a', ...FRESH },
    { company_id: 'cmp_same', product_id: 'prd_crm_a', ...FRESH },
    { company_id: 'cmp_same', product_id: 'prd_email_a', ...FRESH },
    { company_id: 'cmp_diff', product_id: 'prd_crm_b', ...FRESH },
    { company_id: 'cmp_diff', product_id: 'prd_email_c', ...FRESH },
    { company_id: 'cmp_mixed', product_id: 'prd_crm_a', ...FRESH },
    // Evidence this old and thin says the product is no longer in use.
    { company_id: 'cmp_mixed', product_id: 'prd_email_c', ...STALE },
  );
  return {
    industries: [
      { id: 'ind_soft', sector: 'Technology' },
      { id: 'ind_fin', sector: 'Finance' },
    ],
    categories: [
      { id: 'cat_sales' },
      { id: 'cat_crm', name: 'CRM', parent_id: 'cat_sales' },
      { id: 'cat_marketing' },
      { id: 'cat_email', name: 'Email Marketing', parent_id: 'cat_marketing' },
      { id: 'cat_analytics', name: 'Analytics' },
    ],
    vendors: [
      { id: 'ven_a', domain: 'a-soft.com' },
      { id: 'ven_b', domain: 'b-soft.com' },
      { id: 'ven_c', domain: 'c-soft.com' },
    ],
    products: [
      { id: 'prd_crm_a', vendor_id: 'ven_a', category_id: 'cat_crm', name: 'A CRM' },
      { id: 'prd_crm_b', vendor_id: 'ven_b', category_id: 'cat_crm', name: 'B CRM' },
      { id: 'prd_email_a', vendor_id: 'ven_a', category_id: 'cat_email', name: 'A Mail' },
      { id: 'prd_email_c', vendor_id: 'ven_c', category_id: 'cat_email', name: 'C Mail' },
      { id: 'prd_analytics', vendor_id: 'ven_b', category_id: 'cat_analytics', name: 'B Analytics' },
      { id: 'prd_unused', vendor_id: 'ven_c', category_id: 'cat_analytics', name: 'Nobody Uses' },
    ],
    companies,
    installs,
    cohorts: [
      { company_id: 'cmp_me', kind: 'defined', member_id: 'cmp_same', rank: 1 },
      { company_id: 'cmp_me', kind: 'defined', member_id: 'cmp_diff', rank: 2 },
      { company_id: 'cmp_me', kind: 'defined', member_id: 'cmp_none', rank: 3 },
    ],
  };
}
