// Lookalikes (POST /companies/lookalikes, MCP find_lookalikes) on a small hand-built world whose
// support counts are known: five Software seeds in the US, four on HubSpot, three on Mailer, one
// on a rare product. Explanations count exactly; seeds and excluded companies never come back;
// a product one seed uses does not move the ranking under the default minSeedSupport (and does
// at 1); the company-search filter narrows the candidates; bad input is a 4xx naming the field.
// Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld, type WorldSpec } from '../helpers/fixtures.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { lookalikesSchema, type Lookalikes } from '../../src/schemas/lookalikes.ts';

const AS_OF = '2026-10-01T00:00:00Z';
const FRESH = { first_verified: '2024-01-01T00:00:00Z', last_verified: AS_OF, hit_count: 40, intensity: 70, sources: ['website', 'jobs'] };
const SEEDS = ['s0.example', 's1.example', 's2.example', 's3.example', 's4.example'];

function world(): WorldSpec {
  const companies: NonNullable<WorldSpec['companies']> = [];
  const installs: NonNullable<WorldSpec['installs']> = [];
  const soft = (id: string, extra: object = {}) =>
    companies.push({ id, domain: `${id.slice(4)}.example`, industry_id: 'ind_soft', employee_band: '50 - 199', revenue_band: null, country: 'US', ...extra });
  const use = (id: string, ...products: string[]) => products.forEach((p) => installs.push({ company_id: id, product_id: p, ...FRESH }));
  for (let i = 0; i < 5; i++) soft(`cmp_s${i}`);
  use('cmp_s0', 'prd_hub', 'prd_mail', 'prd_rare');
  use('cmp_s1', 'prd_hub', 'prd_mail');
  use('cmp_s2', 'prd_hub', 'prd_mail');
  use('cmp_s3', 'prd_hub');
  use('cmp_s4', 'prd_sf');
  soft('cmp_best');
  use('cmp_best', 'prd_hub', 'prd_mail');
  soft('cmp_rare');
  use('cmp_rare', 'prd_rare');
  soft('cmp_none');
  soft('cmp_excl');
  use('cmp_excl', 'prd_hub', 'prd_mail');
  // Others: Software in Canada or large, and Finance in Great Britain.
  for (let i = 0; i < 12; i++) {
    soft(`cmp_o${i}`, i % 2 ? { country: 'CA' } : { employee_band: '1000 - 4999' });
    use(`cmp_o${i}`, i % 3 ? 'prd_sf' : 'prd_hub');
  }
  for (let i = 0; i < 8; i++) {
    companies.push({ id: `cmp_f${i}`, domain: `f${i}.example`, industry_id: 'ind_fin', employee_band: '50 - 199', country: 'GB' });
    use(`cmp_f${i}`, i % 2 ? 'prd_hub' : 'prd_sf', 'prd_bank');
  }
  return {
    industries: [
      { id: 'ind_soft', name: 'Software', sector: 'Technology' },
      { id: 'ind_fin', name: 'Banking', sector: 'Finance' },
    ],
    categories: [
      { id: 'cat_crm', name: 'CRM' },
      { id: 'cat_email', name: 'Email' },
      { id: 'cat_analytics', name: 'Analytics' },
      { id: 'cat_core', name: 'Core banking' },
    ],
    vendors: [{ id: 'ven_a', domain: 'a-soft.com' }],
    products: [
      { id: 'prd_hub', vendor_id: 'ven_a', category_id: 'cat_crm', name: 'HubSpot' },
      { id: 'prd_sf', vendor_id: 'ven_a', category_id: 'cat_crm', name: 'Salesforce' },
      { id: 'prd_mail', vendor_id: 'ven_a', category_id: 'cat_email', name: 'Mailer' },
      { id: 'prd_rare', vendor_id: 'ven_a', category_id: 'cat_analytics', name: 'Rare' },
      { id: 'prd_bank', vendor_id: 'ven_a', category_id: 'cat_core', name: 'Bank Core' },
    ],
    companies,
    installs,
  };
}

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, world());
  await refreshAll(t.db, { asOf: new Date(AS_OF) });
  client = await createTestClient(t.db, 'basic');
});
after(() => t.close());

const post = async (payload: unknown) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/companies/lookalikes', headers: client.headers, payload: payload as object });
  return { status: res.statusCode, body: res.json() };
};
const lookalikes = async (payload: object): Promise<Lookalikes> => {
  const res = await post({ size: 100, ...payload });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return lookalikesSchema.parse(res.body);
};
const byDomain = (l: Lookalikes, domain: string) => l.content.find((c) => c.domain === domain);

