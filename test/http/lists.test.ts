// Account lists: CSV, JSONL and inline uploads matched to companies (domain, www, country-code
// variants, name + country), versions and their diff, another client's list not found, bad
// rows refused whole (400 naming line and field, nothing stored), the review queue's decisions,
// the plan's row limit, and listCompanyIds. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { setPlan } from '../../src/auth/clients.ts';
import { listCompanyIds } from '../../src/services/lists.ts';
import type { AccountList, ListRow } from '../../src/schemas/lists.ts';

let t: TestApp;
let a: TestClient;
let b: TestClient;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, {
    companies: [
      { id: 'c_acme', domain: 'acme.com', name: 'Acme Corporation', country: 'US' },
      { id: 'c_globex', domain: 'globex.de', name: 'Globex GmbH', country: 'DE' },
      { id: 'c_initech', domain: 'initech.com', name: 'Initech', country: 'US' },
      { id: 'c_umbrella_fr', domain: 'umbrella.fr', name: 'Umbrella Pharma', country: 'FR' },
      { id: 'c_umbrella_it', domain: 'umbrella-pharma.it', name: 'Umbrella Pharma', country: 'IT' },
      { id: 'c_stark1', domain: 'starkind.com', name: 'Stark Industries', country: 'GB' },
      { id: 'c_stark2', domain: 'starkindustries.co.uk', name: 'Stark Industrial', country: 'GB' },
      { id: 'c_hooli', domain: 'hooli.io', name: 'Hooli', country: 'US' },
    ],
  });
  a = await createTestClient(t.db, 'full');
  b = await createTestClient(t.db, 'full');
});
after(() => t.close());

const call = async <T>(client: TestClient, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, contentType?: string) => {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...client.headers, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
  return { status: res.statusCode, body: res.json() as T };
};
const rowsOf = async (client: TestClient, id: string, q = '') =>
  (await call<{ content: ListRow[] }>(client, 'GET', `/api/lists/${id}/rows?size=200${q}`)).body.content;
const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

const CSV = [
  'domain,name,country,owner',
  'www.acme.com,,US,kim',
  'https://globex.com/about,Globex,DE,lee',
  ',Initech Inc.,US,max',
  'unknown-co.com,,,ann',
  ',Umbrella Pharma,,sam',
  ',Stark Industries Ltd,GB,tom',
  ',Nobody Whatsoever,FR,zoe',
  ',,,nil',
].join('\n');

test('a CSV upload matches by domain, www, country-code variant and name + country, keeps other columns, and reports misses', async () => {
  const res = await call<AccountList>(a, 'POST', '/api/lists?name=Targets', CSV, 'text/csv');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const l = res.body;
  assert.equal(l.name, 'Targets');
  assert.equal(l.version, 1);
  assert.equal(l.rows, 8);
  assert.equal(l.diff, null);
  const rows = await rowsOf(a, l.id);
  const at = (line: number) => rows.find((r) => r.line === line)!;
  assert.deepEqual([at(2).status, at(2).companyDomain, at(2).method], ['matched', 'acme.com', 'domain']);
  assert.deepEqual(at(2).data, { owner: 'kim' });
  assert.deepEqual([at(3).status, at(3).companyDomain, at(3).method], ['matched', 'globex.de', 'domain_variant']);
  assert.deepEqual([at(4).status, at(4).companyDomain, at(4).method], ['matched', 'initech.com', 'name']);
  assert.deepEqual([at(5).status, at(5).reason], ['unmatched', 'domain_unknown']);
  assert.equal(at(6).status, 'review', 'two Umbrella Pharma without a country');
  assert.deepEqual(
    at(6)
      .candidates.map((c) => c.companyDomain)
      .sort(),
    ['umbrella-pharma.it', 'umbrella.fr'],
  );
  assert.deepEqual([at(7).status, at(7).companyDomain], ['matched', 'starkind.com']);
  assert.deepEqual([at(8).status, at(8).reason], ['unmatched', 'name_unknown_in_country']);
  assert.deepEqual([at(9).status, at(9).reason], ['unmatched', 'no_domain_or_name']);
  assert.equal(l.matched, 4);
  assert.equal(l.review, 1);
  assert.equal(l.matchRate, 0.5);
  assert.deepEqual(l.missReasons, { ambiguous: 1, domain_unknown: 1, name_unknown_in_country: 1, no_domain_or_name: 1 });
  assert.deepEqual(await listCompanyIds(t.db, a.clientId, l.id), ['c_acme', 'c_globex', 'c_initech', 'c_stark1']);
});

