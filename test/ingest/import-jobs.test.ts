// Imports recorded as jobs (kind 'import'), read through the Admin API's jobs list: a
// committed import with its counts and the refresh it ran, a rejected file (failed, nothing
// written), an unusable one (failed with the reason); two imports at once; and, on
// PostgreSQL, the progress of an import while it is still reading. Runs on both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { EXAMPLE_WORLD } from '../helpers/example-world.ts';
import { runImportJob } from '../../src/services/jobs.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { BadRequestError } from '../../src/errors.ts';
import { tempDir, writeFile } from './helpers.ts';

let t: TestApp;
let admin: TestClient;
const dir = tempDir();
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, EXAMPLE_WORLD);
  await refreshAll(t.db);
  admin = await createTestClient(t.db, 'full', undefined, 'admin');
});
after(() => t.close());

interface JobBody {
  id: string;
  kind: string;
  status: string;
  params: Record<string, unknown>;
  phase: string | null;
  done: number;
  total: number;
  result: Record<string, unknown> | null;
  error: string | null;
  startedBy: string | null;
  finishedAt: string | null;
}

async function job(id: string): Promise<JobBody> {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/jobs/${id}`, headers: admin.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const HEADER = 'companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,sources';

test('a committed import is a succeeded job with its counts and the refresh it ran, in the jobs list', async () => {
  const file = writeFile(dir, 'installs.csv', [HEADER, 'acme.com,prd_crm_a,2024-01-01,2026-11-01,40,70,website|jobs']);
  const outcome = await runImportJob(t.db, { kind: 'installs', source: file, file, startedBy: 'cli', refresh: true });
  assert.equal(outcome.summary.updated, 1);
  assert.ok(outcome.refresh, 'rows changed: the derived data was refreshed');
  const listed = await t.app.inject({ method: 'GET', url: '/api/admin/jobs?kind=import', headers: admin.headers });
  assert.equal(listed.statusCode, 200, listed.body);
  const [first] = listed.json().content as JobBody[];
  assert.equal(first!.id, outcome.jobId);
  assert.equal(first!.kind, 'import');
  assert.equal(first!.status, 'succeeded');
  assert.equal(first!.startedBy, 'cli');
  assert.deepEqual(first!.params, { kind: 'installs', file });
  assert.equal(first!.result!.committed, true);
  assert.equal(first!.result!.rowsRead, 1);
  assert.equal(first!.result!.updated, 1);
  assert.equal((first!.result!.refresh as { refreshed: number }).refreshed, 1);
  assert.match(first!.phase ?? '', /^refreshing: /);
  assert.ok(first!.finishedAt);
});

test('a rejected file is a failed job naming the rejected rows; an unusable one fails with the reason', async () => {
  const bad = writeFile(dir, 'bad.csv', [HEADER, 'acme.com,prd_nope,2024-01-01,2026-11-01,40,70,website']);
  const outcome = await runImportJob(t.db, { kind: 'installs', source: bad, file: bad, startedBy: 'cli' });
  assert.equal(outcome.summary.committed, false);
  const failed = await job(outcome.jobId);
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error, '1 of 1 rows rejected (1 errors): nothing written');
  assert.equal(failed.result!.committed, false);

  await assert.rejects(runImportJob(t.db, { kind: 'installs', source: `${dir}/missing.csv`, file: `${dir}/missing.csv`, startedBy: 'cli' }), BadRequestError);
  const listed = (await t.app.inject({ method: 'GET', url: '/api/admin/jobs?kind=import&size=1', headers: admin.headers })).json().content as JobBody[];
  assert.equal(listed[0]!.status, 'failed');
  assert.match(listed[0]!.error ?? '', /missing\.csv does not exist/);
});

test('two imports at once are two running jobs (only refreshes are one at a time)', async () => {
  const a = writeFile(dir, 'a.csv', [HEADER, 'acme.com,prd_crm_a,2024-01-01,2026-11-02,41,70,website']);
  const b = writeFile(dir, 'b.csv', [HEADER, 'example.com,prd_crm_a,2024-01-01,2026-11-02,10,60,website']);
  const [ra, rb] = await Promise.all([
    runImportJob(t.db, { kind: 'installs', source: a, file: a, startedBy: 'cli' }),
    runImportJob(t.db, { kind: 'installs', source: b, file: b, startedBy: 'cli' }),
  ]);
  assert.notEqual(ra.jobId, rb.jobId);
  assert.equal((await job(ra.jobId)).status, 'succeeded');
  assert.equal((await job(rb.jobId)).status, 'succeeded');
});

test('while an import reads, its job shows running with the phase and the bytes read', async (ctx) => {
  if (t.db.engine === 'pglite') {
    return ctx.skip(
      "the import holds the embedded database's one connection while it runs: its progress is written between phases (covered above); the PostgreSQL pass tests progress mid-way",
    );
  }
  const input = new PassThrough();
  const line = (i: number) => `acme.com,prd_crm_a,2024-01-01,2026-11-03,${i % 100},50,website|jobs|${'x'.repeat(60)}\n`;
  input.write(`${HEADER}\n`);
  for (let i = 0; i < 300; i++) input.write(line(i));
  const running = runImportJob(t.db, { kind: 'installs', source: input, file: '-', options: { format: 'csv', batchSize: 100 }, startedBy: 'cli' });
  let seen: JobBody | undefined;
  for (let i = 0; i < 200 && !seen; i++) {
    await new Promise((r) => setTimeout(r, 25));
    const list = (await t.app.inject({ method: 'GET', url: '/api/admin/jobs?kind=import&size=1', headers: admin.headers })).json().content as JobBody[];
    if (list[0]?.status === 'running' && list[0].phase === 'reading' && list[0].done > 0) seen = list[0];
  }
  assert.ok(seen, 'the running job with its progress was visible');
  assert.deepEqual(seen.params, { kind: 'installs', file: '-', format: 'csv' });
  assert.equal(seen.total, 0, 'a stream has no known size');
  input.end();
  const outcome = await running;
  // The same company and product on every line: the duplicates are rejected at the check.
  assert.equal(outcome.summary.committed, false);
  const ended = await job(outcome.jobId);
  assert.equal(ended.status, 'failed');
  assert.match(ended.error ?? '', /of 300 rows rejected/);
});
