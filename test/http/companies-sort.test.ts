// Company search `sort`: by name (default), employees, revenue or country, either way. Bands
// order by rank (not label), companies without the value come last either way, and ties go
// by name, then id; pages and the CSV export follow the same order, the export's keyset
// batches included (mixed directions). Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { streamCompanies, type CompanySort } from '../../src/store/companies.ts';
import { COMPANY_SORTS } from '../../src/schemas/companies.ts';
import { everyCompany } from '../helpers/criteria.ts';

let t: TestApp;
let full: TestClient;

// id, domain, name, employee band, revenue band, country
const COMPANIES: Array<[string, string, string | null, string | null, string | null, string | null]> = [
  ['cmp_a', 'zeta.com', 'Zeta', '1,000 - 4,999', '100M - 500M', 'DE'],
  ['cmp_b', 'alpha.com', 'alpha', '10 - 49', 'Less than 1M', 'US'],
  ['cmp_c', 'beta.com', 'Beta', '1,000 - 4,999', null, 'FR'],
  ['cmp_d', 'gamma.com', 'Gamma', null, '1M - 2M', null],
  ['cmp_e', 'delta.com', 'delta', 'Above 10,000', 'More than 1B', 'US'],
  ['cmp_f', 'epsilon.com', 'Epsilon', 'Less than 10', '2M - 5M', 'DE'],
  ['cmp_g', 'omega.io', null, '200 - 499', '10M - 50M', 'GB'],
];

// The orders, worked out by hand from the rule (band rank; missing last; ties by name).
const EXPECTED: Record<(typeof COMPANY_SORTS)[number], string[]> = {
  name: ['alpha.com', 'beta.com', 'delta.com', 'epsilon.com', 'gamma.com', 'omega.io', 'zeta.com'],
  '-name': ['zeta.com', 'omega.io', 'gamma.com', 'epsilon.com', 'delta.com', 'beta.com', 'alpha.com'],
  employees: ['epsilon.com', 'alpha.com', 'omega.io', 'beta.com', 'zeta.com', 'delta.com', 'gamma.com'],
  '-employees': ['delta.com', 'beta.com', 'zeta.com', 'omega.io', 'alpha.com', 'epsilon.com', 'gamma.com'],
  revenue: ['alpha.com', 'gamma.com', 'epsilon.com', 'omega.io', 'zeta.com', 'delta.com', 'beta.com'],
  '-revenue': ['delta.com', 'zeta.com', 'omega.io', 'epsilon.com', 'gamma.com', 'alpha.com', 'beta.com'],
  country: ['epsilon.com', 'zeta.com', 'beta.com', 'omega.io', 'alpha.com', 'delta.com', 'gamma.com'],
  '-country': ['alpha.com', 'delta.com', 'omega.io', 'beta.com', 'epsilon.com', 'zeta.com', 'gamma.com'],
};

before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  await insertWorld(t.db, {
    companies: COMPANIES.map(([id, domain, name, employee_band, revenue_band, country]) => ({ id, domain, name, employee_band, revenue_band, country })),
  });
});
after(() => t.close());

const search = (payload: object, query = '', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/companies/search${query}`, headers: { ...full.headers, ...headers }, payload });

test('every sort orders the pages as its rule says, with no repeats or gaps across pages', async () => {
  assert.deepEqual(Object.keys(EXPECTED).sort(), [...COMPANY_SORTS].sort(), 'every sort is checked');
  for (const sort of COMPANY_SORTS) {
    const seen: string[] = [];
    for (let page = 0; page < 4; page++) {
      const res = await search({ sort, page, size: 2 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().totalElements, COMPANIES.length);
      seen.push(...res.json().content.map((c: { domain: string }) => c.domain));
    }
    assert.deepEqual(seen, EXPECTED[sort], `sort=${sort}`);
  }
  const unsorted = await search({ size: 10 });
  assert.deepEqual(
    unsorted.json().content.map((c: { domain: string }) => c.domain),
    EXPECTED.name,
    'no sort: by name',
  );
});

test('sort combines with filters', async () => {
  const res = await search({ sort: '-employees', countries: ['DE', 'US'] });
  assert.deepEqual(
    res.json().content.map((c: { domain: string }) => c.domain),
    ['delta.com', 'zeta.com', 'alpha.com', 'epsilon.com'],
  );
});

test('the CSV export follows the sort', async () => {
  const res = await search({ sort: '-revenue' }, '?export=true', { 'x-on-behalf-of-user': 'ana@example.com' });
  assert.equal(res.statusCode, 200, res.body);
  const domains = res.body
    .trimEnd()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[1]);
  assert.deepEqual(domains, EXPECTED['-revenue']);
});

test('export batches continue where the last one ended, in every order (keyset with mixed directions)', async () => {
  const all = everyCompany();
  for (const sort of COMPANY_SORTS) {
    const by: CompanySort = { by: sort.replace('-', '') as CompanySort['by'], descending: sort.startsWith('-') };
    for (const batch of [1, 2, 3]) {
      const domains: string[] = [];
      for await (const row of streamCompanies(t.db, all, by, batch)) domains.push(row.domain);
      assert.deepEqual(domains, EXPECTED[sort], `sort=${sort}, batches of ${batch}`);
    }
  }
});

test('an unknown sort is a 400 naming the field and the choices', async () => {
  const res = await search({ sort: 'size' });
  assert.equal(res.statusCode, 400);
  assert.match(res.json().message, /sort/);
  assert.match(res.json().message, /employees/);
});
