// Company and catalog MCP tools: the same answers as the REST routes for the same input,
// pages with nextPage, errors as isError results, the export permission enforced, exports
// as links to a CSV resource readable by the client that made them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { setClock } from '../../src/clock.ts';
import { EXPORT_LINK_TTL_MS, sweepExportLinks } from '../../src/mcp/exports.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  const companies = Array.from({ length: 25 }, (_, i) => ({
    id: `cmp_${String(i).padStart(2, '0')}`,
    domain: `co${String(i).padStart(2, '0')}.example`,
    name: `Company ${String(i).padStart(2, '0')}`,
    industry_id: 'ind_software',
  }));
  await insertWorld(t.db, {
    industries: [{ id: 'ind_software', name: 'Software' }],
    categories: [{ id: 'cat_sales' }, { id: 'cat_crm', parent_id: 'cat_sales' }],
    vendors: [{ id: 'ven_hub', domain: 'hubspot.com', name: 'HubSpot' }],
    products: [
      { id: 'prd_hub_crm', vendor_id: 'ven_hub', category_id: 'cat_crm', name: 'HubSpot CRM' },
      { id: 'prd_hub_mkt', vendor_id: 'ven_hub', category_id: 'cat_sales', name: 'HubSpot Marketing Hub' },
    ],
    companies: [...companies, { id: 'cmp_formula', domain: 'formula.example', name: '=cmd|calc' }],
    installs: [
      { company_id: 'cmp_00', product_id: 'prd_hub_crm' },
      { company_id: 'cmp_01', product_id: 'prd_hub_crm' },
      { company_id: 'cmp_00', product_id: 'prd_hub_mkt' },
    ],
    feed: Array.from({ length: 23 }, (_, i) => ({ id: `fd_${i}`, company_id: 'cmp_00', published_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() })),
  });
});
after(() => t.close());

async function rest(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers, payload: payload as any });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

test('every documented tool is there, with required arguments marked', async () => {
  const { client } = await connectMcp(t, 'basic', undefined, undefined, undefined, 'all');
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((x) => [x.name, x]));
  for (const name of [
    'companies_search',
    'company_products_paged',
    'company_firmographics',
    'company_feed',
    'vendors_search',
    'vendor_products',
    'categories_list',
    'industries_list',
  ]) {
    assert.ok(byName.has(name), `missing ${name}`);
    assert.ok((byName.get(name)!.description ?? '').length > 60, `${name} has a real description`);
  }
  assert.deepEqual(byName.get('company_feed')!.inputSchema.required, ['companyDomain']);
  assert.deepEqual(byName.get('vendor_products')!.inputSchema.required, ['vendorDomain']);
  assert.equal(byName.get('categories_list')!.inputSchema.required, undefined);
});

/** A REST page in a tool's compact form: the given fields of each item. */
const compact = (page: any, keys: string[]) => ({
  total: page.totalElements,
  items: page.content.map((x: any) => Object.fromEntries(keys.filter((k) => k in x).map((k) => [k, x[k]]))),
});

test('companies_search (flat arguments) and company_products_paged answer as REST does, compact by default, with total and nextPage', async () => {
  const { call, headers } = await connectMcp(t, 'full');
  const args = { filter: { vendorDomainIn: ['hubspot.com'] }, size: 1 };
  const viaTool = (await call('companies_search', args)).json();
  const viaRest = await rest('POST', '/api/companies/search', headers, args);
  assert.deepEqual(
    { total: viaTool.total, items: viaTool.items },
    compact(viaRest, ['domain', 'name', 'industry', 'employeeRange', 'revenueRange', 'country']),
  );
  assert.equal(viaTool.total, 2);
  assert.deepEqual(viaTool.nextPage, { ...args, page: 1 });
  const second = (await call('companies_search', viaTool.nextPage)).json();
  assert.equal(second.nextPage, null);
  assert.notEqual(second.items[0].domain, viaTool.items[0].domain);
  const fullPage = (await call('companies_search', { ...args, detail: 'full' })).json();
  assert.deepEqual(fullPage.items, viaRest.content, 'detail=full: the whole record');
  assert.deepEqual(fullPage.nextPage, { ...args, detail: 'full', page: 1 });

  const products = await call('company_products_paged', { companyDomain: 'https://www.CO00.example/', size: 1 });
  const restProducts = await rest('GET', '/api/companies/co00.example/products/paged?size=1', headers);
  assert.deepEqual(
    { total: products.json().total, items: products.json().items },
    compact(restProducts, ['productId', 'product', 'vendorDomain', 'mainCategory', 'dateLastVerified', 'intensity']),
  );
  assert.equal(products.json().nextPage.page, 1);
  assert.match(products.text, /^1 of 2 products used by co00\.example \(page 1 of 2\): HubSpot CRM \(Crm\)\. More: call again/);
  assert.deepEqual(
    products.links.map((l) => l.uri),
    ['stacklens://companies/co00.example/products'],
  );
});

