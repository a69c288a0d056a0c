import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { domainsOf, FORMULA_CITY, insertCatalogWorld } from '../helpers/catalog-world.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const search = (payload: unknown, query = '', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/companies/search${query}`, headers: { ...full.headers, ...headers }, payload: payload as object });

async function domains(payload: unknown): Promise<string[]> {
  const res = await search(payload);
  assert.equal(res.statusCode, 200, res.body);
  return domainsOf(res.json());
}

const ALL = ['acme.com', 'beta.io', 'delta.org', 'epsilon.com', 'gamma.co'];

test('no filter: every company, sorted by name, with the exact summary shape', async () => {
  const res = await search({});
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.totalElements, 5);
  assert.equal(body.totalPages, 1);
  assert.deepEqual(domainsOf(body), ALL);
  assert.deepEqual(body.content[0], {
    id: 'cmp_acme',
    domain: 'acme.com',
    name: 'Acme Corp',
    logo: 'https://logo.example/acme.com.png',
    industry: 'Software',
    revenueRange: '10M - 50M',
    employeeRange: '200 - 499',
    phone: '+1 512 555 0100',
    city: 'Austin',
    state: 'TX',
    country: 'US',
    postalCode: '78701',
    website: 'https://acme.com',
  });
  assert.equal(body.content[1].phone, null);
});

test('an empty JSON body and no body at all are both "no filter"', async () => {
  const empty = await t.app.inject({
    method: 'POST',
    url: '/api/companies/search',
    headers: { ...full.headers, 'content-type': 'application/json' },
    payload: '',
  });
  assert.equal(empty.statusCode, 200, empty.body);
  assert.equal(empty.json().totalElements, 5);
  const none = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: full.headers });
  assert.equal(none.json().totalElements, 5);
});

test('vendorDomainIn: any by default, all with vendorDomainInAnd; domains normalized', async () => {
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['HTTPS://WWW.Salesforce.com/'] } }), ['acme.com', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['salesforce.com', 'mailchimp.com'] } }), ['acme.com', 'beta.io', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['salesforce.com', 'hubspot.com'], vendorDomainInAnd: true } }), ['acme.com', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['hubspot.com', 'mailchimp.com'], vendorDomainInAnd: true } }), ['beta.io']);
});

test('vendorDomainNotIn: excluded when using any; with …NotInAnd only when using all', async () => {
  assert.deepEqual(await domains({ filter: { vendorDomainNotIn: ['hubspot.com'] } }), ['delta.org', 'epsilon.com']);
  assert.deepEqual(await domains({ filter: { vendorDomainNotIn: ['salesforce.com', 'hubspot.com'], vendorDomainNotInAnd: true } }), [
    'beta.io',
    'delta.org',
    'epsilon.com',
  ]);
});

test('productIdIn / productIdNotIn with their And flags', async () => {
  assert.deepEqual(await domains({ filter: { productIdIn: ['prd_hs_crm'] } }), ['beta.io', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { productIdIn: ['prd_hs_crm', 'prd_mc'], productIdInAnd: true } }), ['beta.io']);
  assert.deepEqual(await domains({ filter: { productIdNotIn: ['prd_ec2'] } }), ['beta.io', 'delta.org', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { productIdNotIn: ['prd_ec2', 'prd_sf_crm'], productIdNotInAnd: true } }), [
    'beta.io',
    'delta.org',
    'epsilon.com',
    'gamma.co',
  ]);
});

test('mainCategoryIdIn covers the subtree of a parent; And means one product in every category', async () => {
  assert.deepEqual(await domains({ filter: { mainCategoryIdIn: ['cat_sales'] } }), ['acme.com', 'beta.io', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { mainCategoryIdIn: ['cat_crm_smb'] } }), ['gamma.co']);
  assert.deepEqual(await domains({ filter: { mainCategoryIdIn: ['cat_sales', 'cat_marketing'], mainCategoryIdInAnd: true } }), ['acme.com', 'beta.io']);
  assert.deepEqual(await domains({ filter: { mainCategoryIdNotIn: ['cat_infra'] } }), ['beta.io', 'delta.org', 'gamma.co']);
  assert.deepEqual(await domains({ filter: { mainCategoryIdNotIn: ['cat_infra', 'cat_marketing'], mainCategoryIdNotInAnd: true } }), [
    'beta.io',
    'delta.org',
    'epsilon.com',
    'gamma.co',
  ]);
});