test('the best match comes first and explains itself with exact support counts', async () => {
  const l = await lookalikes({ seedDomains: SEEDS });
  assert.equal(l.content[0]!.domain, 'best.example');
  const best = l.content[0]!;
  assert.deepEqual(
    best.sharedSignals.map((s) => [s.product, s.seeds, s.of]),
    [
      ['HubSpot', 4, 5],
      ['Mailer', 3, 5],
    ],
  );
  assert.deepEqual(
    best.matches.map((m) => [m.field, m.value, m.seeds, m.of]),
    [
      ['industry', 'Software', 5, 5],
      ['employeeRange', '50 - 199', 5, 5],
      ['revenueRange', null, 0, 5],
      ['region', 'NA', 5, 5],
    ],
  );
  assert.ok(best.topFeatures.length > 0 && best.topFeatures.length <= 5);
  assert.ok(best.topFeatures.some((f) => f.feature === 'uses HubSpot'));
  assert.ok(best.topFeatures.some((f) => f.feature === 'industry Software'));
  const shares = best.topFeatures.map((f) => f.share);
  assert.deepEqual(
    shares,
    [...shares].sort((a, b) => b - a),
  );
  assert.ok(shares.reduce((s, x) => s + x, 0) <= 1.001);
  // The seed profile: products at least 2 seeds use, most shared first (Salesforce and Rare: 1 seed each).
  assert.deepEqual(
    l.seeds.signals.map((s) => [s.productId, s.seeds]),
    [
      ['prd_hub', 4],
      ['prd_mail', 3],
    ],
  );
  assert.equal(l.seeds.count, 5);
  // Scores decrease down the ranking; Finance in Great Britain comes after every US Software company.
  const scores = l.content.map((c) => c.score);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  const lastSoftUs = Math.max(...l.content.flatMap((c, i) => (c.industry === 'Software' && c.country === 'US' ? [i] : [])));
  const firstFin = l.content.findIndex((c) => c.industry === 'Banking');
  assert.ok(lastSoftUs < firstFin);
});

test('the seeds and the excluded domains never come back; unknown exclusions are counted', async () => {
  const all = await lookalikes({ seedDomains: SEEDS });
  assert.equal(all.totalElements, 29 - 5);
  assert.equal(all.excluded, 5);
  for (const s of SEEDS) assert.equal(byDomain(all, s), undefined);
  assert.ok(byDomain(all, 'excl.example'));
  const l = await lookalikes({ seedDomains: SEEDS, excludeDomains: ['excl.example', 'nowhere.example'] });
  assert.equal(byDomain(l, 'excl.example'), undefined);
  assert.equal(l.totalElements, 29 - 6);
  assert.equal(l.excluded, 6);
  assert.equal(l.excludedUnknown, 1);
});

test('a product fewer than minSeedSupport seeds use does not drive the ranking', async () => {
  const l = await lookalikes({ seedDomains: SEEDS });
  const rare = byDomain(l, 'rare.example')!,
    none = byDomain(l, 'none.example')!;
  assert.deepEqual(rare.sharedSignals, []);
  assert.equal(rare.score, none.score);
  const one = await lookalikes({ seedDomains: SEEDS, minSeedSupport: 1 });
  const rare1 = byDomain(one, 'rare.example')!;
  assert.deepEqual(
    rare1.sharedSignals.map((s) => [s.productId, s.seeds, s.of]),
    [['prd_rare', 1, 5]],
  );
  assert.ok(rare1.score > byDomain(one, 'none.example')!.score);
  // And a seed set's signal held by more seeds than minSeedSupport asks for no longer counts past it.
  const strict = await lookalikes({ seedDomains: SEEDS, minSeedSupport: 4 });
  assert.deepEqual(
    byDomain(strict, 'best.example')!.sharedSignals.map((s) => s.product),
    ['HubSpot'],
  );
});

test('the company-search filter narrows the candidates; paging is stable', async () => {
  const l = await lookalikes({ seedDomains: SEEDS, filter: { countryIn: ['GB'] } });
  assert.equal(l.totalElements, 8);
  assert.ok(l.content.every((c) => c.country === 'GB'));
  const top = await lookalikes({ seedDomains: SEEDS, industries: ['Software'], employeeRange: ['50 - 199'], countries: ['US'] });
  assert.deepEqual(top.content.map((c) => c.domain).sort(), ['best.example', 'excl.example', 'none.example', 'rare.example']);
  const full = await lookalikes({ seedDomains: SEEDS });
  const pages = [];
  for (let page = 0; page < 3; page++) pages.push(...(await lookalikes({ seedDomains: SEEDS, size: 10, page })).content.map((c) => c.domain));
  assert.deepEqual(
    pages,
    full.content.map((c) => c.domain),
  );
});

