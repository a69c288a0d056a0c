// Deep links in tool answers: the console URL of the same search (list or market-size view)
// or company, built in the console's own URL scheme; no link for a search it cannot show.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { companyConsoleUrl, searchConsoleUrl } from '../../src/mcp/console-links.ts';

const BASE = 'https://intel.example.com';

test('a search the console can show becomes its #/search URL; the market-size view carries the dimensions', () => {
  const url = searchConsoleUrl(BASE, {
    query: 'labs',
    filter: {
      productIdIn: ['prd_hs_crm'],
      vendorDomainIn: ['salesforce.com'],
      countryIn: ['US', 'DE'],
      employeeRangeIn: ['10 - 49'],
      companyNameContains: 'a',
    },
    sort: 'name',
    page: 3,
    size: 50,
  });
  assert.ok(url);
  const [origin, hash] = url.split('#');
  assert.equal(origin, `${BASE}/console`);
  const [path, query] = hash!.split('?');
  assert.equal(path, '/search');
  const q = new URLSearchParams(query);
  assert.deepEqual(q.getAll('use'), ['p:prd_hs_crm', 'v:salesforce.com']);
  assert.equal(q.get('country'), 'US,DE');
  assert.deepEqual(q.getAll('employees'), ['10 - 49']);
  assert.equal(q.get('q'), 'labs');
  assert.equal(q.get('name'), 'a');
  assert.equal(q.get('sort'), 'name');
  assert.equal(q.get('page'), null, 'the link opens the first page');
  const market = new URLSearchParams(searchConsoleUrl(BASE, { filter: { industryIn: ['Software'] } }, ['country', 'technology'])!.split('?')[1]);
  assert.deepEqual([market.get('view'), market.get('by'), market.get('by2'), market.get('industry')], ['market', 'country', 'technology', 'Software']);
  assert.equal(searchConsoleUrl(BASE, {}), `${BASE}/console#/search`);
});

test('no link for what the console form cannot hold: categories, cities, top-level lists, mixed all-of switches', () => {
  assert.equal(searchConsoleUrl(BASE, { filter: { mainCategoryIdIn: ['cat_crm'] } }), null);
  assert.equal(searchConsoleUrl(BASE, { filter: { cityIn: ['Austin'] } }), null);
  assert.equal(searchConsoleUrl(BASE, { countries: ['US'] }), null);
  assert.equal(searchConsoleUrl(BASE, { filter: { productIdIn: ['a'], productIdInAnd: true, vendorDomainIn: ['b.com'] } }), null);
  assert.ok(
    searchConsoleUrl(BASE, { filter: { productIdIn: ['a'], productIdInAnd: true, vendorDomainIn: ['b.com'], vendorDomainInAnd: true } })?.includes('useAll=1'),
  );
  assert.equal(companyConsoleUrl(BASE, 'acme.com'), `${BASE}/console#/companies/acme.com`);
});

let t: TestApp;
before(async () => {
  t = await createTestApp();
  await insertCatalogWorld(t.db);
});
after(() => t.close());

test('companies_search, company_firmographics and company_products_paged end their text with the console link', async () => {
  const mcp = await connectMcp(t, 'full');
  const origin = t.config.publicUrl;
  const search = await mcp.call('companies_search', { filter: { vendorDomainIn: ['hubspot.com'] } });
  assert.equal(search.isError, false, search.text);
  assert.ok(search.text.endsWith(`\nOpen in the console: ${origin}/console#/search?use=v%3Ahubspot.com`), search.text);
  const count = await mcp.call('companies_search', { filter: { vendorDomainIn: ['hubspot.com'] }, count: ['country'] });
  assert.match(count.text, /Open in the console: .*view=market&by=country$/);
  const firmo = await mcp.call('company_firmographics', { companyDomain: 'acme.com' });
  assert.ok(firmo.text.endsWith(`\nOpen in the console: ${origin}/console#/companies/acme.com`), firmo.text);
  const products = await mcp.call('company_products_paged', { companyDomain: 'acme.com' });
  assert.ok(products.text.endsWith(`/console#/companies/acme.com`), products.text);
  const category = await mcp.call('companies_search', { filter: { mainCategoryIdIn: ['cat_crm'] } });
  assert.doesNotMatch(category.text, /Open in the console/);
});
