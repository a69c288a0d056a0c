import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { FORMULA_CITY, insertCatalogWorld } from '../helpers/catalog-world.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { setPlan } from '../../src/auth/clients.ts';
import { getJob } from '../../src/services/jobs.ts';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
before(async () => {
  // Detection jobs fetch real domains: a short deadline keeps them quick whatever the network.
  t = await createTestApp({ env: { DETECT_TIMEOUT_MS: '1000' } });
  await setPlan(t.db, 'enricher', { canExport: true, requestsPerMinute: 10_000, aiRequestsPerMinute: 1, exportRequestsPerMinute: 10_000 });
  full = await createTestClient(t.db, 'enricher');
  basic = await createTestClient(t.db, 'basic');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const ON_BEHALF = { 'x-on-behalf-of-user': 'Ana@Example.com' };
const enrich = (payload: unknown, client: TestClient = full, headers: Record<string, string> = ON_BEHALF) =>
  t.app.inject({ method: 'POST', url: '/api/companies/enrich', headers: { ...client.headers, ...headers }, payload: payload as object });
const jsonl = (body: string) =>
  body
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
const lastAudit = async (action: string) =>
  (await t.db.query<Record<string, any>>('SELECT * FROM audit_log WHERE action = $1 ORDER BY id DESC LIMIT 1', [action]))[0]!;

test('JSON Lines: one row per distinct domain in order, firmographics and the in-use stack by category; unknown domains are rows marked not found', async () => {
  const res = await enrich({ domains: ['https://www.ACME.com/', 'nobody.example', 'acme.com', 'delta.org', 'beta.io'] });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/jsonl; charset=utf-8');
  const rows = jsonl(res.body);
  assert.deepEqual(
    rows.map((r) => [r.input, r.found, r.observed]),
    [
      ['acme.com', true, true],
      ['nobody.example', false, false],
      ['delta.org', true, false],
      ['beta.io', true, true],
    ],
  );
  const acme = rows[0];
  assert.deepEqual(Object.keys(acme), [
    'input',
    'found',
    'observed',
    'companyId',
    'domain',
    'name',
    'country',
    'industry',
    'employeeRange',
    'revenueRange',
    'technologyCount',
    'stack',
  ]);
  assert.deepEqual(
    [acme.companyId, acme.name, acme.country, acme.industry, acme.employeeRange, acme.revenueRange],
    ['cmp_acme', 'Acme Corp', 'US', 'Software', '200 - 499', '10M - 50M'],
  );
  assert.ok(!('phone' in acme), 'no contact details');
  // EC2, last seen 1000 days ago, is no longer in use; Sales Cloud (42 observations) is.
  const products = acme.stack.flatMap((c: any) => c.technologies.map((x: any) => x.productId));
  assert.ok(products.includes('prd_sf_crm'), JSON.stringify(acme.stack));
  assert.ok(!products.includes('prd_ec2'), JSON.stringify(acme.stack));
  assert.equal(acme.technologyCount, products.length);
  const crm = acme.stack.find((c: any) => c.categoryId === 'cat_crm');
  assert.equal(crm.category, 'CRM');
  const sf = crm.technologies.find((x: any) => x.productId === 'prd_sf_crm');
  assert.deepEqual([sf.product, sf.vendorDomain, sf.evidenceCount], ['Sales Cloud', 'salesforce.com', 42]);
  assert.ok(sf.confidence >= 0.5 && sf.confidence <= 1, String(sf.confidence));
  const names = acme.stack.map((c: any) => c.category);
  assert.deepEqual(names, [...names].sort(), 'categories by name');
  assert.deepEqual(rows[1], {
    input: 'nobody.example',
    found: false,
    observed: false,
    companyId: null,
    domain: null,
    name: null,
    country: null,
    industry: null,
    employeeRange: null,
    revenueRange: null,
    technologyCount: 0,
    stack: [],
  });
  assert.deepEqual([rows[2].technologyCount, rows[2].stack], [0, []], 'never observed: an empty stack');
});

test('CSV: fixed columns, technologies as name (confidence, evidence), the picked columns in order, formulas neutralized', async () => {
  const res = await enrich({ domains: ['acme.com', 'epsilon.com', 'nobody.example'], columns: ['vendors', 'city'], format: 'csv' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="enriched-companies.csv"');
  const lines = res.body.trimEnd().split('\r\n');
  assert.equal(
    lines[0],
    'input,found,observed,companyId,domain,name,country,industry,employeeRange,revenueRange,technologyCount,technologies,categories,vendors,city',
  );
  assert.equal(lines.length, 4);
  assert.match(lines[1]!, /^acme\.com,true,true,cmp_acme,acme\.com,Acme Corp,US,Software,200 - 499,10M - 50M,\d+,/);
  assert.match(lines[1]!, /Sales Cloud \([01]\.\d\d, 42\)/);
  assert.match(lines[1]!, /CRM \(1\)/);
  assert.match(lines[1]!, /salesforce\.com/);
  assert.ok(lines[1]!.endsWith(',Austin'), lines[1]);
  assert.ok(lines[2]!.includes(`'${FORMULA_CITY}`) || lines[2]!.includes(`"'${FORMULA_CITY.replace(/"/g, '""')}"`), lines[2]);
  assert.equal(lines[3], 'nobody.example,false,false,,,,,,,,0,,,,');
});

test('optional columns appear in JSON Lines only when picked; an unknown column is a 400 naming it', async () => {
  const res = await enrich({ domains: ['acme.com', 'nobody.example'], columns: ['city', 'employeeCount', 'lastVerified'] });
  assert.equal(res.statusCode, 200, res.body);
  const [acme, none] = jsonl(res.body);
  assert.equal(acme.city, 'Austin');
  assert.ok('employeeCount' in acme);
  assert.match(acme.lastVerified, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual([none.city, none.employeeCount, none.lastVerified], [null, null, null]);
  const bad = await enrich({ domains: ['acme.com'], columns: ['city', 'phone'] });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /columns\.1|columns\[1\]/);
  assert.match(bad.json().message, /city/, 'names the columns allowed');
  const noDomains = await enrich({ domains: [] });
  assert.equal(noDomains.statusCode, 400);
  const badDomain = await enrich({ domains: ['acme.com', 'not a domain'] });
  assert.equal(badDomain.statusCode, 400);
  assert.match(badDomain.json().message, /domains\.1|domains\[1\]/);
  const badFormat = await enrich({ domains: ['acme.com'], format: 'xlsx' });
  assert.equal(badFormat.statusCode, 400);
});

test('an export: attributed and audited (rows delivered, found, completed), and refused without the permission or the on-behalf user', async () => {
  const res = await enrich({ domains: ['acme.com', 'beta.io', 'nobody.example'], format: 'csv' });
  assert.equal(res.statusCode, 200);
  const entry = await lastAudit('companies.enrich.csv');
  assert.equal(entry.client_id, full.clientId);
  assert.equal(entry.on_behalf_of, 'ana@example.com');
  assert.equal(entry.result_count, 3);
  assert.equal(entry.params.completed, true);
  assert.equal(entry.params.found, 2);
  assert.match(entry.params.contentHash, /^[0-9a-f]{64}$/);
  assert.ok(!JSON.stringify(entry.params).includes('beta.io'), 'the domains themselves are not copied into the audit log');

  const noHeader = await enrich({ domains: ['acme.com'] }, full, {});
  assert.equal(noHeader.statusCode, 403);
  assert.match(noHeader.json().message, /X-On-Behalf-Of-User/);
  const basicPlan = await enrich({ domains: ['acme.com'] }, basic);
  assert.equal(basicPlan.statusCode, 403);
  assert.match(basicPlan.json().message, /export/);
  const anonymous = await t.app.inject({ method: 'POST', url: '/api/companies/enrich', payload: { domains: ['acme.com'] } });
  assert.equal(anonymous.statusCode, 401);
});

test("rows enriched count against the plan's enrichRowsPerDay: over the whole allowance 409, past what is left 429; rows not found are free", async () => {
  await setPlan(t.db, 'enrich-small', {
    canExport: true,
    requestsPerMinute: 10_000,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 10_000,
    enrichRowsPerDay: 3,
  });
  const small = await createTestClient(t.db, 'enrich-small');
  const four = await enrich({ domains: ['acme.com', 'beta.io', 'gamma.co', 'delta.org'] }, small);
  assert.equal(four.statusCode, 409, four.body);
  assert.match(four.json().message, /would enrich 4 companies, more than the 3 its plan 'enrich-small' allows per UTC day \(enrichRowsPerDay\)/);
  const two = await enrich({ domains: ['acme.com', 'beta.io', 'nobody.example', 'nobody2.example'] }, small);
  assert.equal(two.statusCode, 200, 'two found, two not found (free)');
  const more = await enrich({ domains: ['gamma.co', 'delta.org'] }, small);
  assert.equal(more.statusCode, 429, more.body);
  assert.match(more.json().message, /enriched 2 of the 3 companies .* this call would enrich 2 more \(1 left\); more from \d{4}-\d\d-\d\dT00:00:00\.000Z/);
  assert.ok(Number(more.headers['retry-after']) >= 1);
  const last = await enrich({ domains: ['gamma.co', 'unknown.example'] }, small);
  assert.equal(last.statusCode, 200, 'the one row left');
  const spent = await t.db.query<{ rows: string }>("SELECT used AS rows FROM daily_allowance WHERE client_id = $1 AND kind = 'enrich_rows'", [small.clientId]);
  assert.deepEqual(
    spent.map((r) => Number(r.rows)),
    [3],
  );
});

test('a re-run writes nothing new when nothing changed; a changed stack records a new snapshot', async () => {
  const snapshots = async () =>
    Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM enrichment_snapshots WHERE client_id = $1', [full.clientId]))[0]!.n);
  const body = { domains: ['gamma.co', 'beta.io', 'unknown.example'], columns: ['vendors'] };
  const before = await snapshots();
  const first = await enrich(body);
  assert.equal(first.statusCode, 200);
  assert.equal(await snapshots(), before + 1);
  assert.equal((await lastAudit('companies.enrich.jsonl')).params.snapshot, 'written');
  // The same domains in another order are a set of their own; the same set as CSV has the same content.
  const again = await enrich({ ...body, domains: ['beta.io', 'unknown.example', 'gamma.co'] });
  const csv = await enrich({ ...body, format: 'csv' });
  const third = await enrich(body);
  assert.equal(third.body, first.body);
  assert.equal(again.statusCode, 200);
  assert.equal(csv.statusCode, 200);
  assert.equal(await snapshots(), before + 2, 'the reordered set is a set of its own (its rows come in another order), written once');
  assert.equal((await lastAudit('companies.enrich.jsonl')).params.snapshot, 'unchanged');
  assert.equal((await lastAudit('companies.enrich.csv')).params.snapshot, 'unchanged');
  const n = await snapshots();
  await enrich(body);
  assert.equal(await snapshots(), n, 'an identical re-run writes no snapshot');
  // New evidence for gamma.co: the content changes, one new snapshot.
  await t.db.query("UPDATE installs SET hit_count = hit_count + 5 WHERE company_id = 'cmp_gamma' AND product_id = 'prd_hs_crm'");
  await enrich(body);
  assert.equal(await snapshots(), n + 1);
  assert.equal((await lastAudit('companies.enrich.jsonl')).params.snapshot, 'written');
});

test("an account list enriches its matched companies; another client's list is a 404; domains and listId together are a 400", async () => {
  const upload = await t.app.inject({
    method: 'POST',
    url: '/api/lists?name=Accounts',
    headers: { ...full.headers, 'content-type': 'text/csv' },
    payload: 'domain,name\nacme.com,\n,Beta Labs\nnobody.example,\n',
  });
  assert.equal(upload.statusCode, 200, upload.body);
  const listId = (upload.json() as { id: string }).id;
  const res = await enrich({ listId });
  assert.equal(res.statusCode, 200, res.body);
  const byList = jsonl(res.body)
    .map((r) => r.domain)
    .sort();
  assert.deepEqual(byList, ['acme.com', 'beta.io'], 'the matched companies; an unmatched row is not enriched');
  assert.deepEqual(
    jsonl(res.body).map((r) => r.input),
    ['acme.com', 'Beta Labs'],
    'in list order, each with what its row gave (its domain, else its name): what a file is joined back on',
  );
  const again = await enrich({ listId });
  assert.equal(again.body, res.body, 'the same rows again');
  const [{ n }] = (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM enrichment_snapshots WHERE set_key = $1`, [`list:${listId}`])) as [
    { n: number },
  ];
  assert.equal(n, 1, 'a re-run of an unchanged list writes no new snapshot');
  assert.equal((await enrich({ listId }, basic)).statusCode, 403);
  const other = await createTestClient(t.db, 'enricher');
  assert.equal((await enrich({ listId }, other)).statusCode, 404);
  const both = await enrich({ listId, domains: ['acme.com'] });
  assert.equal(both.statusCode, 400);
  assert.match((both.json() as { message: string }).message, /domains: give exactly one of domains and listId/);
});

test('MCP enrich_companies: rows as structured content, not-found domains listed, audited under the on-behalf user', async () => {
  const { call } = await connectMcp(t, 'full', undefined, 'ana@example.com');
  const res = await call('enrich_companies', { domains: ['acme.com', 'nobody.example'], columns: ['city'] });
  assert.equal(res.isError, false, res.text);
  const out = res.json();
  assert.equal(out.found, 1);
  assert.deepEqual(out.notFound, ['nobody.example']);
  assert.deepEqual(
    out.rows.map((r: any) => [r.input, r.found, r.city]),
    [
      ['acme.com', true, 'Austin'],
      ['nobody.example', false, null],
    ],
  );
  assert.match(res.text, /1 of 2 domains found/);
  const entry = await lastAudit('companies.enrich.mcp');
  assert.equal(entry.on_behalf_of, 'ana@example.com');
  assert.equal(entry.result_count, 2);
  const bad = await call('enrich_companies', { domains: ['acme.com'], columns: ['phone'] });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /columns/);
  const tooMany = await call('enrich_companies', { domains: Array.from({ length: 1001 }, (_, i) => `c${i}.example`) });
  assert.equal(tooMany.isError, true);
});

test('observeMissing queues one detection job of exactly the never-observed domains (found without installs, and unknown); none when nothing is missing', async () => {
  const before = Number((await t.db.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE kind = 'observe'"))[0]!.n);
  const res = await enrich({ domains: ['acme.com', 'delta.org', 'nobody.example', 'beta.io', 'delta.org'], observeMissing: true });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(jsonl(res.body).length, 4, 'the rows stream as without the option');
  const jobId = res.headers['stacklens-observe-job'] as string;
  assert.match(jobId, /^\d+$/);
  assert.equal(res.headers['stacklens-observe-domains'], '2');
  const job = await getJob(t.db, jobId);
  assert.equal(job.kind, 'observe');
  assert.equal(job.startedBy, full.clientId);
  assert.deepEqual(job.params.domains, ['delta.org', 'nobody.example']);
  const audit = await lastAudit('companies.enrich.jsonl');
  assert.equal(audit.params.observeJobId, jobId);
  // The job ends (each domain detected or counted as failed) and its progress reads through the job endpoint.
  let done = job;
  for (let i = 0; i < 100 && done.status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    done = await getJob(t.db, jobId);
  }
  assert.equal(done.status, 'succeeded', JSON.stringify(done));
  assert.equal(Number(done.result!.detected) + Number(done.result!.failed), 2, JSON.stringify(done));
  for (const [domain, why] of Object.entries(done.result!.failures as Record<string, string>))
    assert.match(why, new RegExp(`^url: ${domain.replace('.', '\\.')}`));
  // The client that queued it reads it at GET /api/jobs/{id}; another client gets a 404.
  const mine = await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: full.headers });
  assert.equal(mine.statusCode, 200, mine.body);
  assert.deepEqual(mine.json(), done);
  const theirs = await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: basic.headers });
  assert.equal(theirs.statusCode, 404);
  assert.match(theirs.json().message, /^jobId: no job '\d+' of this client/);

  // Nothing missing: no job, no header.
  const none = await enrich({ domains: ['acme.com', 'beta.io'], observeMissing: true });
  assert.equal(none.statusCode, 200, none.body);
  assert.equal(none.headers['stacklens-observe-job'], undefined);
  const after = Number((await t.db.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE kind = 'observe'"))[0]!.n);
  assert.equal(after, before + 1);

  // The MCP door answers the job too.
  const mcp = await connectMcp(t, 'full', undefined, 'ana@example.com');
  const answer = await mcp.call('enrich_companies', { domains: ['acme.com', 'delta.org'], observeMissing: true });
  assert.equal(answer.isError, false, answer.text);
  const observeJob = (answer.json() as { observeJob: string | null }).observeJob;
  assert.match(answer.text, new RegExp(`job ${observeJob} detects the 1 never observed`));
  assert.deepEqual((await getJob(t.db, observeJob!)).params.domains, ['delta.org']);
  await mcp.client.close();
});

test("domains sent to detection count against the plan's detectionsPerDay with the rows, all or nothing: refused with 409 naming the limit, no job, no rows spent", async () => {
  await setPlan(t.db, 'detect-one', {
    canExport: true,
    requestsPerMinute: 10_000,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 10_000,
    enrichRowsPerDay: 100,
    detectionsPerDay: 1,
  });
  const c = await createTestClient(t.db, 'detect-one');
  const jobs = async () => Number((await t.db.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE kind = 'observe'"))[0]!.n);
  const before = await jobs();
  const res = await enrich({ domains: ['acme.com', 'delta.org', 'nobody.example'], observeMissing: true }, c);
  assert.equal(res.statusCode, 409, res.body);
  assert.match(res.json().message, /would send 2 domains to detection, more than the 1 its plan 'detect-one' allows per UTC day \(detectionsPerDay\)/);
  assert.equal(await jobs(), before, 'no job');
  const spent = await t.db.query('SELECT kind, used FROM daily_allowance WHERE client_id = $1 AND used > 0', [c.clientId]);
  assert.deepEqual(spent, [], 'the rows enriched were not spent either');
  const without = await enrich({ domains: ['acme.com', 'delta.org', 'nobody.example'] }, c);
  assert.equal(without.statusCode, 200, 'without the option the same call passes');
});
