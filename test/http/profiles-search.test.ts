// POST /api/profiles/search: every filter, paging edges, errors, and the CSV export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { purchaseHeaders } from '../../src/schemas/profiles.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;

const SUMMARY_KEYS = ['city', 'companyDomain', 'companyName', 'country', 'fullName', 'function', 'id', 'linkedinUrl', 'seniority', 'title'];

before(async () => {
  t = await createTestApp();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
  await insertWorld(t.db, {
    industries: [
      { id: 'ind_software', name: 'Software' },
      { id: 'ind_retail', name: 'Retail' },
    ],
    companies: [
      { id: 'cmp_acme', domain: 'acme.com', name: 'Acme Corp', industry_id: 'ind_software' },
      { id: 'cmp_globex', domain: 'globex.io', name: 'Globex', industry_id: 'ind_retail' },
      { id: 'cmp_initech', domain: 'initech.de', name: 'Initech', industry_id: null },
    ],
    people: [
      {
        id: 'per_001',
        full_name: 'Ada Lovelace',
        title: 'VP of Engineering',
        seniority: 'VP',
        function: 'Engineering',
        company_id: 'cmp_acme',
        country: 'US',
        city: 'Austin',
        linkedin_url: 'https://linkedin.com/in/ada',
      },
      {
        id: 'per_002',
        full_name: 'Grace Hopper',
        title: 'Chief Technology Officer',
        seniority: 'C-Level',
        function: 'Engineering',
        company_id: 'cmp_globex',
        country: 'DE',
        city: 'Berlin',
      },
      {
        id: 'per_003',
        full_name: 'Alan Turing',
        title: 'Sales Director',
        seniority: 'Director',
        function: 'Sales',
        company_id: 'cmp_initech',
        country: 'GB',
        city: 'London',
      },
      {
        id: 'per_004',
        full_name: 'Edsger Dijkstra',
        title: 'Senior Engineer',
        seniority: 'Senior',
        function: 'Engineering',
        company_id: 'cmp_acme',
        country: 'NL',
        city: 'Amsterdam',
      },
      {
        id: 'per_005',
        full_name: 'Barbara Liskov',
        title: 'Marketing Manager',
        seniority: 'Manager',
        function: 'Marketing',
        company_id: 'cmp_globex',
        country: 'US',
        city: 'Boston',
      },
      {
        id: 'per_006',
        full_name: '=cmd|calc',
        title: '+danger, "quoted"',
        seniority: 'Senior',
        function: 'Sales',
        company_id: null,
        country: 'US',
        city: null,
      },
      // 25 look-alikes for paging
      ...Array.from({ length: 25 }, (_, i) => ({
        id: `per_p${String(i).padStart(2, '0')}`,
        full_name: `Pager ${i}`,
        title: 'Account Executive',
        seniority: 'Mid',
        function: 'Pagination',
        company_id: 'cmp_initech',
        country: 'FR',
      })),
    ],
    contacts: [{ person_id: 'per_001', kind: 'email', value: 'ada@acme.com' }],
  });
});
after(() => t.close());

const search = (body: unknown, query = '', headers: Record<string, string> = full.headers) =>
  t.app.inject({ method: 'POST', url: `/api/profiles/search${query}`, headers, payload: body as object });

const ids = (res: { json(): { content: { id: string }[] } }) => res.json().content.map((p) => p.id);

test('happy path: exact page and summary shape, no contact fields', async () => {
  const res = await search({ query: 'ada lovelace' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    totalPages: 1,
    totalElements: 1,
    content: [
      {
        id: 'per_001',
        fullName: 'Ada Lovelace',
        title: 'VP of Engineering',
        seniority: 'VP',
        function: 'Engineering',
        companyName: 'Acme Corp',
        companyDomain: 'acme.com',
        country: 'US',
        city: 'Austin',
        linkedinUrl: 'https://linkedin.com/in/ada',
      },
    ],
  });
  assert.doesNotMatch(res.body, /ada@acme\.com|emails|phones/);
  const none = await search({ functions: ['Sales'] });
  for (const p of none.json().content) assert.deepEqual(Object.keys(p).sort(), SUMMARY_KEYS);
  // A person without a company keeps every key, with nulls.
  const orphan = none.json().content.find((p: { id: string }) => p.id === 'per_006');
  assert.equal(orphan.companyName, null);
  assert.equal(orphan.companyDomain, null);
});

test('query: every word must match name, title or company name (case-insensitive)', async () => {
  assert.deepEqual(ids(await search({ query: 'ACME' })), ['per_001', 'per_004']);
  assert.deepEqual(ids(await search({ query: 'engineer acme' })), ['per_001', 'per_004']);
  assert.deepEqual(ids(await search({ query: 'grace chief' })), ['per_002']);
  assert.deepEqual(ids(await search({ query: 'hopper acme' })), []);
  // LIKE wildcards are literal.
  assert.deepEqual(ids(await search({ query: '%' })), []);
  assert.deepEqual(ids(await search({ query: '_' })), []);
});

