import { test, before, after } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import type { Db } from '../../src/db/db.ts';
import { refreshAll, refreshChanged, refreshCompanies } from '../../src/ingest/refresh.ts';
import { importFile } from '../../src/ingest/import/index.ts';
import { currentAsOf, currentStacks, inUseStacks } from '../../src/services/stacks.ts';
import { AS_OF, intelligenceWorld } from './world.ts';
import { deleteCompanies } from '../../src/store/companies.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  await insertWorld(db, intelligenceWorld());
});
after(() => db.close());

const counts = (companyId: string) =>
  db.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM cohorts WHERE company_id = $1 GROUP BY kind ORDER BY kind', [companyId]);

test('full refresh: cohort sizes, the 50 cap, ranks, no self, defined untouched, run recorded', async () => {
  const progress: string[] = [];
  const result = await refreshAll(db, {
    onProgress: (p) => progress.push(`${p.phase}:${p.done}/${p.total}`),
    batchSize: 20,
    cohortParams: { defaultRelativeCut: 0, competitorsRelativeCut: 0 },
  });
  assert.equal(result.kind, 'full');
  assert.equal(result.companies, 87);
  assert.equal(result.refreshed, 87);
  assert.equal(result.asOf, new Date(AS_OF).toISOString(), 'as-of is the newest verification');
  assert.ok(progress.includes('cohorts:87/87') && progress.includes('cousage:1/1'));

  // Aspirational: all 23 software companies of the next band up (none two bands up).
  assert.deepEqual(await counts('cmp_me'), [
    { kind: 'aspirational', n: 23 },
    { kind: 'competitors', n: 50 },
    { kind: 'default', n: 25 },
    { kind: 'defined', n: 3 },
  ]);
  const [maxes] = await db.query<{ comp: number; def: number; self: number }>(
    `SELECT max(n) FILTER (WHERE kind = 'competitors') AS comp, max(n) FILTER (WHERE kind = 'default') AS def,
            (SELECT count(*)::int FROM cohorts WHERE company_id = member_id) AS self
       FROM (SELECT company_id, kind, count(*)::int AS n FROM cohorts GROUP BY 1, 2) t`,
  );
  assert.deepEqual(maxes, { comp: 50, def: 25, self: 0 });
  const ranks = await db.query<{ rank: number }>(`SELECT rank FROM cohorts WHERE company_id = 'cmp_me' AND kind = 'default' ORDER BY rank`);
  assert.deepEqual(
    ranks.map((r) => r.rank),
    Array.from({ length: 25 }, (_, i) => i + 1),
  );

  // A finance company's Default peers are the other finance companies first.
  const fin = await db.query<{ member_id: string }>(`SELECT member_id FROM cohorts WHERE company_id = 'cmp_fin00' AND kind = 'default' ORDER BY rank LIMIT 11`);
  assert.ok(
    fin.every((r) => r.member_id.startsWith('cmp_fin')),
    JSON.stringify(fin),
  );
  // Aspirational peers of a 50-199 software company are one or two bands larger.
  const asp = await db.query<{ band: string }>(
    `SELECT DISTINCT m.employee_band AS band FROM cohorts h JOIN companies m ON m.id = h.member_id WHERE h.company_id = 'cmp_me' AND h.kind = 'aspirational'`,
  );
  assert.deepEqual(
    asp.map((r) => r.band),
    ['200 - 499'],
  );

  const [run] = await db.query<{ kind: string; computed_at: Date | null; params: Record<string, any> }>(
    'SELECT kind, computed_at, params FROM refresh_runs ORDER BY id DESC LIMIT 1',
  );
  assert.equal(run!.kind, 'full');
  assert.ok(run!.computed_at instanceof Date);
  assert.equal(run!.params.cohorts.competitorsSize, 50);
  assert.equal(run!.params.population, 86, 'companies with an in-use product (cmp_none has none)');

  const [pair] = await db.query<{ together: number }>(`SELECT together FROM product_cousage WHERE anchor_id = 'prd_crm_a' AND product_id = 'prd_email_a'`);
  const [truth] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM installs a JOIN installs b ON a.company_id = b.company_id
      WHERE a.product_id = 'prd_crm_a' AND b.product_id = 'prd_email_a'`,
  );
  assert.equal(pair!.together, truth!.n);
  const stale = await db.query(`SELECT 1 FROM product_usage_stats WHERE product_id = 'prd_unused'`);
  assert.equal(stale.length, 0);
});

test('with the default relative cuts, sizes stay within their bounds and peers stay alike', async () => {
  await refreshAll(db);
  const sizes = await db.query<{ kind: string; lo: number; hi: number }>(
    `SELECT kind, min(n)::int AS lo, max(n)::int AS hi FROM (SELECT company_id, kind, count(*) AS n FROM cohorts WHERE kind <> 'defined' GROUP BY 1, 2) t GROUP BY 1 ORDER BY 1`,
  );
  const byKind = Object.fromEntries(sizes.map((r) => [r.kind, r]));
  assert.ok(byKind.default!.lo >= 10 && byKind.default!.hi <= 25, JSON.stringify(byKind.default));
  assert.ok(byKind.competitors!.lo >= 11 && byKind.competitors!.hi <= 50, JSON.stringify(byKind.competitors));
  // A finance company has 11 finance peers: its Default cohort is exactly them when cut.
  const fin = await db.query<{ member_id: string }>(`SELECT member_id FROM cohorts WHERE company_id = 'cmp_fin03' AND kind = 'default' ORDER BY rank`);
  assert.ok(
    fin.slice(0, 11).every((r) => r.member_id.startsWith('cmp_fin')),
    JSON.stringify(fin),
  );
});

test('incremental refresh recomputes only the given companies; refreshChanged finds nothing changed', async () => {
  await db.query(`UPDATE cohorts SET score = -1 WHERE kind = 'default'`);
  const result = await refreshCompanies(db, ['cmp_me', 'cmp_unknown']);
  assert.equal(result.kind, 'incremental');
  assert.equal(result.refreshed, 1);
  const [me] = await db.query<{ s: number }>(`SELECT min(score) AS s FROM cohorts WHERE company_id = 'cmp_me' AND kind = 'default'`);
  assert.ok(me!.s > 0);
  const [other] = await db.query<{ s: number }>(`SELECT max(score) AS s FROM cohorts WHERE company_id = 'cmp_soft01' AND kind = 'default'`);
  assert.equal(other!.s, -1);
  const changed = await refreshChanged(db);
  assert.equal(changed.kind, 'incremental');
  assert.equal(changed.refreshed, 0);
});

test('an installs import marks the companies whose evidence changed, even evidence dated in the past', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-refresh-'));
  const file = path.join(dir, 'installs.csv');
  // soft3: a back-filled install last seen in 2021; soft5: a corrected hit count on evidence
  // dated at the as-of. Neither verification is newer than the last refresh.
  fs.writeFileSync(
    file,
    [
      'companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,sources',
      'soft3.example,prd_email_a,2020-01-01,2021-06-01,3,20,website',
      `soft5.example,prd_crm_a,2024-01-01,${AS_OF},41,70,website|jobs`,
    ].join('\n') + '\n',
  );
  const first = await importFile(db, 'installs', file);
  assert.deepEqual([first.inserted, first.updated], [1, 1]);
  const changed = await refreshChanged(db);
  assert.equal(changed.refreshed, 2, 'both companies, and only them');
  // The same file again changes no row, so the next incremental refresh has nothing to do.
  const again = await importFile(db, 'installs', file);
  assert.deepEqual([again.inserted, again.updated], [0, 0]);
  assert.equal((await refreshChanged(db)).refreshed, 0);
});

test('deleting companies removes their cohorts and their memberships in others', async () => {
  const before = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cohorts WHERE member_id = 'cmp_same' OR company_id = 'cmp_same'`);
  assert.ok(before[0]!.n > 0);
  assert.equal(await db.transaction((tx) => deleteCompanies(tx, ['cmp_same', 'cmp_fin00'])), 2);
  const after = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cohorts WHERE member_id IN ('cmp_same', 'cmp_fin00') OR company_id IN ('cmp_same', 'cmp_fin00')`,
  );
  assert.equal(after[0]!.n, 0);
  const defined = await db.query<{ member_id: string }>(`SELECT member_id FROM cohorts WHERE company_id = 'cmp_me' AND kind = 'defined' ORDER BY rank`);
  assert.deepEqual(
    defined.map((r) => r.member_id),
    ['cmp_diff', 'cmp_none'],
  );
});

test("the refresh materializes each company's in-use stack; a company it has not reached is scored live", async () => {
  await refreshAll(db);
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM company_stacks')) as [{ n: number }];
  const [{ companies }] = (await db.query<{ companies: number }>('SELECT count(*)::int AS companies FROM companies')) as [{ companies: number }];
  assert.equal(n, companies, 'one row per company, empty stacks included');
  const stored = await db.query<{ company_id: string; product_ids: string[] }>(
    `SELECT company_id, product_ids FROM company_stacks WHERE company_id = ANY($1::text[]) ORDER BY company_id`,
    [['cmp_me', 'cmp_mixed', 'cmp_none']],
  );
  // The stale install of cmp_mixed is not in use; cmp_none has no installs at all.
  assert.deepEqual(stored, [
    { company_id: 'cmp_me', product_ids: ['prd_crm_a', 'prd_email_a'] },
    { company_id: 'cmp_mixed', product_ids: ['prd_crm_a'] },
    { company_id: 'cmp_none', product_ids: [] },
  ]);

  // Stored and live answers agree for every company.
  const { asOf } = await currentAsOf(db);
  const ids = (await db.query<{ id: string }>('SELECT id FROM companies ORDER BY id')).map((r) => r.id);
  const productsOf = (m: Map<string, { productId: string }[]>) =>
    ids.map((id) =>
      (m.get(id) ?? [])
        .map((r) => r.productId)
        .sort()
        .join(','),
    );
  assert.deepEqual(productsOf(await currentStacks(db, ids, asOf)), productsOf(await inUseStacks(db, ids, asOf)));

  // A company added after the refresh has no row: its evidence is scored on the spot.
  await insertWorld(db, {
    companies: [{ id: 'cmp_late', domain: 'late.example', industry_id: 'ind_soft', employee_band: '50 - 199', country: 'US' }],
    installs: [
      {
        company_id: 'cmp_late',
        product_id: 'prd_crm_b',
        first_verified: '2024-01-01T00:00:00Z',
        last_verified: AS_OF,
        hit_count: 40,
        intensity: 70,
        sources: ['website'],
      },
    ],
  });
  const late = await currentStacks(db, ['cmp_late', 'cmp_me'], asOf);
  assert.deepEqual(
    late.get('cmp_late')!.map((r) => [r.productId, r.productName, r.categoryName, r.vendorDomain]),
    [['prd_crm_b', 'B CRM', 'CRM', 'b-soft.com']],
  );
  assert.deepEqual(
    late
      .get('cmp_me')!
      .map((r) => r.productId)
      .sort(),
    ['prd_crm_a', 'prd_email_a'],
  );
  // The next refresh computes it (it never had cohorts) and stores its stack.
  await refreshChanged(db);
  assert.deepEqual((await db.query('SELECT product_ids FROM company_stacks WHERE company_id = $1', ['cmp_late']))[0], { product_ids: ['prd_crm_b'] });
  // Deleting a company deletes its stack.
  await db.transaction((tx) => deleteCompanies(tx, ['cmp_late']));
  assert.equal((await db.query('SELECT 1 FROM company_stacks WHERE company_id = $1', ['cmp_late'])).length, 0);
});
