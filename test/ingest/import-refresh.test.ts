// Import → refresh: an import marks the companies it changed (refresh_pending), the next
// incremental refresh recomputes exactly those, and the cohort's usage shares over REST
// change with it. Runs on both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { refreshAll, refreshChanged } from '../../src/ingest/refresh.ts';
import { importFile } from '../../src/ingest/import/index.ts';
import { AS_OF, intelligenceWorld } from '../intelligence/world.ts';

let t: TestApp;
let client: TestClient;
let dir: string;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  await refreshAll(t.db);
  client = await createTestClient(t.db, 'full');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-import-refresh-'));
});
after(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pending = async () => (await t.db.query<{ company_id: string }>('SELECT DISTINCT company_id FROM refresh_pending ORDER BY 1')).map((r) => r.company_id);

/** The Defined cohort's share of one product (0 when no member uses it). */
async function share(productId: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/companies/me.example/cohort/Defined/metrics/usage', headers: client.headers });
  assert.equal(res.statusCode, 200, res.body);
  const row = (res.json() as { productId: string; percentage: number }[]).find((r) => r.productId === productId);
  return row?.percentage ?? 0;
}

function csv(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

test('installs imported for a cohort member change the cohort usage shares once the refresh runs, for that company only', async () => {
  assert.deepEqual(await pending(), [], 'a full refresh leaves nothing pending');
  assert.equal(await share('prd_analytics'), 0);
  const file = csv('installs.csv', [
    'companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,sources',
    `none.example,prd_analytics,2024-01-01,${AS_OF},40,70,website|jobs`,
  ]);
  const summary = await importFile(t.db, 'installs', file);
  assert.equal(summary.inserted, 1);
  assert.deepEqual(await pending(), ['cmp_none'], 'the import marks the company it changed');
  // Shares read the stacks the refresh materialized: unchanged until it runs.
  assert.equal(await share('prd_analytics'), 0);

  const result = await refreshChanged(t.db);
  assert.equal(result.kind, 'incremental');
  assert.equal(result.refreshed, 1, 'exactly the changed company');
  assert.equal(await share('prd_analytics'), 33, 'one of the three members now uses it');
  assert.deepEqual(await pending(), [], 'the refresh settled what it read');

  // The same file again changes no row: nothing marked, nothing to refresh.
  assert.equal((await importFile(t.db, 'installs', file)).updated, 0);
  assert.deepEqual(await pending(), []);
  assert.equal((await refreshChanged(t.db)).refreshed, 0);
});

test('companies and defined cohorts imports mark their companies; a rejected file marks nothing', async () => {
  const companies = csv('companies.csv', ['domain,name,employeeRange', 'mixed.example,Mixed Inc,200 - 499', 'new.example,New Co,10 - 49']);
  const imported = await importFile(t.db, 'companies', companies);
  assert.deepEqual([imported.inserted, imported.updated], [1, 1]);
  const marked = await pending();
  assert.equal(marked.length, 2);
  assert.ok(marked.includes('cmp_mixed'));

  const cohorts = csv('cohorts.csv', ['companyDomain,memberDomain,rank', 'me.example,same.example,1', 'me.example,mixed.example,2']);
  const replaced = await importFile(t.db, 'cohorts', cohorts);
  assert.equal(replaced.deleted, 2, 'the curated list is replaced');
  assert.ok((await pending()).includes('cmp_me'));
  assert.equal((await refreshChanged(t.db)).refreshed, 3);
  assert.deepEqual(await pending(), []);

  const bad = csv('bad.csv', ['companyDomain,productId,firstVerified,lastVerified', 'nobody.example,prd_crm_a,2024-01-01,2024-02-01']);
  assert.equal((await importFile(t.db, 'installs', bad)).committed, false);
  assert.deepEqual(await pending(), []);
});

test('a change marked while a refresh runs stays pending for the next one', async () => {
  const file = csv('late.csv', [
    'companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,sources',
    `same.example,prd_analytics,2024-01-01,${AS_OF},40,70,website`,
  ]);
  let late: Promise<unknown> | undefined;
  // The import starts once the refresh has loaded the population (and read the log).
  await refreshAll(t.db, { onProgress: (p) => void (p.phase === 'cohorts' && (late ??= importFile(t.db, 'installs', file))) });
  await late;
  assert.deepEqual(await pending(), ['cmp_same']);
  const next = await refreshChanged(t.db);
  assert.equal(next.refreshed, 1);
  assert.equal(await share('prd_analytics'), 50, 'same.example of {same, mixed}');
});