test('JSONL and inline rows upload the same way; a re-upload is a new version with its diff', async () => {
  const jsonl = ['{"domain":"acme.com","tier":1}', '{"name":"Hooli","country":"US","tier":2}', '{"domain":"initech.com","tier":3}'].join('\n');
  const v1 = await call<AccountList>(a, 'POST', '/api/lists?name=Customers', jsonl, 'application/x-ndjson');
  assert.equal(v1.status, 200, JSON.stringify(v1.body));
  assert.equal(v1.body.matched, 3);
  const v2 = await call<AccountList>(a, 'POST', `/api/lists/${v1.body.id}/versions`, {
    rows: [
      { domain: 'acme.com', tier: 1 },
      { name: 'Hooli', country: 'US', tier: 5 },
      { domain: 'globex.de', tier: 1 },
    ],
  });
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  assert.equal(v2.body.version, 2);
  assert.equal(v2.body.name, 'Customers');
  assert.deepEqual(v2.body.diff, { added: 1, removed: 1, changed: 1 });
  const diff = await call<{ added: number; rows: { content: { change: string; key: string; before: ListRow | null; after: ListRow | null }[] } }>(
    a,
    'GET',
    `/api/lists/${v1.body.id}/versions/2/diff`,
  );
  assert.equal(diff.status, 200, JSON.stringify(diff.body));
  const byChange = Object.fromEntries(diff.body.rows.content.map((r) => [r.change, r]));
  assert.equal(byChange.added!.key, 'globex.de');
  assert.equal(byChange.removed!.key, 'initech.com');
  assert.equal(byChange.changed!.key, 'hooli|US');
  assert.deepEqual([byChange.changed!.before!.data, byChange.changed!.after!.data], [{ tier: 2 }, { tier: 5 }]);
  assert.deepEqual(await listCompanyIds(t.db, a.clientId, v1.body.id), ['c_acme', 'c_globex', 'c_hooli']);
  const first = await call<{ previous: number | null; added: number }>(a, 'GET', `/api/lists/${v1.body.id}/versions/1/diff`);
  assert.deepEqual([first.body.previous, first.body.added], [null, 3]);
});

test("another client's list is not found, on every operation and in listCompanyIds", async () => {
  const mine = await call<AccountList>(a, 'POST', '/api/lists', { name: 'Mine', rows: [{ domain: 'acme.com' }] });
  const id = mine.body.id;
  for (const [method, url, payload] of [
    ['GET', `/api/lists/${id}`],
    ['GET', `/api/lists/${id}/rows`],
    ['GET', `/api/lists/${id}/review`],
    ['GET', `/api/lists/${id}/versions/1/diff`],
    ['POST', `/api/lists/${id}/versions`, { rows: [{ domain: 'acme.com' }] }],
    ['POST', `/api/lists/${id}/review/2`, { action: 'reject' }],
    ['DELETE', `/api/lists/${id}`],
  ] as const)
    assert.equal((await call(b, method, url, payload)).status, 404, `${method} ${url}`);
  await assert.rejects(listCompanyIds(t.db, b.clientId, id), (e: Error & { status?: number }) => e.status === 404);
  const theirs = await call<{ content: AccountList[] }>(b, 'GET', '/api/lists');
  assert.ok(!theirs.body.content.some((l) => l.id === id));
  assert.equal((await call(a, 'GET', `/api/lists/${id}`)).status, 200);
});

