// A hand-built world for the AI helper tests, where the right answers are known: 60
// software companies (HubSpot CRM or Salesforce, most with Mailchimp, some with Zendesk),
// 20 banks (Salesforce and Plausible), a target company that shows only HubSpot CRM and a
// stale Zendesk sighting, and people (with contact details that must never surface).
import type { WorldSpec } from '../helpers/fixtures.ts';

export const AS_OF = '2026-10-01T00:00:00Z';
const FRESH = {
  first_verified: '2024-01-01T00:00:00Z',
  last_verified: '2026-09-02T00:00:00Z',
  hit_count: 14,
  intensity: 80,
  sources: ['website', 'job_posting'],
};
const LIGHT = { first_verified: '2025-06-01T00:00:00Z', last_verified: '2026-09-20T00:00:00Z', hit_count: 6, intensity: 20, sources: ['dns'] };
const STALE = { first_verified: '2019-01-01T00:00:00Z', last_verified: '2020-01-01T00:00:00Z', hit_count: 1, intensity: 5, sources: ['press'] };

export function aiWorld(): WorldSpec {
  const companies: NonNullable<WorldSpec['companies']> = [];
  const installs: NonNullable<WorldSpec['installs']> = [];
  const people: NonNullable<WorldSpec['people']> = [];
  const contacts: NonNullable<WorldSpec['contacts']> = [];
  for (let i = 0; i < 60; i++) {
    const id = `cmp_soft${String(i).padStart(2, '0')}`;
    companies.push({
      id,
      domain: `soft${i}.example`,
      name: `Soft ${i} Inc`,
      industry_id: 'ind_software',
      employee_band: '50 - 199',
      country: i % 2 ? 'US' : 'DE',
    });
    installs.push({ company_id: id, product_id: i % 4 === 0 ? 'prd_sales_cloud' : 'prd_hubspot_crm', ...FRESH });
    if (i % 6 !== 0) installs.push({ company_id: id, product_id: 'prd_mailchimp', ...(i % 2 ? FRESH : LIGHT) });
    if (i % 3 === 0) installs.push({ company_id: id, product_id: 'prd_zendesk', ...FRESH });
  }
  for (let i = 0; i < 20; i++) {
    const id = `cmp_bank${String(i).padStart(2, '0')}`;
    companies.push({
      id,
      domain: `bank${i}.example`,
      name: `Bank ${i}`,
      industry_id: 'ind_banking',
      employee_band: '1,000 - 4,999',
      revenue_band: '100M - 500M',
      country: 'GB',
    });
    installs.push({ company_id: id, product_id: 'prd_sales_cloud', ...FRESH }, { company_id: id, product_id: 'prd_plausible', ...FRESH });
  }
  companies.push({ id: 'cmp_target', domain: 'target.example', name: 'Target Co', industry_id: 'ind_software', employee_band: '50 - 199', country: 'US' });
  installs.push({ company_id: 'cmp_target', product_id: 'prd_hubspot_crm', ...FRESH }, { company_id: 'cmp_target', product_id: 'prd_zendesk', ...STALE });
  const staff: [string, string, string, string, string][] = [
    ['per_t1', 'Ada Chief', 'Chief Technology Officer', 'C-Level', 'Engineering'],
    ['per_t2', 'Bob Vp', 'VP of Sales', 'VP', 'Sales'],
    ['per_t3', 'Cy Senior', 'Senior Software Engineer', 'Senior', 'Engineering'],
    ['per_t4', 'Di Junior', 'Software Engineer', 'Entry', 'Engineering'],
    ['per_t5', 'Ed Market', 'Marketing Manager', 'Manager', 'Marketing'],
  ];
  for (const [id, full_name, title, seniority, fn] of staff) {
    people.push({ id, company_id: 'cmp_target', full_name, title, seniority, function: fn, country: 'US', city: 'Austin' });
    contacts.push({ person_id: id, kind: 'email', value: `${id}@target.example` }, { person_id: id, kind: 'phone', value: '+1 512 555 0199' });
  }
  for (let i = 0; i < 6; i++) {
    people.push({
      id: `per_b${i}`,
      company_id: `cmp_bank0${i}`,
      full_name: `Banker ${i}`,
      title: i % 2 ? 'VP of Sales' : 'Sales Manager',
      seniority: i % 2 ? 'VP' : 'Manager',
      function: 'Sales',
      country: 'GB',
      city: 'London',
    });
    contacts.push({ person_id: `per_b${i}`, kind: 'email', value: `banker${i}@bank${i}.example` });
  }
  return {
    industries: [
      { id: 'ind_software', name: 'Software', sector: 'Technology' },
      { id: 'ind_banking', name: 'Banking', sector: 'Finance' },
    ],
    categories: [
      { id: 'cat_sales', name: 'Sales' },
      { id: 'cat_crm', name: 'CRM', parent_id: 'cat_sales' },
      { id: 'cat_email', name: 'Email Marketing' },
      { id: 'cat_helpdesk', name: 'Help Desk' },
      { id: 'cat_analytics', name: 'Web Analytics' },
    ],
    vendors: [
      { id: 'ven_hubspot', domain: 'hubspot.com', name: 'HubSpot' },
      { id: 'ven_salesforce', domain: 'salesforce.com', name: 'Salesforce' },
      { id: 'ven_mailchimp', domain: 'mailchimp.com', name: 'Mailchimp' },
      { id: 'ven_zendesk', domain: 'zendesk.com', name: 'Zendesk' },
      { id: 'ven_plausible', domain: 'plausible.io', name: 'Plausible' },
    ],
    products: [
      { id: 'prd_hubspot_crm', vendor_id: 'ven_hubspot', category_id: 'cat_crm', name: 'HubSpot CRM', short_name: null },
      { id: 'prd_sales_cloud', vendor_id: 'ven_salesforce', category_id: 'cat_crm', name: 'Salesforce Sales Cloud', short_name: 'Sales Cloud' },
      { id: 'prd_mailchimp', vendor_id: 'ven_mailchimp', category_id: 'cat_email', name: 'Mailchimp Marketing', short_name: null },
      { id: 'prd_zendesk', vendor_id: 'ven_zendesk', category_id: 'cat_helpdesk', name: 'Zendesk Support', short_name: null },
      { id: 'prd_plausible', vendor_id: 'ven_plausible', category_id: 'cat_analytics', name: 'Plausible Analytics', short_name: null },
    ],
    companies,
    installs,
    people,
    contacts,
  };
}