test('intensity and date buckets restrict which installs count', async () => {
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['salesforce.com'], intensityBucketIn: ['HIGH'] } }), ['acme.com']);
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['salesforce.com'], intensityBucketIn: ['LOW', 'MEDIUM'] } }), ['gamma.co']);
  assert.deepEqual(await domains({ filter: { vendorDomainIn: ['hubspot.com'], dateLastVerifiedBucketIn: ['OLD'] } }), []);
  assert.deepEqual(await domains({ filter: { productIdIn: ['prd_mc'], dateLastVerifiedBucketIn: ['OLD'] } }), ['beta.io']);
  assert.deepEqual(await domains({ filter: { productIdIn: ['prd_mc'], dateLastVerifiedBucketIn: ['RECENT', 'NEW'] } }), []);
  // Alone, a bucket keeps companies with at least one install in it.
  assert.deepEqual(await domains({ filter: { dateLastVerifiedBucketIn: ['ANCIENT'] } }), ['acme.com']);
  assert.deepEqual(await domains({ filter: { dateLastVerifiedBucketIn: ['NEW'] } }), ['acme.com']);
  assert.deepEqual(await domains({ filter: { intensityBucketIn: ['LOW'] } }), ['acme.com', 'epsilon.com']);
  // NotIn with a bucket: excluded only when the install is in the bucket.
  assert.deepEqual(await domains({ filter: { vendorDomainNotIn: ['hubspot.com'], intensityBucketIn: ['HIGH'] } }), [
    'acme.com',
    'beta.io',
    'delta.org',
    'epsilon.com',
  ]);
  const bad = await search({ filter: { intensityBucketIn: ['EXTREME'] } });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /intensityBucketIn/);
});

test('top-level shape: query, countries, industries, bands, domains; mixed with filter', async () => {
  assert.deepEqual(await domains({ query: 'retail' }), ['delta.org', 'gamma.co']);
  assert.deepEqual(await domains({ query: 'acme.com' }), ['acme.com']);
  assert.deepEqual(await domains({ query: 'software labs' }), ['beta.io']);
  assert.deepEqual(await domains({ countries: ['de'] }), ['beta.io']);
  assert.deepEqual(await domains({ countries: ['US', 'GB'] }), ['acme.com', 'delta.org', 'gamma.co']);
  assert.deepEqual(await domains({ industries: ['retail'] }), ['delta.org', 'gamma.co']);
  assert.deepEqual(await domains({ industries: ['ind_software'] }), ['acme.com', 'beta.io', 'epsilon.com']);
  assert.deepEqual(await domains({ employeeRange: ['10 - 49'] }), ['beta.io', 'epsilon.com']);
  assert.deepEqual(await domains({ revenueRange: ['100M - 500M', '5M - 10M'] }), ['delta.org', 'gamma.co']);
  assert.deepEqual(await domains({ domains: ['WWW.ACME.COM.', 'http://beta.io/x'] }), ['acme.com', 'beta.io']);
  assert.deepEqual(await domains({ query: 'software', filter: { vendorDomainIn: ['hubspot.com'] }, countries: ['DE'] }), ['beta.io']);
});

test('the further filter fields: name, domain, industry, country names, state, city, postal code, bands', async () => {
  assert.deepEqual(await domains({ filter: { companyNameContains: 'LAB' } }), ['beta.io']);
  assert.deepEqual(await domains({ filter: { companyNameContains: '%' } }), []);
  assert.deepEqual(await domains({ filter: { companyDomainIn: ['gamma.co'] } }), ['gamma.co']);
  assert.deepEqual(await domains({ filter: { industryIn: ['Software'], countryIn: ['Germany', 'fr'] } }), ['beta.io', 'epsilon.com']);
  assert.deepEqual(await domains({ filter: { stateIn: ['ny'] } }), ['gamma.co']);
  assert.deepEqual(await domains({ filter: { cityIn: ['london'] } }), ['delta.org']);
  assert.deepEqual(await domains({ filter: { postalCodeIn: ['78701'], employeeRangeIn: ['200 - 499'], revenueRangeIn: ['10M - 50M'] } }), ['acme.com']);
});

test('bad input is a 400 naming the field; unknown referenced entities are 404 naming them', async () => {
  const cases: [unknown, number, RegExp][] = [
    [{ countries: ['XX'] }, 400, /countries\.0/],
    [{ industries: ['Nope'] }, 400, /industries: industry 'Nope' not found; see GET \/api\/industries/],
    [{ employeeRange: ['lots'] }, 400, /employeeRange\.0/],
    [{ revenueRange: ['1B+'] }, 400, /revenueRange\.0/],
    [{ domains: ['not a domain'] }, 400, /domains\.0: 'not a domain' is not a valid domain name/],
    [{ filter: { vendorDomainIn: ['-bad-'] } }, 400, /filter\.vendorDomainIn\.0/],
    [{ filter: { unknownField: 1 } }, 400, /filter: Unrecognized key: "unknownField"/],
    [{ page: -1 }, 400, /body\.page/],
    [{ size: 0 }, 400, /body\.size/],
    [{ size: 201 }, 400, /body\.size: size must be a whole number from 1 to 200/],
    [{ size: 2.5 }, 400, /body\.size/],
    [{ domains: ['unknown-company.com'] }, 404, /^domains: company 'unknown-company\.com' not found$/],
    [{ filter: { vendorDomainIn: ['nobody.com'] } }, 404, /^filter\.vendorDomainIn: vendor 'nobody\.com' not found$/],
    [{ filter: { productIdIn: ['prd_nope'] } }, 404, /^filter\.productIdIn: product 'prd_nope' not found$/],
    [{ filter: { mainCategoryIdNotIn: ['cat_nope'] } }, 404, /^filter\.mainCategoryIdNotIn: category 'cat_nope' not found/],
  ];
  for (const [payload, status, message] of cases) {
    const res = await search(payload);
    assert.equal(res.statusCode, status, JSON.stringify(payload));
    const body = res.json();
    assert.equal(body.status, status);
    assert.match(body.message, message, JSON.stringify(payload));
  }
  const badQuery = await search({}, '?size=abc');
  assert.equal(badQuery.statusCode, 400);
  assert.match(badQuery.json().message, /query\.size/);
  const badJson = await t.app.inject({
    method: 'POST',
    url: '/api/companies/search',
    headers: { ...full.headers, 'content-type': 'application/json' },
    payload: '{"x":',
  });
  assert.equal(badJson.statusCode, 400);
});