test('titles: whole words or phrases, case-insensitive, any of', async () => {
  assert.deepEqual(ids(await search({ titles: ['engineer'] })), ['per_004'], '"engineer" is not a word of "VP of Engineering"');
  assert.deepEqual(ids(await search({ titles: ['of  engineering'] })), ['per_001'], 'a phrase, any run of spaces');
  assert.deepEqual(ids(await search({ titles: ['CHIEF', 'director'] })), ['per_002', 'per_003']);
  assert.deepEqual(ids(await search({ titles: ['tor'] })), [], 'no match inside a word');
});

test('titles: CTO matches the CTO by the documented spelled-out form, never "Director"', async () => {
  for (const title of ['CTO', 'cto', ' CTO ', 'CTOs']) {
    const res = await search({ titles: [title] });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(ids(res), ['per_002'], `${title}: Chief Technology Officer, not Sales Director`);
  }
  // LIKE and regular-expression metacharacters are matched literally.
  for (const title of ['%', '_', '\\', '.*', 'Direct.r', "'", '(', '[']) {
    const res = await search({ titles: [title] });
    assert.equal(res.statusCode, 200, title);
    assert.deepEqual(ids(res), [], title);
  }
  assert.deepEqual(ids(await search({ titles: ['+danger'] })), ['per_006'], 'a leading symbol');
});

test('seniority and functions: case-insensitive exact, any of', async () => {
  assert.deepEqual(ids(await search({ seniority: ['senior'] })), ['per_004', 'per_006']);
  assert.deepEqual(ids(await search({ seniority: ['vp', 'C-LEVEL'] })), ['per_001', 'per_002']);
  assert.deepEqual(ids(await search({ seniority: ['Sen'] })), []); // exact, not contains
  assert.deepEqual(ids(await search({ functions: ['marketing'] })), ['per_005']);
  assert.deepEqual(ids(await search({ functions: ['engineering'], seniority: ['VP'] })), ['per_001']); // AND across filters
});

test('countries: ISO-2 codes or names; unknown is 400', async () => {
  assert.deepEqual(ids(await search({ countries: ['us'] })), ['per_001', 'per_005', 'per_006']);
  assert.deepEqual(ids(await search({ countries: ['Germany', 'United Kingdom'] })), ['per_002', 'per_003']);
  assert.deepEqual(ids(await search({ countries: ['UK'] })), ['per_003']);
  const bad = await search({ countries: ['Atlantis'] });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /countries: 'Atlantis'/);
});

test('companyDomains: normalized; invalid 400; unknown 404 naming the domain', async () => {
  assert.deepEqual(ids(await search({ companyDomains: ['https://www.ACME.com./about'] })), ['per_001', 'per_004']);
  assert.deepEqual(ids(await search({ companyDomains: ['acme.com', 'globex.io'] })), ['per_001', 'per_002', 'per_004', 'per_005']);
  const bad = await search({ companyDomains: ['not a domain'] });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /companyDomains\.0: 'not a domain' is not a valid domain/);
  const unknown = await search({ companyDomains: ['acme.com', 'nowhere.example'] });
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.json().message, /nowhere\.example/);
});

test('industries: by id or name via the company; unknown 404', async () => {
  assert.deepEqual(ids(await search({ industries: ['ind_software'] })), ['per_001', 'per_004']);
  assert.deepEqual(ids(await search({ industries: ['retail'] })), ['per_002', 'per_005']);
  const unknown = await search({ industries: ['Mining'] });
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.json().message, /industries: .*'Mining'/);
});

test('at least one meaningful filter, else 400 naming the rule', async () => {
  for (const body of [{}, { query: '   ' }, { titles: [] }, { titles: ['', ' '], countries: [] }, { page: 0, size: 10 }]) {
    const res = await search(body);
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.match(res.json().message, /at least one meaningful filter/);
  }
});

test('bad body types and sizes are 400 naming the field', async () => {
  const cases: [unknown, RegExp][] = [
    [{ titles: 'CTO' }, /body\.titles/],
    [{ titles: [1] }, /body\.titles\.0/],
    [{ query: 'x'.repeat(201) }, /body\.query/],
    [{ seniority: Array.from({ length: 101 }, () => 'a') }, /body\.seniority/],
  ];
  for (const [body, message] of cases) {
    const res = await search(body);
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.match(res.json().message, message);
  }
});

test('paging: stable, no repeats or gaps, past the end is empty with totals', async () => {
  const seen: string[] = [];
  for (let page = 0; page < 3; page++) {
    const res = await search({ functions: ['pagination'] }, `?page=${page}&size=10`);
    const body = res.json();
    assert.equal(body.totalElements, 25);
    assert.equal(body.totalPages, 3);
    assert.equal(body.content.length, page < 2 ? 10 : 5);
    seen.push(...ids(res));
  }
  assert.equal(new Set(seen).size, 25);
  assert.deepEqual(seen, [...seen].sort());
  const past = await search({ functions: ['pagination'] }, '?page=7&size=10');
  assert.deepEqual(past.json(), { totalPages: 3, totalElements: 25, content: [] });
  // size bounds and paging in the body
  assert.equal((await search({ functions: ['pagination'] }, '?size=200')).json().content.length, 25);
  assert.deepEqual(ids(await search({ functions: ['pagination'], page: 2, size: 10 })), seen.slice(20));
  const defaults = (await search({ functions: ['pagination'] })).json();
  assert.equal(defaults.content.length, 20);
  assert.equal(defaults.totalPages, 2);
});