test('bad rows: a 400 naming the line and field, and nothing stored', async () => {
  const [lists, versions, rows] = [await count('account_lists'), await count('account_list_versions'), await count('account_list_rows')];
  const bad = ['domain,name,country', 'acme.com,Acme,US', 'not a domain,X,US', 'initech.com,Initech,Atlantis', 'acme.com,Again,US'].join('\n');
  const res = await call<{ message: string }>(a, 'POST', '/api/lists?name=Bad', bad, 'text/csv');
  assert.equal(res.status, 400);
  assert.match(res.body.message, /line 3: domain: 'not a domain' is not a domain name/);
  assert.match(res.body.message, /line 4: country: 'Atlantis'/);
  assert.match(res.body.message, /line 5: \(row\): the same account as line 2/);
  const jsonl = await call<{ message: string }>(a, 'POST', '/api/lists?name=Bad', '{"domain":"acme.com"}\n{"name": 42}\n{oops', 'application/x-ndjson');
  assert.equal(jsonl.status, 400);
  assert.match(jsonl.body.message, /line 2: name: must be text/);
  assert.match(jsonl.body.message, /line 3/);
  const existing = (await call<{ content: AccountList[] }>(a, 'GET', '/api/lists')).body.content[0]!;
  const again = await call(a, 'POST', `/api/lists/${existing.id}/versions`, bad, 'text/csv');
  assert.equal(again.status, 400);
  assert.deepEqual([await count('account_lists'), await count('account_list_versions'), await count('account_list_rows')], [lists, versions, rows]);
  assert.equal((await call(a, 'POST', '/api/lists', { rows: [{ domain: 'acme.com' }] })).status, 400, 'no name');
  assert.equal((await call(a, 'POST', '/api/lists', { name: 'x', content: 'domain\nacme.com' })).status, 400, 'content without format');
});

test('the review queue: accept, reject and pick; a row not in review is a 409', async () => {
  const l = (
    await call<AccountList>(a, 'POST', '/api/lists', {
      name: 'Review',
      rows: [{ name: 'Umbrella Pharma' }, { name: 'Umbrela Pharma' }, { name: 'Umbrella Pharmas' }, { domain: 'acme.com' }],
    })
  ).body;
  const queue = await call<{ totalElements: number; content: ListRow[] }>(a, 'GET', `/api/lists/${l.id}/review`);
  assert.equal(queue.body.totalElements, 3);
  assert.ok(queue.body.content.every((r) => r.candidates.length === 2 && r.reason === 'ambiguous'));
  const accepted = await call<ListRow>(a, 'POST', `/api/lists/${l.id}/review/1`, { action: 'accept' });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.deepEqual(
    [accepted.body.status, accepted.body.method, accepted.body.companyDomain],
    ['matched', 'review', queue.body.content[0]!.candidates[0]!.companyDomain],
  );
  const rejected = await call<ListRow>(a, 'POST', `/api/lists/${l.id}/review/2`, { action: 'reject' });
  assert.deepEqual([rejected.body.status, rejected.body.reason], ['unmatched', 'rejected']);
  const picked = await call<ListRow>(a, 'POST', `/api/lists/${l.id}/review/3`, { action: 'pick', companyDomain: 'www.umbrella-pharma.it' });
  assert.deepEqual([picked.body.status, picked.body.companyDomain], ['matched', 'umbrella-pharma.it']);
  assert.equal((await call(a, 'POST', `/api/lists/${l.id}/review/4`, { action: 'accept' })).status, 409);
  assert.equal((await call(a, 'POST', `/api/lists/${l.id}/review/9`, { action: 'accept' })).status, 404);
  assert.equal((await call(a, 'POST', `/api/lists/${l.id}/review/1`, { action: 'pick' })).status, 400);
  assert.equal((await call(a, 'POST', `/api/lists/${l.id}/review/1`, { action: 'pick', companyDomain: 'nowhere.example' })).status, 404);
  const after = (await call<AccountList>(a, 'GET', `/api/lists/${l.id}`)).body;
  assert.deepEqual([after.matched, after.review, after.unmatched, after.missReasons], [3, 0, 1, { rejected: 1 }]);
});

test("a list larger than the plan's maxListRows is a 413 naming the limit, and nothing is stored", async () => {
  await setPlan(t.db, 'small-lists', { requestsPerMinute: 1000, aiRequestsPerMinute: 10, exportRequestsPerMinute: 10, maxListRows: 2 });
  const c = await createTestClient(t.db, 'small-lists');
  const before = await count('account_lists');
  const res = await call<{ message: string }>(c, 'POST', '/api/lists?name=Big', 'domain\na.com\nb.com\nc.com', 'text/csv');
  assert.equal(res.status, 413);
  assert.match(res.body.message, /maxListRows = 2/);
  assert.equal(await count('account_lists'), before);
  assert.equal((await call(c, 'POST', '/api/lists?name=Small', 'domain\na.com\nb.com', 'text/csv')).status, 200);
});
