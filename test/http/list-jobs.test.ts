// Large account-list uploads as background jobs: a 202 with the job to poll, progress by
// batch, no version visible before the end, a run stopped mid-way resumed to the same result
// as an uninterrupted one, a bad row late in the file failing the job (line and field) with
// nothing stored, cancelling; matching by redirects known from observations; review
// decisions carried to the next version. Both engines; small thresholds keep it quick.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { queueListUpload, resumeListUploads, runListUpload } from '../../src/services/list-uploads.ts';
import type { AccountList, ListRow, ListUploadJob } from '../../src/schemas/lists.ts';

const BATCH = 500;
let t: TestApp;
let a: TestClient;
let b: TestClient;
before(async () => {
  t = await createTestApp({ env: { LIST_ASYNC_ROWS: '1000', LIST_BATCH_ROWS: String(BATCH) } });
  await insertWorld(t.db, {
    categories: [{ id: 'cat_cms' }],
    vendors: [{ id: 'v_wp', domain: 'wordpress.org' }],
    products: [{ id: 'p_wp', vendor_id: 'v_wp', category_id: 'cat_cms' }],
    companies: [
      { id: 'c_acme', domain: 'acme.com', name: 'Acme Corporation', country: 'US' },
      { id: 'c_globex', domain: 'globex.de', name: 'Globex GmbH', country: 'DE' },
      { id: 'c_umbrella_fr', domain: 'umbrella.fr', name: 'Umbrella Pharma', country: 'FR' },
      { id: 'c_umbrella_it', domain: 'umbrella-pharma.it', name: 'Umbrella Pharma', country: 'IT' },
      { id: 'c_oldco', domain: 'oldco.com', name: 'Oldco', country: 'US' },
      { id: 'c_twin1', domain: 'twin-one.com', name: 'Twin One', country: 'US' },
      { id: 'c_twin2', domain: 'twin-two.com', name: 'Twin Two', country: 'US' },
      ...Array.from({ length: 200 }, (_, i) => ({ id: `c_k${i}`, domain: `known${i}.com`, name: `Known Company ${i}`, country: 'US' })),
    ],
  });
  // Visiting oldco.com ended on newco-group.com (its evidence was found there); both twins were seen on shared-site.com.
  const obs = (company: string, url: string, hash: string) =>
    t.db.query(
      `INSERT INTO observations (company_id, product_id, seen_day, evidence_hash, source, rule_id, seen_at, evidence, weight)
       VALUES ($1::text, 'p_wp', '2026-01-01', $2::text, 'html', 'wp-generator', '2026-01-01T00:00:00Z', $3::jsonb, 0.9)`,
      [company, hash, JSON.stringify({ url, ruleId: 'wp-generator', excerpt: 'wp', weight: 0.9 })],
    );
  await obs('c_oldco', 'https://www.newco-group.com/en/', 'h1');
  await obs('c_acme', 'https://acme.com/', 'h2');
  await obs('c_twin1', 'https://shared-site.com/a', 'h3');
  await obs('c_twin2', 'https://shared-site.com/b', 'h4');
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
  return { status: res.statusCode, body: res.json() as T, headers: res.headers };
};
const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);
const allRows = async (client: TestClient, id: string) => {
  const out: ListRow[] = [];
  for (let page = 0; ; page++) {
    const r = (await call<{ content: ListRow[] }>(client, 'GET', `/api/lists/${id}/rows?size=200&page=${page}`)).body.content;
    out.push(...r);
    if (r.length < 200) return out;
  }
};
const until = async (client: TestClient, jobId: string): Promise<ListUploadJob> => {
  for (let i = 0; i < 600; i++) {
    const j = (await call<ListUploadJob>(client, 'GET', `/api/list-uploads/${jobId}`)).body;
    if (j.status !== 'running') return j;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} still running`);
};

/** n rows: known companies, unknown domains and names, one redirect. */
const bigCsv = (n: number, badAt?: number) => {
  const lines = ['domain,name,country,owner'];
  for (let i = 0; i < n; i++) {
    const line = i + 2;
    if (line === badAt) lines.push(`not a domain,X,US,o${i}`);
    else if (i % 10 === 0 && i / 10 < 200) lines.push(`www.known${i / 10}.com,,US,o${i}`);
    else lines.push(`x${i}.example,,,o${i}`);
  }
  lines.push('newco-group.com,,,redirected');
  return lines.join('\n');
};

test('an upload above the threshold is a job: 202, Location, progress by batch, the list only at the end', async () => {
  const csv = bigCsv(3000);
  const res = await call<ListUploadJob>(a, 'POST', '/api/lists?name=Big', csv, 'text/csv');
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.equal(res.headers.location, `/api/list-uploads/${res.body.id}`);
  assert.equal(res.body.status, 'running');
  assert.equal(res.body.total, 3001);
  const job = await until(a, res.body.id);
  assert.equal(job.status, 'succeeded', job.error ?? '');
  assert.deepEqual([job.done, job.version, job.list?.rows, job.list?.matched], [3001, 1, 3001, 201]);
  const rows = await allRows(a, job.listId);
  assert.equal(rows.length, 3001);
  const last = rows.find((r) => r.domain === 'newco-group.com')!;
  assert.deepEqual([last.status, last.companyDomain, last.method], ['matched', 'oldco.com', 'domain_redirect']);
  assert.equal(await count('account_list_staging_rows'), 0);
  assert.equal(await count('account_list_uploads'), 0);
  assert.equal((await call(b, 'GET', `/api/list-uploads/${res.body.id}`)).status, 404, "another client's job");
  const small = await call<AccountList>(a, 'POST', '/api/lists?name=Small&async=true', 'domain\nacme.com', 'text/csv');
  assert.equal(small.status, 202, 'async=true makes even a small upload a job');
  assert.equal((await until(a, (small.body as unknown as ListUploadJob).id)).list?.matched, 1);
  const inline = await call<{ message: string }>(a, 'POST', '/api/lists?async=true', { name: 'x', rows: [{ domain: 'acme.com' }] });
  assert.equal(inline.status, 400);
  assert.match(inline.body.message, /^async:/);
});

test('a run stopped mid-way resumes after its last batch to the same rows as an uninterrupted run; nothing shows before', async () => {
  const csv = bigCsv(2600);
  const whole = await call<ListUploadJob>(a, 'POST', '/api/lists?name=Whole', csv, 'text/csv');
  const wholeJob = await until(a, whole.body.id);
  assert.equal(wholeJob.status, 'succeeded');

  const versionsBefore = await count('account_list_versions');
  const queued = await queueListUpload(t.db, a.clientId, undefined, 'Stopped', { format: 'csv', content: csv });
  const stop = new AbortController();
  const seen: number[] = [];
  await runListUpload(t.db, Number(queued.id), {
    asyncRows: 1000,
    batchRows: BATCH,
    signal: stop.signal,
    onBatch: (p) => {
      seen.push(p.done);
      if (seen.length === 2) stop.abort();
    },
  });
  assert.deepEqual(seen, [BATCH, 2 * BATCH], 'progress moves batch by batch, and the run stops after the second');
  const mid = (await call<ListUploadJob>(a, 'GET', `/api/list-uploads/${queued.id}`)).body;
  assert.equal(mid.status, 'running');
  assert.equal(mid.done, 2 * BATCH);
  assert.equal(await count('account_list_staging_rows'), 2 * BATCH);
  assert.equal((await call(a, 'GET', `/api/lists/${mid.listId}`)).status, 404, 'no half version is visible');
  assert.equal(await count('account_list_versions'), versionsBefore);

  const resumed = await resumeListUploads(t.db, { asyncRows: 1000, batchRows: BATCH });
  assert.deepEqual(resumed, [Number(queued.id)]);
  const done = await until(a, String(queued.id));
  assert.equal(done.status, 'succeeded', done.error ?? '');
  const strip = (r: ListRow) => [r.line, r.key, r.status, r.companyDomain, r.method, r.reason];
  assert.deepEqual((await allRows(a, done.listId)).map(strip), (await allRows(a, wholeJob.listId)).map(strip));
});

test('a bad row late in the file fails the job naming its line and field; nothing is stored; a cancelled job leaves nothing', async () => {
  const [lists, versions, rows] = [await count('account_lists'), await count('account_list_versions'), await count('account_list_rows')];
  const res = await call<ListUploadJob>(a, 'POST', '/api/lists?name=Bad', bigCsv(3000, 2800), 'text/csv');
  assert.equal(res.status, 202);
  const job = await until(a, res.body.id);
  assert.equal(job.status, 'failed');
  assert.match(job.error!, /line 2800: domain: 'not a domain' is not a domain name/);
  assert.deepEqual([await count('account_lists'), await count('account_list_versions'), await count('account_list_rows')], [lists, versions, rows]);
  assert.equal(await count('account_list_staging_rows'), 0);
  assert.equal(await count('account_list_uploads'), 0);

  const queued = await queueListUpload(t.db, a.clientId, undefined, 'Cancelled', { format: 'csv', content: bigCsv(1500) });
  const cancelled = await call<ListUploadJob>(a, 'DELETE', `/api/list-uploads/${queued.id}`);
  assert.equal(cancelled.status, 200);
  assert.deepEqual([cancelled.body.status, cancelled.body.error], ['failed', 'cancelled: nothing was stored']);
  await runListUpload(t.db, Number(queued.id), { asyncRows: 1000, batchRows: BATCH });
  assert.equal((await call(a, 'DELETE', `/api/list-uploads/${queued.id}`)).status, 409);
  assert.deepEqual([await count('account_lists'), await count('account_list_versions'), await count('account_list_rows')], [lists, versions, rows]);
  assert.equal(await count('account_list_uploads'), 0);
});

test('redirects known from observations: one company → matched (domain_redirect); several → review', async () => {
  const res = await call<AccountList>(a, 'POST', '/api/lists', {
    name: 'Redirects',
    rows: [{ domain: 'https://www.newco-group.com/x' }, { domain: 'shared-site.com' }, { domain: 'never-seen.com' }],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await allRows(a, res.body.id);
  assert.deepEqual([rows[0]!.status, rows[0]!.companyDomain, rows[0]!.method], ['matched', 'oldco.com', 'domain_redirect']);
  assert.equal(rows[1]!.status, 'review');
  assert.deepEqual(rows[1]!.candidates.map((c) => c.companyDomain).sort(), ['twin-one.com', 'twin-two.com']);
  assert.deepEqual([rows[2]!.status, rows[2]!.reason], ['unmatched', 'domain_unknown']);
});

test('review decisions carry to the next version when the same row key comes back', async () => {
  const l = (await call<AccountList>(a, 'POST', '/api/lists', { name: 'Carry', rows: [{ name: 'Umbrella Pharma' }, { domain: 'shared-site.com' }] })).body;
  assert.equal(l.review, 2);
  assert.equal((await call(a, 'POST', `/api/lists/${l.id}/review/1`, { action: 'pick', companyDomain: 'umbrella.fr' })).status, 200);
  assert.equal((await call(a, 'POST', `/api/lists/${l.id}/review/2`, { action: 'reject' })).status, 200);
  // Version 2: the same two accounts (in another order, one with a new column) and a new one.
  const v2 = await call<AccountList>(a, 'POST', `/api/lists/${l.id}/versions`, {
    rows: [{ domain: 'shared-site.com', note: 'again' }, { name: 'Umbrella Pharma' }, { domain: 'acme.com' }],
  });
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  assert.deepEqual([v2.body.version, v2.body.review, v2.body.matched, v2.body.missReasons], [2, 0, 2, { rejected: 1 }]);
  const rows = await allRows(a, l.id);
  assert.deepEqual(
    rows.map((r) => [r.line, r.status, r.companyDomain, r.method, r.reason]),
    [
      [1, 'unmatched', null, null, 'rejected'],
      [2, 'matched', 'umbrella.fr', 'review', null],
      [3, 'matched', 'acme.com', 'domain', null],
    ],
  );
  // Version 3 through a job: the decisions still hold.
  const v3 = await call<ListUploadJob>(a, 'POST', `/api/lists/${l.id}/versions?async=true`, 'name\nUmbrella Pharma\n', 'text/csv');
  assert.equal(v3.status, 202);
  const job = await until(a, v3.body.id);
  assert.deepEqual([job.version, job.list?.matched, job.list?.review], [3, 1, 0]);
});
