// The small world whose ids and domains are the OpenAPI document's examples (cmp_example,
// example.com, prd_crm_a, …), so documented calls reach real rows.
import type { WorldSpec } from './fixtures.ts';

export const EXAMPLE_WORLD = {
  industries: [{ id: 'ind_software', name: 'Software' }],
  categories: [{ id: 'cat_crm', name: 'CRM' }],
  vendors: [{ id: 'ven_example', domain: 'example.com' }],
  products: [{ id: 'prd_crm_a', vendor_id: 'ven_example', category_id: 'cat_crm', name: 'Example CRM' }],
  companies: [
    { id: 'cmp_example', domain: 'example.com', industry_id: 'ind_software', country: 'DE' },
    { id: 'cmp_acme', domain: 'acme.com', industry_id: 'ind_software', country: 'DE' },
  ],
  installs: [
    {
      company_id: 'cmp_example',
      product_id: 'prd_crm_a',
      first_verified: '2025-01-01T00:00:00Z',
      last_verified: '2026-10-01T00:00:00Z',
      hit_count: 9,
      intensity: 60,
      sources: ['website'],
    },
    {
      company_id: 'cmp_acme',
      product_id: 'prd_crm_a',
      first_verified: '2025-01-01T00:00:00Z',
      last_verified: '2026-10-01T00:00:00Z',
      hit_count: 3,
      intensity: 20,
      sources: ['jobs'],
    },
  ],
} satisfies WorldSpec;
