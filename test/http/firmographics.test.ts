import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { insertWorld } from '../helpers/fixtures.ts';

let t: TestApp;
let c: TestClient;
const native = {
  company_id: 1234,
  name: 'Acme Corporation',
  short_name: 'Acme',
  company_type: 'Private',
  description: 'Makes anvils.',
  employee_count: '350',
  founded_date: '1999',
  website: 'https://acme.com',
  logo_url: 'https://logo.example/acme.png',
  ceo: { first_name: 'Wile', last_name: 'Coyote', image_url: 'https://img.example/wile.png' },
  hq_address: { city: 'Austin', country: 'US', phone: '+1 512 555 0100', postal_code: '78701', state: 'TX', street1: '1 Main St' },
  funding: [{ amount: '5000000', date: '2020-01-01', type: 'Series A', undisclosed: 'false' }],
  acquisition: [{ name: 'Roadrunner Inc', date: '2022-05-01', status: 'closed' }],
  industries: ['Software'],
  sic_code: ['7372'],
  stock: { exchange: 'NASDAQ', ticker: 'ACME' },
  revenue: '25000000',
  // Unknown fields pass through; a known field of the wrong type is dropped, not a 500.
  esg_score: 71,
  twitter_link: 42,
};
before(async () => {
  t = await createTestApp();
  c = await createTestClient(t.db, 'basic');
  await insertCatalogWorld(t.db);
  await insertWorld(t.db, { firmographics: [{ company_id: 'cmp_acme', profile: JSON.stringify(native) }] });
});
after(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: c.headers });

test('a stored native profile, with the simplified common fields added', async () => {
  const res = await get('/api/companies/acme.com/firmographics');
  assert.equal(res.statusCode, 200);
  const { twitter_link: _dropped, ...kept } = native;
  assert.deepEqual(res.json(), {
    ...kept,
    id: 'cmp_acme',
    domain: 'acme.com',
    industry: 'Software',
    employeeRange: '200 - 499',
    revenueRange: '10M - 50M',
    foundedYear: 2010,
    hqCountry: 'US',
    hqCity: 'Austin',
    linkedinUrl: null,
    crunchbaseUrl: null,
  });
});

test('without a stored profile: the native fields the company record supplies', async () => {
  const res = await get('/api/companies/WWW.BETA.IO/firmographics');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    name: 'Beta Labs',
    website: 'https://beta.io',
    logo_url: 'https://logo.example/beta.io.png',
    employee_count: '120',
    revenue: '20000000',
    founded_date: '2010',
    industries: ['Software'],
    hq_address: { street1: '1 Main St', city: 'Berlin', state: 'BE', postal_code: '78701', country: 'DE' },
    id: 'cmp_beta',
    domain: 'beta.io',
    industry: 'Software',
    employeeRange: '10 - 49',
    revenueRange: '1M - 2M',
    foundedYear: 2010,
    hqCountry: 'DE',
    hqCity: 'Berlin',
    linkedinUrl: null,
    crunchbaseUrl: null,
  });
});

test('unknown company 404, invalid domain 400, no credentials 401', async () => {
  const unknown = await get('/api/companies/unknown.com/firmographics');
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().message, "companyDomain: company 'unknown.com' not found");
  assert.equal((await get('/api/companies/bad..domain/firmographics')).statusCode, 400);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/companies/acme.com/firmographics' })).statusCode, 401);
});