test('seeds from a company search are the companies it matches', async () => {
  const bySearch = await lookalikes({ seedSearch: { filter: { companyDomainIn: SEEDS } } });
  const byList = await lookalikes({ seedDomains: SEEDS });
  assert.deepEqual(bySearch, byList);
  const res = await post({ seedSearch: { filter: { countryIn: ['GB'] }, industries: ['Software'] } });
  assert.equal(res.status, 400);
  assert.match(res.body.message, /seedSearch: it matches 0 companies/);
});

test("seeds and exclusions from account lists: the matched companies of your list; another client's list is a 404", async () => {
  const upload = async (who: TestClient, domains: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lists?name=Seeds',
      headers: { ...who.headers, 'content-type': 'text/csv' },
      payload: ['domain', ...domains].join('\n'),
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { id: string }).id;
  };
  const seeds = await upload(client, SEEDS);
  const customers = await upload(client, ['best.example']);
  const fromList = await lookalikes({ seedListId: seeds, excludeListId: customers });
  const fromDomains = await lookalikes({ seedDomains: SEEDS, excludeDomains: ['best.example'] });
  assert.deepEqual(fromList, fromDomains);
  assert.ok(!fromList.content.some((r) => r.domain === 'best.example'));
  const other = await createTestClient(t.db, 'basic');
  const theirs = await upload(other, SEEDS);
  const res = await post({ seedListId: theirs });
  assert.equal(res.status, 404, JSON.stringify(res.body));
  const both = await post({ seedListId: seeds, seedDomains: SEEDS });
  assert.equal(both.status, 400);
  assert.match(both.body.message, /seedDomains: give exactly one of seedDomains, seedSearch and seedListId/);
});

test('bad input is a 4xx naming the field', async () => {
  const cases: Array<[object, number, RegExp]> = [
    [{ seedDomains: ['s0.example', 'unknown-one.example', 'unknown-two.example'] }, 404, /seedDomains.*unknown-one\.example.*unknown-two\.example/s],
    [{ seedDomains: ['s0.example'] }, 400, /seedDomains/],
    [{ seedDomains: ['s0.example', 's0.example'] }, 400, /seedDomains: give at least 2 different companies/],
    [{}, 400, /seedDomains: give exactly one of seedDomains, seedSearch and seedListId/],
    [{ seedDomains: SEEDS, seedSearch: { countries: ['US'] } }, 400, /exactly one/],
    [{ seedDomains: SEEDS, minSeedSupport: 0 }, 400, /minSeedSupport/],
    [{ seedDomains: SEEDS, size: 101 }, 400, /size/],
    [{ seedDomains: SEEDS, filter: { productIdIn: ['prd_nope'] } }, 404, /filter\.productIdIn.*prd_nope/],
    [{ seedDomains: SEEDS, industries: ['Nope'] }, 400, /industries/],
    [{ seedDomains: SEEDS, bogus: 1 }, 400, /bogus/],
  ];
  for (const [payload, status, message] of cases) {
    const res = await post(payload);
    assert.equal(res.status, status, `${JSON.stringify(payload)} → ${JSON.stringify(res.body)}`);
    assert.match(res.body.message, message, JSON.stringify(payload));
  }
});

test('MCP find_lookalikes: the same answer, valid against its output schema, with a summary that quotes the support', async () => {
  const { client: mcp, call } = await connectMcp(t, 'basic', undefined, undefined, undefined, 'all');
  const tool = (await mcp.listTools()).tools.find((x) => x.name === 'find_lookalikes');
  assert.ok(tool?.outputSchema, 'an output schema');
  assert.equal(tool.annotations?.readOnlyHint, true);
  const answer = await call('find_lookalikes', { seedDomains: SEEDS, size: 5 });
  assert.equal(answer.isError, false, answer.text);
  const structured = lookalikesSchema.parse(answer.json());
  assert.deepEqual(structured, await lookalikes({ seedDomains: SEEDS, size: 5 }));
  assert.match(answer.text, /best\.example.*uses HubSpot: 4 of 5 seeds/);
  const bad = await call('find_lookalikes', { seedDomains: ['s0.example', 'missing.example'] });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /missing\.example/);
});