test('bad paging is 400 naming the parameter (no clamping)', async () => {
  const cases: [string, unknown, RegExp][] = [
    ['?size=0', {}, /size/],
    ['?size=201', {}, /size/],
    ['?page=-1', {}, /page/],
    ['?page=abc', {}, /page/],
    ['?size=1.5', {}, /size/],
    ['', { size: 500 }, /size/],
    ['?page=1', { page: 2 }, /page: given in both/],
  ];
  for (const [query, extra, message] of cases) {
    const res = await search({ titles: ['engineer'], ...(extra as object) }, query);
    assert.equal(res.statusCode, 400, query + JSON.stringify(extra));
    assert.match(res.json().message, message);
  }
});

test('401 without credentials', async () => {
  const res = await search({ query: 'ada' }, '', {});
  assert.equal(res.statusCode, 401);
});

test('export=true streams CSV of every match, neutralizes formulas, and is audited', async () => {
  const headers = { ...full.headers, 'x-on-behalf-of-user': 'Analyst@Example.com' };
  const res = await search({ seniority: ['senior', 'vp'] }, '?export=true&size=1', headers);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="profiles-\d{8}-\d{6}\.csv"$/);
  const rows = parse(res.body, { columns: false }) as string[][];
  assert.deepEqual(rows[0], ['id', 'fullName', 'title', 'seniority', 'function', 'companyName', 'companyDomain', 'country', 'city', 'linkedinUrl']);
  assert.deepEqual(
    rows.slice(1).map((r) => r[0]),
    ['per_001', 'per_004', 'per_006'],
  ); // paging ignored: every match
  assert.deepEqual(rows[3], ['per_006', "'=cmd|calc", '\'+danger, "quoted"', 'Senior', 'Sales', '', '', 'US', '', '']);
  assert.doesNotMatch(res.body, /ada@acme\.com/);
  const [entry] = await t.db.query<Record<string, any>>(
    "SELECT client_id, on_behalf_of, action, params, result_count FROM audit_log WHERE action = 'profiles.export' ORDER BY id DESC LIMIT 1",
  );
  assert.equal(entry!.client_id, full.clientId);
  assert.equal(entry!.on_behalf_of, 'analyst@example.com');
  assert.equal(entry!.result_count, 3);
  assert.deepEqual(entry!.params.seniority, ['senior', 'vp']);
  assert.equal(entry!.params.completed, true);
});

test('export streams in batches beyond one batch size', async () => {
  const extra = Array.from({ length: 1234 }, (_, i) => ({ id: `per_x${String(i).padStart(5, '0')}`, full_name: `Bulk ${i}`, function: 'Bulk' }));
  await insertWorld(t.db, { people: extra });
  const res = await search({ functions: ['bulk'] }, '?export=true', { ...full.headers, 'x-on-behalf-of-user': 'a@example.com' });
  const rows = parse(res.body) as string[][];
  assert.equal(rows.length, 1 + 1234);
  assert.equal(new Set(rows.slice(1).map((r) => r[0])).size, 1234);
  const page = await search({ functions: ['bulk'] }, '?size=5');
  assert.equal(page.json().totalElements, 1234);
});

test('export: 403 without the permission or the on-behalf header; 400 on a bad email; filters still checked', async () => {
  const noPerm = await search({ query: 'ada' }, '?export=true', { ...basic.headers, 'x-on-behalf-of-user': 'a@example.com' });
  assert.equal(noPerm.statusCode, 403);
  assert.match(noPerm.json().message, /Permission 'export'/);
  const noUser = await search({ query: 'ada' }, '?export=true');
  assert.equal(noUser.statusCode, 403);
  assert.match(noUser.json().message, /X-On-Behalf-Of-User/);
  const badUser = await search({ query: 'ada' }, '?export=true', { ...full.headers, 'x-on-behalf-of-user': 'not-an-email' });
  assert.equal(badUser.statusCode, 400);
  const noFilter = await search({}, '?export=true', { ...full.headers, 'x-on-behalf-of-user': 'a@example.com' });
  assert.equal(noFilter.statusCode, 400);
  assert.match(noFilter.json().message, /meaningful filter/);
  const badFlag = await search({ query: 'ada' }, '?export=maybe');
  assert.equal(badFlag.statusCode, 400);
  assert.match(badFlag.json().message, /export/);
  // The basic plan can still search.
  assert.equal((await search({ query: 'ada' }, '', basic.headers)).statusCode, 200);
});

test('header schemas keep the headers they do not name (Fastify replaces request.headers with the parsed value)', () => {
  const parsed = purchaseHeaders.parse({ 'x-api-key': 'k', accept: 'text/csv', 'x-on-behalf-of-user': 'a@example.com' });
  assert.deepEqual(parsed, { 'x-api-key': 'k', accept: 'text/csv', 'x-on-behalf-of-user': 'a@example.com' });
});
