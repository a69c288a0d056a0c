// The typed client over real data: page iterators across several pages, the feed cursor,
// CSV and JSON Lines exports streamed and parsed, and typed 400/403/404 errors.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createStacklensClient, csvRecords, csvRows, jsonLines, StacklensError, type StacklensClient } from '../../clients/typescript/src/index.ts';
import { insertCatalogWorld, FORMULA_CITY } from '../helpers/catalog-world.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { createCredentials, startClientTestServer, type ClientTestServer } from './server.ts';

const TRICKY_NAME = 'Zeta, "The" Co\nsecond line';
const FEED_ITEMS = 45;
let s: ClientTestServer;
let client: StacklensClient;
let apiKey: string;
before(async () => {
  s = await startClientTestServer();
  await insertCatalogWorld(s.db);
  await insertWorld(s.db, {
    companies: [{ id: 'cmp_zeta', domain: 'zeta.dev', name: TRICKY_NAME, country: 'CA' }],
    feed: Array.from({ length: FEED_ITEMS }, (_, i) => ({
      id: `fi_${String(i).padStart(3, '0')}`,
      company_id: 'cmp_zeta',
      published_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    })),
  });
  apiKey = (await createCredentials(s.db, 'full')).apiKey;
  client = createStacklensClient({ baseUrl: s.baseUrl, apiKey, fetch: s.fetch, onBehalfOfUser: 'analyst@example.com' });
});
after(() => s.close());
afterEach(() => {
  s.sent.length = 0;
});

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

/** Asserts that `call` rejects with a StacklensError and returns it. */
async function typedError(call: Promise<unknown>): Promise<StacklensError> {
  const err = await call.then(
    () => assert.fail('expected a StacklensError'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof StacklensError, String(err));
  return err;
}

test('paginate.searchCompanies walks every page, in the order of one big page', async () => {
  const all = await client.post('/api/companies/search', { params: { query: { size: 200 } }, body: {} });
  assert.equal(all.totalElements, 6);
  s.sent.length = 0;
  const walked: string[] = [];
  for await (const company of client.paginate.searchCompanies({}, { pageSize: 2 })) walked.push(company.domain);
  assert.deepEqual(
    walked,
    all.content.map((c) => c.domain),
  );
  assert.equal(s.sent.length, 3, 'three pages of two, no request past the last');
  const filtered = await collect(client.paginate.searchCompanies({ countries: ['US'] }, { pageSize: 1 }));
  assert.deepEqual(filtered.map((c) => c.domain).sort(), ['acme.com', 'gamma.co']);
});

test('paginate.companyProducts and vendorProducts follow the query across pages', async () => {
  const products = await collect(client.paginate.companyProducts('acme.com', {}, { pageSize: 1 }));
  assert.deepEqual(products.map((p) => p.productId).sort(), ['prd_ec2', 'prd_hs_mail', 'prd_sf_crm']);
  assert.equal(s.sent.length, 3);
  const catalog = await collect(client.paginate.vendorProducts('salesforce.com', {}, { pageSize: 1 }));
  assert.deepEqual(catalog.map((p) => p.id).sort(), ['prd_sf_crm', 'prd_sf_smb']);
});

test('paginate.feed follows paginationId to the end: every item once, newest first', async () => {
  const items = await collect(client.paginate.feed('zeta.dev'));
  assert.equal(items.length, FEED_ITEMS);
  assert.equal(new Set(items.map((i) => i.id)).size, FEED_ITEMS);
  const expected = Array.from({ length: FEED_ITEMS }, (_, i) => `fi_${String(FEED_ITEMS - 1 - i).padStart(3, '0')}`);
  assert.deepEqual(
    items.map((i) => i.id),
    expected,
  );
  assert.deepEqual(
    s.sent.map((r) => r.status),
    [200, 200, 200],
    'three pages of at most 20',
  );
});

test('a CSV export streams and parses to the same companies as the search', async () => {
  const records = await collect(csvRecords(await client.exports.searchCompaniesCsv({})));
  const page = await client.post('/api/companies/search', { params: { query: { size: 200 } }, body: {} });
  assert.deepEqual(
    records.map((r) => r.domain),
    page.content.map((c) => c.domain),
  );
  assert.deepEqual(Object.keys(records[0]!), [
    'id',
    'domain',
    'name',
    'logo',
    'industry',
    'revenueRange',
    'employeeRange',
    'phone',
    'city',
    'state',
    'country',
    'postalCode',
    'website',
  ]);
  // Quotes, commas and line breaks inside a cell survive; formula-looking cells arrive defused.
  assert.equal(records.find((r) => r.domain === 'zeta.dev')!.name, TRICKY_NAME);
  assert.equal(records.find((r) => r.domain === 'epsilon.com')!.city, `'${FORMULA_CITY}`);
  const [audit] = await s.db.query<{ on_behalf_of: string }>("SELECT on_behalf_of FROM audit_log WHERE action LIKE 'companies%' ORDER BY id DESC LIMIT 1");
  assert.equal(audit?.on_behalf_of, 'analyst@example.com', 'the default X-On-Behalf-Of-User was sent');
});

test('a category CSV and a JSON Lines export stream too', async () => {
  const rows = await collect(csvRows(await client.exports.categoriesCsv()));
  assert.deepEqual(rows[0], ['id', 'name', 'parentId', 'level', 'description']);
  assert.equal(rows.length, 1 + 6);
  const lines = await collect(jsonLines<{ productId: string; companyDomain: string }>(await client.exports.companyProductsJsonl('acme.com')));
  assert.deepEqual(lines.map((l) => l.productId).sort(), ['prd_ec2', 'prd_hs_mail', 'prd_sf_crm']);
  assert.ok(lines.every((l) => l.companyDomain === 'acme.com'));
});

test('an export without X-On-Behalf-Of-User is a typed 403', async () => {
  const anonymous = createStacklensClient({ baseUrl: s.baseUrl, apiKey, fetch: s.fetch });
  const err = await typedError(anonymous.exports.searchCompaniesCsv({}));
  assert.equal(err.status, 403);
  assert.match(err.message, /X-On-Behalf-Of-User/i);
  // The argument stands in for a default.
  const rows = await collect(csvRows(await anonymous.exports.companyProductsCsv('acme.com', 'someone@example.com')));
  assert.equal(rows.length, 1 + 3);
});

test('an unknown company is a typed 404 with the service error body', async () => {
  const err = await typedError(client.get('/api/companies/{companyDomain}/firmographics', { params: { path: { companyDomain: 'nowhere.example' } } }));
  assert.equal(err.status, 404);
  assert.equal(err.error, 'Not Found');
  assert.match(err.message, /nowhere\.example/);
  assert.equal(err.path, '/api/companies/nowhere.example/firmographics');
  assert.match(err.requestId ?? '', /^[0-9a-f-]{36}$/);
  // A page iterator fails the same way, at its first page.
  const fromIterator = await typedError(collect(client.paginate.companyProducts('nowhere.example')));
  assert.equal(fromIterator.status, 404);
});

test('a bad parameter is a typed 400 naming it, and is not retried', async () => {
  const err = await typedError(client.get('/api/vendors', { params: { query: { vendor: 'sales', size: 500 } } }));
  assert.equal(err.status, 400);
  assert.equal(err.error, 'Bad Request');
  assert.match(err.message, /size/);
  const domain = await typedError(client.get('/api/companies/{companyDomain}/firmographics', { params: { path: { companyDomain: 'not a domain' } } }));
  assert.equal(domain.status, 400);
  assert.equal(s.sent.length, 2);
});
