// Market sizing (POST /companies/facets): the matches of a company-search filter counted by one
// or two dimensions. Every cell equals the total of the same search narrowed to the cell's
// values; each dimension's totals sum its cells; a technology cell counts a company once per
// product it uses while the total counts it once; samples belong to their cell; bad input is a
// 400 naming the field. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { intelligenceWorld } from '../intelligence/world.ts';
import type { Facets } from '../../src/schemas/facets.ts';
import { setPlan } from '../../src/auth/clients.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  client = await createTestClient(t.db, 'basic');
});
after(() => t.close());

const post = async <T>(url: string, payload: unknown) => {
  const res = await t.app.inject({ method: 'POST', url, headers: client.headers, payload: payload as object });
  return { status: res.statusCode, body: res.json() as T };
};
const facets = async (payload: unknown) => {
  const res = await post<Facets>('/api/companies/facets', payload);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const searchTotal = async (payload: object) => (await post<{ totalElements: number }>('/api/companies/search', { ...payload, size: 1 })).body.totalElements;

/** The search filter that narrows to one value of a dimension. */
function narrowed(filter: Record<string, unknown>, dimension: string, value: string | null): Record<string, unknown> {
  switch (dimension) {
    case 'country':
      return { ...filter, countryIn: [value] };
    case 'industry':
      return { ...filter, industryIn: [value] };
    case 'employeeBand':
      return { ...filter, employeeRangeIn: [value] };
    case 'technology':
      return { ...filter, productIdIn: [value] };
    default:
      throw new Error(dimension);
  }
}

test('every cell equals the search narrowed to it; totals sum the cells; the total is the search total', async () => {
  const filter = { industryIn: ['ind_soft'] };
  const f = await facets({ filter, dimensions: ['country', 'employeeBand'], limit: 200 });
  assert.equal(f.total, await searchTotal({ filter }));
  assert.ok(f.cells.length >= 6, 'two countries × three bands at least');
  assert.equal(f.cellCount, f.cells.length);
  for (const cell of f.cells) {
    const [country, band] = cell.values;
    if (country!.value === null || band!.value === null) continue; // unknown values have no search filter
    const narrow = narrowed(narrowed(filter, 'country', country!.value), 'employeeBand', band!.value);
    assert.equal(cell.companies, await searchTotal({ filter: narrow }), JSON.stringify(cell.values));
    assert.ok(cell.sample.length > 0 && cell.sample.length <= 3);
  }
  assert.deepEqual(
    f.cells.map((c) => c.companies),
    [...f.cells.map((c) => c.companies)].sort((a, b) => b - a),
    'largest first',
  );
  for (const [i, dimension] of f.dimensions.entries()) {
    const totals = f.totals[i]!;
    assert.equal(totals.dimension, dimension);
    for (const v of totals.values) {
      const sum = f.cells.filter((c) => c.values[i]!.value === v.value).reduce((n, c) => n + c.companies, 0);
      assert.equal(v.companies, sum, `${dimension} ${v.value}: a company is in one band and one country`);
    }
    assert.equal(
      totals.values.reduce((n, v) => n + v.companies, 0),
      f.total,
    );
  }
});

test('technology cells count a company per product it uses, the total once; names come with ids; samples are in their cell', async () => {
  const f = await facets({ dimensions: ['technology'], sample: 2 });
  const sum = f.cells.reduce((n, c) => n + c.companies, 0);
  assert.ok(sum > f.total, 'companies with several products are in several cells');
  const crm = f.cells.find((c) => c.values[0]!.value === 'prd_crm_a')!;
  assert.ok(crm.values[0]!.name, 'the product name');
  assert.equal(crm.companies, await searchTotal({ filter: { productIdIn: ['prd_crm_a'] } }));
  assert.equal(crm.sample.length, 2);
  for (const s of crm.sample) {
    const one = await searchTotal({ filter: { productIdIn: ['prd_crm_a'], companyDomainIn: [s.domain] } });
    assert.equal(one, 1, `${s.domain} uses the product of its cell`);
  }
  const industries = await facets({ dimensions: ['industry'], sample: 0 });
  assert.ok(industries.cells.every((c) => c.sample.length === 0));
  assert.ok(industries.cells.some((c) => c.values[0]!.value === 'ind_soft' && c.values[0]!.name));
});

test('limit keeps the largest cells and says how many there are; a filter without matches is empty', async () => {
  const all = await facets({ dimensions: ['country', 'technology'], limit: 200, sample: 0 });
  const top = await facets({ dimensions: ['country', 'technology'], limit: 2, sample: 0 });
  assert.equal(top.cells.length, 2);
  assert.equal(top.cellCount, all.cellCount);
  assert.deepEqual(top.cells, all.cells.slice(0, 2));
  assert.ok(top.totals.every((d) => d.values.length <= 2));
  const { countedAt, ...none } = await facets({ filter: { companyNameContains: 'no such company anywhere' }, dimensions: ['country'] });
  assert.deepEqual(none, { total: 0, dimensions: ['country'], cells: [], cellCount: 0, totals: [{ dimension: 'country', values: [] }] });
  assert.ok(Date.now() - Date.parse(countedAt) < 60_000, countedAt);
});

test('count mode: without dimensions the answer is the total alone, the search total', async () => {
  const filter = { industryIn: ['ind_soft'] };
  for (const payload of [{ filter }, { filter, dimensions: [] }]) {
    const { countedAt, ...f } = await facets(payload);
    assert.deepEqual(f, { total: await searchTotal({ filter }), dimensions: [], cells: [], cellCount: 0, totals: [] });
    assert.ok(Date.now() - Date.parse(countedAt) < 60_000, countedAt);
    assert.ok(f.total > 0);
  }
});

test('MCP companies_search count mode: the same counts as REST, the summary names the largest cells with samples', async () => {
  const mcp = await connectMcp(t, 'basic');
  const filter = { industryIn: ['ind_soft'] };
  const answer = await mcp.call('companies_search', { filter, count: ['country'] });
  assert.equal(answer.isError, false, answer.text);
  const rest = await facets({ filter, dimensions: ['country'] });
  assert.deepEqual(answer.json(), rest);
  const top = rest.cells[0]!;
  const first = `${top.values[0]!.value}: ${top.companies} (${top.sample.map((x) => x.domain).join(', ')})`;
  assert.ok(answer.text.startsWith(`${rest.total} companies match. By country: ${first}`), answer.text);
  const count = await mcp.call('companies_search', { filter, count: true });
  assert.equal(count.text.split('\n')[0], `${rest.total} companies match.`);
  await mcp.client.close();
});

test("market sizing counts against the plan's facetsPerDay on REST (count mode included) and MCP; a refused or invalid call spends nothing", async () => {
  const plan = { requestsPerMinute: 10_000, aiRequestsPerMinute: 1, exportRequestsPerMinute: 1 };
  await setPlan(t.db, 'facets-two', { ...plan, facetsPerDay: 2 });
  await setPlan(t.db, 'facets-none', { ...plan, facetsPerDay: 0 });
  const small = await createTestClient(t.db, 'facets-two');
  const call = (payload: object, c: TestClient = small) => t.app.inject({ method: 'POST', url: '/api/companies/facets', headers: c.headers, payload });
  const invalid = await call({ dimensions: ['planet'] });
  assert.equal(invalid.statusCode, 400, 'an invalid request is refused before it spends');
  assert.equal((await call({ dimensions: ['country'] })).statusCode, 200);
  assert.equal((await call({ dimensions: [] })).statusCode, 200, 'count mode');
  const third = await call({ dimensions: [] });
  assert.equal(third.statusCode, 429, third.body);
  assert.match(third.json().message, /made 2 of the 2 market-sizing calls its plan 'facets-two' allows per UTC day \(facetsPerDay\)/);
  assert.ok(Number(third.headers['retry-after']) >= 1);
  const none = await call({ dimensions: ['country'] }, await createTestClient(t.db, 'facets-none'));
  assert.equal(none.statusCode, 409, none.body);
  assert.match(none.json().message, /more than the 0 its plan 'facets-none' allows per UTC day \(facetsPerDay\)/);
  const [spent] = await t.db.query<{ used: string }>("SELECT used FROM daily_allowance WHERE client_id = $1 AND kind = 'facets'", [small.clientId]);
  assert.equal(Number(spent!.used), 2);

  // The MCP door: the same allowance (the plan is read from the database on each call).
  const mcp = await connectMcp(t, 'basic');
  await t.db.query("UPDATE api_clients SET plan_id = 'facets-two' WHERE id = $1", [mcp.clientId]);
  assert.equal((await mcp.call('companies_search', { count: true })).isError, false);
  assert.equal((await mcp.call('companies_search', { count: ['country'] })).isError, false);
  const refused = await mcp.call('companies_search', { count: true });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /facetsPerDay/);
  const page = await mcp.call('companies_search', { size: 1 });
  assert.equal(page.isError, false, 'a search page is not market sizing');
  await mcp.client.close();
});

test('bad input is a 400 naming the field; unknown names in the filter are 404 as in search', async () => {
  const cases: Array<[unknown, number, RegExp]> = [
    [{ dimensions: ['country', 'country'] }, 400, /dimensions/],
    [{ dimensions: ['country', 'industry', 'technology'] }, 400, /dimensions/],
    [{ dimensions: ['planet'] }, 400, /dimensions/],
    [{ dimensions: ['country'], limit: 0 }, 400, /limit/],
    [{ dimensions: ['country'], sample: 11 }, 400, /sample/],
    [{ dimensions: ['country'], page: 2 }, 400, /page/],
    [{ dimensions: ['country'], filter: { productIdIn: ['prd_nowhere'] } }, 404, /productIdIn/],
  ];
  for (const [payload, status, message] of cases) {
    const res = await post<{ message: string }>('/api/companies/facets', payload);
    assert.equal(res.status, status, JSON.stringify(payload));
    assert.match(res.body.message, message, JSON.stringify(payload));
  }
});
