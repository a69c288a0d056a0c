// Lookup: names as a person says them → the ids the company-search filters take, each with
// its filter field; the same answer over REST and MCP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { connectMcp } from '../helpers/mcp.ts';

let t: TestApp;
let full: TestClient;
before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const lookup = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/lookup?${query}`, headers: full.headers });
  return { status: res.statusCode, body: res.json() };
};
const ids = (body: { matches: { kind: string; id: string }[] }) => body.matches.map((m) => `${m.kind}:${m.id}`);

test('a misspelt name finds the vendor and its technologies, each with the filter field its id goes into', async () => {
  const { status, body } = await lookup('q=hubspt');
  assert.equal(status, 200);
  assert.equal(body.q, 'hubspt');
  assert.ok(ids(body).includes('vendor:hubspot.com'), JSON.stringify(body));
  const crm = body.matches.find((m: { id: string }) => m.id === 'prd_hs_crm');
  assert.equal(crm.filter, 'productIdIn');
  assert.equal(crm.detail, 'HubSpot · CRM');
  assert.ok(crm.score >= 0.3 && crm.score < 1);
  assert.ok(!ids(body).includes('technology:prd_ec2'));
  const scores = body.matches.map((m: { score: number }) => m.score);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
    'best first',
  );
});

test('an exact name or short name scores 1 and comes first; kind narrows; size caps each kind', async () => {
  const sfdc = await lookup('q=SFDC&kind=technology');
  assert.deepEqual(sfdc.body.matches[0], {
    kind: 'technology',
    id: 'prd_sf_crm',
    name: 'Sales Cloud',
    filter: 'productIdIn',
    score: 1,
    detail: 'Salesforce · CRM',
  });
  const crm = await lookup('q=crm&kind=category&kind=industry');
  assert.deepEqual(crm.body.matches[0], { kind: 'category', id: 'cat_crm', name: 'CRM', filter: 'mainCategoryIdIn', score: 1, detail: 'Sales' });
  assert.ok(ids(crm.body).includes('category:cat_crm_smb'));
  assert.ok(crm.body.matches.every((m: { kind: string }) => m.kind === 'category' || m.kind === 'industry'));
  const one = await lookup('q=crm&kind=category&size=1');
  assert.deepEqual(ids(one.body), ['category:cat_crm']);
  const software = await lookup('q=software&kind=industry');
  assert.deepEqual(software.body.matches[0], { kind: 'industry', id: 'ind_software', name: 'Software', filter: 'industryIn', score: 1, detail: 'Technology' });
});

test('countries by name, code or a typo; size bands by a headcount or a sum of money', async () => {
  assert.equal((await lookup('q=Germany&kind=country')).body.matches[0].id, 'DE');
  assert.equal((await lookup('q=de&kind=country')).body.matches[0].id, 'DE');
  const typo = await lookup('q=Germny&kind=country');
  assert.equal(typo.body.matches[0].id, 'DE');
  assert.equal(typo.body.matches[0].filter, 'countryIn');
  const people = await lookup(`q=${encodeURIComponent('about 250 employees')}&kind=employeeBand&kind=revenueBand`);
  assert.deepEqual(people.body.matches, [{ kind: 'employeeBand', id: '200 - 499', name: '200 - 499', filter: 'employeeRangeIn', score: 0.9, detail: null }]);
  const money = await lookup(`q=${encodeURIComponent('$20M revenue')}&kind=employeeBand&kind=revenueBand`);
  assert.deepEqual(ids(money.body), ['revenueBand:10M - 50M']);
  const label = await lookup(`q=${encodeURIComponent('1,000 - 4,999')}&kind=employeeBand`);
  assert.equal(label.body.matches[0].score, 1);
});

test('the id a lookup answers is taken by the filter it names', async () => {
  const { body } = await lookup('q=hubspot crm&kind=technology&size=1');
  const [m] = body.matches;
  const res = await t.app.inject({ method: 'POST', url: '/api/companies/search', headers: full.headers, payload: { filter: { [m.filter]: [m.id] } } });
  assert.equal(res.statusCode, 200);
  assert.ok(res.json().totalElements > 0);
});

test('nothing matching is an empty list; a bad q, kind or size is a 400 naming it', async () => {
  assert.deepEqual((await lookup('q=zzqqxx')).body, { q: 'zzqqxx', matches: [] });
  const empty = await lookup('q=');
  assert.equal(empty.status, 400);
  assert.match(empty.body.message, /q/);
  const kind = await lookup('q=crm&kind=planet');
  assert.equal(kind.status, 400);
  assert.match(kind.body.message, /kind/);
  const size = await lookup('q=crm&size=0');
  assert.equal(size.status, 400);
  assert.match(size.body.message, /size must be a whole number from 1 to 20/);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup?q=crm' })).statusCode, 401);
});

test('MCP lookup answers what REST answers, with a line per match', async () => {
  const mcp = await connectMcp(t, 'basic');
  const answer = await mcp.call('lookup', { q: 'hubspt', kind: ['vendor', 'technology'] });
  assert.equal(answer.isError, false, answer.text);
  assert.deepEqual(answer.json(), (await lookup('q=hubspt&kind=vendor&kind=technology')).body);
  assert.match(answer.text, /vendor HubSpot → vendorDomainIn: hubspot\.com/);
  const bad = await mcp.call('lookup', { q: '' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /q/);
});

test('lookup is reference data: its ETag revalidates to a 304 while the catalog is unchanged', async () => {
  const first = await t.app.inject({ method: 'GET', url: '/api/lookup?q=crm', headers: full.headers });
  assert.ok(first.headers.etag);
  const again = await t.app.inject({ method: 'GET', url: '/api/lookup?q=crm', headers: { ...full.headers, 'if-none-match': String(first.headers.etag) } });
  assert.equal(again.statusCode, 304);
  const other = await t.app.inject({ method: 'GET', url: '/api/lookup?q=hubspot', headers: { ...full.headers, 'if-none-match': String(first.headers.etag) } });
  assert.equal(other.statusCode, 200);
});
