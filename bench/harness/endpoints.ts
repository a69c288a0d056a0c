// The endpoints the harness loads (the first table of the performance issue), and the random
// real inputs drawn from the database for them.
import type { Db } from '../../src/db/db.ts';
import type { RequestSpec } from './load.ts';

export interface Sample {
  domain: string;
  country: string | null;
  /** Up to 10 products the company has installed, in random order. */
  products: string[];
  /** Its first 5 Default-cohort peers. */
  peers: string[];
}

export interface Inputs {
  samples: Sample[];
  vendorPrefixes: string[];
}

export interface Endpoint {
  name: string;
  /** Point reads have the stricter target (≥ 70 % of the ceiling). */
  kind: 'point' | 'page' | 'search' | 'metrics';
  requests(inputs: Inputs): RequestSpec[];
}

const enc = encodeURIComponent;
const withProducts = (s: Sample[]) => s.filter((x) => x.products.length > 0);

export const ENDPOINTS: Endpoint[] = [
  {
    name: 'firmographics',
    kind: 'point',
    requests: ({ samples }) => samples.map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/firmographics` })),
  },
  {
    name: 'products-paged',
    kind: 'page',
    requests: ({ samples }) => samples.map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/products/paged?page=0&size=20` })),
  },
  {
    name: 'search-product-country',
    kind: 'search',
    requests: ({ samples }) =>
      withProducts(samples)
        .filter((s) => s.country)
        .map((s) => ({
          method: 'POST',
          path: '/api/companies/search?page=0&size=20',
          body: JSON.stringify({ filter: { productIdIn: [s.products[0]], countryIn: [s.country!.trim()] } }),
        })),
  },
  {
    name: 'cohort',
    kind: 'point',
    requests: ({ samples }) => samples.map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/cohort/Default` })),
  },
  {
    name: 'competitors',
    kind: 'point',
    requests: ({ samples }) => samples.map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/competitors` })),
  },
  {
    name: 'metrics-usage',
    kind: 'metrics',
    requests: ({ samples }) => samples.map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/cohort/Default/metrics/usage` })),
  },
  {
    name: 'metrics-details-5',
    kind: 'metrics',
    requests: ({ samples }) =>
      samples
        .filter((s) => s.peers.length === 5)
        .map((s) => ({
          method: 'POST',
          path: `/api/companies/${enc(s.domain)}/cohort/Default/metrics/details`,
          body: JSON.stringify({ cohortCompanyDomain: s.peers }),
        })),
  },
  {
    name: 'related',
    kind: 'metrics',
    requests: ({ samples }) =>
      withProducts(samples).map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/products/${enc(s.products[0]!)}/related?cohort=Default` })),
  },
  {
    name: 'products-in-use',
    kind: 'point',
    requests: ({ samples }) =>
      withProducts(samples).map((s) => ({
        method: 'POST',
        path: `/api/companies/${enc(s.domain)}/products-in-use`,
        body: JSON.stringify({ productIds: s.products }),
      })),
  },
  {
    name: 'feed',
    kind: 'point',
    requests: ({ samples }) => samples.map((s) => ({ method: 'GET', path: `/api/companies/${enc(s.domain)}/feed` })),
  },
  {
    name: 'vendors-fuzzy',
    kind: 'search',
    requests: ({ vendorPrefixes }) => vendorPrefixes.map((v) => ({ method: 'GET', path: `/api/vendors?vendor=${enc(v)}&fuzzy=true` })),
  },
  {
    name: 'categories',
    kind: 'point',
    requests: () => [{ method: 'GET', path: '/api/categories' }],
  },
];

/**
 * 200 random companies that have a Default cohort (a fixed random seed, so every run asks
 * for the same ones, in the same order: the first five are the ones whose SQL is captured),
 * each with products it uses and its first peers; and vendor-name prefixes.
 */
export async function drawInputs(db: Db, count = 200): Promise<Inputs> {
  const client = await db.pool.connect();
  try {
    await client.query('SELECT setseed(0.42)');
    const { rows } = await client.query<{ domain: string; country: string | null; products: string[] | null; peers: string[] | null }>(
      `WITH pick AS (
         SELECT c.id, c.domain, c.country FROM companies c
         WHERE EXISTS (SELECT 1 FROM cohorts k WHERE k.company_id = c.id AND k.kind = 'default')
         ORDER BY random() LIMIT $1),
       ordered AS (SELECT pick.*, row_number() OVER (ORDER BY pick.domain) AS rn FROM pick)
       SELECT p.domain, p.country,
         (SELECT array_agg(x.product_id) FROM (SELECT i.product_id FROM installs i WHERE i.company_id = p.id ORDER BY random() LIMIT 10) x) AS products,
         (SELECT array_agg(m.domain) FROM (SELECT c2.domain FROM cohorts k JOIN companies c2 ON c2.id = k.member_id
            WHERE k.company_id = p.id AND k.kind = 'default' ORDER BY k.rank LIMIT 5) m) AS peers
       FROM ordered p ORDER BY p.rn`,
      [count],
    );
    const vendors = await client.query<{ prefix: string }>(
      `SELECT prefix FROM (SELECT lower(substr(name, 1, 5)) AS prefix, id FROM vendors ORDER BY random() LIMIT 50) v ORDER BY id`,
    );
    return {
      samples: rows.map((r) => ({ domain: r.domain, country: r.country, products: r.products ?? [], peers: r.peers ?? [] })),
      vendorPrefixes: vendors.rows.map((r) => r.prefix.trim()).filter((p) => p.length >= 3),
    };
  } finally {
    client.release();
  }
}