test('paging: stable order, no repeats or gaps, past the end is empty with totals; query page/size work too', async () => {
  const seen: string[] = [];
  for (let page = 0; page < 3; page++) {
    const body = (await search({ page, size: 2 })).json();
    assert.equal(body.totalElements, 5);
    assert.equal(body.totalPages, 3);
    seen.push(...domainsOf(body));
  }
  assert.deepEqual(seen, ALL);
  const past = (await search({ page: 9, size: 2 })).json();
  assert.deepEqual(past, { totalPages: 3, totalElements: 5, content: [] });
  const viaQuery = (await search({}, '?page=1&size=2')).json();
  assert.deepEqual(domainsOf(viaQuery), ['delta.org', 'epsilon.com']);
  // page/size given in both places with different values is ambiguous: 400 naming the field.
  const both = await search({ page: 0, size: 2 }, '?page=1&size=2');
  assert.equal(both.statusCode, 400);
  assert.match(both.json().message, /^page: given in both/);
  assert.equal((await search({ filter: { productIdIn: ['prd_mc'], intensityBucketIn: ['LOW'] } })).json().totalPages, 0);
});

test('export=true streams every match as CSV, neutralizes formulas, and is audited', async () => {
  const res = await search({ filter: { vendorDomainNotIn: ['hubspot.com'] }, size: 1 }, '?export=true', { 'x-on-behalf-of-user': 'Ana@Example.com' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="companies.csv"');
  const lines = res.body.trimEnd().split('\r\n');
  assert.equal(lines[0], 'id,domain,name,logo,industry,revenueRange,employeeRange,phone,city,state,country,postalCode,website');
  assert.equal(lines.length, 3, 'header + the 2 matches (all of them, not one page)');
  assert.equal(
    lines[1],
    "cmp_delta,delta.org,Delta,https://logo.example/delta.org.png,Retail,5M - 10M,50 - 199,'+1 512 555 0100,London,,GB,78701,https://delta.org",
  );
  assert.ok(lines[2]!.includes(`"'${FORMULA_CITY.replace(/"/g, '""')}"`) || lines[2]!.includes(`'${FORMULA_CITY}`), lines[2]);
  const [entry] = await t.db.query<Record<string, any>>("SELECT * FROM audit_log WHERE action = 'companies.search.export' ORDER BY id DESC LIMIT 1");
  assert.equal(entry!.client_id, full.clientId);
  assert.equal(entry!.on_behalf_of, 'ana@example.com');
  assert.equal(entry!.result_count, 2);
  assert.equal(entry!.params.completed, true);
  assert.deepEqual(entry!.params.filter, { vendorDomainNotIn: ['hubspot.com'] });
});

test('export needs the export permission and X-On-Behalf-Of-User', async () => {
  const noHeader = await search({}, '?export=true');
  assert.equal(noHeader.statusCode, 403);
  assert.match(noHeader.json().message, /X-On-Behalf-Of-User/);
  const badEmail = await search({}, '?export=true', { 'x-on-behalf-of-user': 'nobody' });
  assert.equal(badEmail.statusCode, 400);
  const basicPlan = await t.app.inject({
    method: 'POST',
    url: '/api/companies/search?export=true',
    headers: { ...basic.headers, 'x-on-behalf-of-user': 'a@b.co' },
    payload: {},
  });
  assert.equal(basicPlan.statusCode, 403);
  assert.match(basicPlan.json().message, /export/);
  const basicSearch = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: basic.headers, payload: {} });
  assert.equal(basicSearch.statusCode, 200, 'searching needs no permission');
});

test('no credentials: 401', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/companies/search', payload: {} });
  assert.equal(res.statusCode, 401);
  assert.equal(res.json().error, 'Unauthorized');
});