test('the wrapped form of companies_search is refused, naming the unknown argument', async () => {
  const { call } = await connectMcp(t, 'full');
  const wrapped = await call('companies_search', { body: { query: 'x' } });
  assert.equal(wrapped.isError, true);
  assert.match(wrapped.text, /^Error 400: Invalid arguments for companies_search: body: unknown argument \(companies_search takes .*query/);
});

test('export=true needs the export permission and an on-behalf user, and answers with a link to the CSV, readable by this client only', async () => {
  const basic = await connectMcp(t, 'basic');
  const denied = await basic.call('companies_search', { export: true, onBehalfOfUser: 'a@b.co' });
  assert.equal(denied.isError, true);
  assert.match(denied.text, /Permission 'export' is required/);
  const full = await connectMcp(t, 'full');
  const noUser = await full.call('companies_search', { export: true });
  assert.match(noUser.text, /Error 403/);
  const bad = await full.call('companies_search', { export: true, onBehalfOfUser: 'analyst@example.com', filter: { companyDomainIn: ['nowhere.example'] } });
  assert.equal(bad.isError, true, 'the search is checked when the link is made');
  assert.match(bad.text, /^Error 404: .*companyDomainIn/);

  const answer = await full.call('companies_search', { export: true, onBehalfOfUser: 'analyst@example.com' });
  assert.equal(answer.isError, false);
  const out = answer.json();
  assert.equal(out.format, 'text/csv');
  assert.equal(out.rows, 26);
  assert.match(out.uri, /^stacklens:\/\/exports\/[A-Za-z0-9_-]{24}$/);
  assert.ok(Date.parse(out.expiresAt) > Date.now());
  assert.equal(out.csv, undefined, 'no rows inline');
  assert.deepEqual(
    answer.links.map((l) => [l.uri, l.mimeType]),
    [[out.uri, 'text/csv']],
  );
  assert.match(answer.text, /^Export of 26 companies as CSV: read stacklens:\/\/exports\//);
  const auditRows = () =>
    t.db.query<{ action: string; on_behalf_of: string; result_count: number }>(
      `SELECT action, on_behalf_of, result_count FROM audit_log WHERE action = 'companies.search.export'`,
    );
  assert.deepEqual(await auditRows(), [], 'nothing has left the service yet');

  const read = await full.client.readResource({ uri: out.uri });
  const [contents] = read.contents as Array<{ uri: string; mimeType: string; text: string }>;
  assert.equal(contents!.mimeType, 'text/csv');
  const lines = contents!.text.trim().split('\r\n');
  assert.equal(lines.length, 27, 'header and 26 companies');
  assert.match(lines[0]!, /^id,domain,name,/);
  assert.match(contents!.text, /'=cmd\|calc/, 'formulas neutralized');
  assert.deepEqual(
    await auditRows(),
    [{ action: 'companies.search.export', on_behalf_of: 'analyst@example.com', result_count: 26 }],
    'each read is an audited export for the user of the call',
  );

  // Another client (even with the export permission) reads nothing: the link is as if unknown.
  const other = await connectMcp(t, 'full');
  await assert.rejects(other.client.readResource({ uri: out.uri }), (err: any) => err.code === -32002 && /not found/.test(err.message));
  await assert.rejects(full.client.readResource({ uri: 'stacklens://exports/AAAAAAAAAAAAAAAAAAAAAAAA' }), (err: any) => err.code === -32002);
  assert.equal((await auditRows()).length, 1);
  const { resourceTemplates } = await full.client.listResourceTemplates();
  assert.ok(resourceTemplates.some((r) => r.uriTemplate === 'stacklens://exports/{exportId}'));
});

test('an export link expires, and the sweep deletes it', async () => {
  const full = await connectMcp(t, 'full');
  const { uri } = (await full.call('companies_search', { export: true, onBehalfOfUser: 'analyst@example.com', query: 'Company' })).json();
  const start = Date.now();
  try {
    setClock(() => start + EXPORT_LINK_TTL_MS - 1000);
    assert.ok((await full.client.readResource({ uri })).contents.length === 1);
    setClock(() => start + EXPORT_LINK_TTL_MS + 1000);
    await assert.rejects(full.client.readResource({ uri }), (err: any) => err.code === -32002 && /live 60 minutes/.test(err.message));
    const stored = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mcp_exports WHERE expires_at <= $1', [new Date(start + EXPORT_LINK_TTL_MS + 1000)]))[0]!
        .n;
    assert.ok((await stored()) >= 1);
    assert.ok((await sweepExportLinks(t.db)) >= 1, 'the sweep deletes expired links');
    assert.equal(await stored(), 0);
  } finally {
    setClock();
  }
});

test('catalog, firmographics and feed tools; unknown domains are isError 404 results', async () => {
  const { call, headers } = await connectMcp(t, 'basic');
  assert.deepEqual((await call('vendors_search', { vendor: 'hubspt', fuzzy: true })).json().items, [{ id: 'ven_hub', domain: 'hubspot.com', name: 'HubSpot' }]);
  const vp = (await call('vendor_products', { vendorDomain: 'hubspot.com', productName: 'crm' })).json();
  assert.deepEqual(
    vp.items.map((p: any) => p.id),
    ['prd_hub_crm'],
  );
  const restCategories = await rest('GET', '/api/categories', headers);
  const categories = (await call('categories_list', { size: 1 })).json();
  assert.deepEqual(categories, {
    total: 2,
    items: [{ id: 'cat_crm', name: restCategories[0].name, parentId: 'cat_sales', level: 1 }],
    nextPage: { page: 1, size: 1 },
  });
  assert.deepEqual((await call('categories_list', { detail: 'full' })).json().items, restCategories);
  assert.deepEqual((await call('industries_list', {})).json().items, await rest('GET', '/api/industries', headers));
  const firmo = (await call('company_firmographics', { companyDomain: 'co00.example', detail: 'full' })).json();
  assert.deepEqual(firmo, await rest('GET', '/api/companies/co00.example/firmographics', headers));
  const compactFirmo = await call('company_firmographics', { companyDomain: 'co00.example' });
  assert.equal(compactFirmo.json().domain, 'co00.example');
  assert.equal(compactFirmo.json().company_id, undefined, 'compact: no native ids');
  assert.match(compactFirmo.text, /^Company 00 \(co00\.example\): Software/);

  const first = (await call('company_feed', { companyDomain: 'co00.example' })).json();
  assert.equal(first.items.length, 20);
  assert.deepEqual(Object.keys(first.items[0]).sort(), ['category', 'date', 'sourceUrl', 'title']);
  assert.equal(first.nextPage.companyDomain, 'co00.example');
  const rest2 = (await call('company_feed', first.nextPage)).json();
  assert.equal(rest2.items.length, 3);
  assert.equal(rest2.nextPage, null);

  const missing = await call('company_firmographics', { companyDomain: 'nope.example' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /^Error 404: .*nope\.example/);
  const bad = await call('company_feed', { companyDomain: 'co00.example', paginationId: 'forged' });
  assert.match(bad.text, /^Error 400/);
});
