// Import semantics beyond the happy path: partial files, id rules, bands, the category
// tree, defined cohorts replacing their list, nested profile checks, contact values.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { importFile, type ImportKind } from '../../src/ingest/import/index.ts';
import type { Db } from '../../src/db/db.ts';
import { tempDir, writeFile } from './helpers.ts';

let db: Db;
const dir = tempDir();
let n = 0;
const run = (kind: ImportKind, lines: string[], ext = 'csv') => importFile(db, kind, writeFile(dir, `${kind}-${++n}.${ext}`, lines));
const errorsOf = (s: { errors: { line: number; field: string; message: string }[] }) => s.errors.map((e) => `${e.line} ${e.field}: ${e.message}`);

before(async () => {
  db = await createTestDb();
  await insertWorld(db, {
    industries: [{ id: 'ind_software', name: 'Software' }],
    companies: [{ id: 'cmp_seeded', domain: 'seeded.example', name: 'Seeded', city: 'Austin', industry_id: 'ind_software' }],
  });
});
after(() => db?.close());

test('a column the file does not have keeps its stored value; an empty cell clears it', async () => {
  const s = await run('companies', ['domain,name,state', 'seeded.example,Seeded Inc,']);
  assert.deepEqual([s.committed, s.inserted, s.updated], [true, 0, 1]);
  const [row] = await db.query(`SELECT id, name, city, state, industry_id FROM companies WHERE domain = 'seeded.example'`);
  // The existing id stays (the file gave none); city and industry were not in the file.
  assert.deepEqual(row, { id: 'cmp_seeded', name: 'Seeded Inc', city: 'Austin', state: null, industry_id: 'ind_software' });
});

test('company ids: a given id must match the stored one and must not belong to another domain', async () => {
  const s = await run('companies', ['id,domain', 'cmp_other,seeded.example', 'cmp_seeded,new.example', 'cmp_fresh,fresh.example']);
  assert.equal(s.committed, false);
  assert.deepEqual(errorsOf(s), [
    '2 id: seeded.example already has id cmp_seeded (omit id or use that one)',
    '3 id: id cmp_seeded already belongs to seeded.example',
  ]);
});

test('band labels are exact and must contain the given count; industries by id or name', async () => {
  const s = await run('companies', [
    'domain,employeeRange,employeeCount,revenueRange,industry',
    'a.example,50-199,,,',
    'b.example,10 - 49,500,,',
    'c.example,,,1M - 2M,Hardware',
  ]);
  assert.equal(s.committed, false);
  assert.deepEqual(errorsOf(s), [
    `2 employeeRange: '50-199' must be exactly one of: Less than 10 | 10 - 49 | 50 - 199 | 200 - 499 | 500 - 999 | 1,000 - 4,999 | 5,000 - 9,999 | Above 10,000`,
    `3 employeeCount: 500 is outside employeeRange '10 - 49'`,
    '4 industry: unknown industry Hardware (an industry id or name; import industries first)',
  ]);
  const ok = await run('companies', ['domain,industry,revenueUsd', 'd.example,software,1500000']);
  assert.equal(ok.committed, true);
  const [d] = await db.query(`SELECT id, industry_id, revenue_band FROM companies WHERE domain = 'd.example'`);
  assert.deepEqual(d, { id: 'cmp_d_example', industry_id: 'ind_software', revenue_band: '1M - 2M' });
});

test('categories: parents in the same file, levels derived, cycles and unknown parents rejected', async () => {
  const ok = await run('categories', ['id,name,parentId', 'cat_c,C,cat_b', 'cat_b,B,cat_a', 'cat_a,A,']);
  assert.equal(ok.committed, true, JSON.stringify(ok.errors));
  const levels = async () => db.query(`SELECT id, level FROM categories ORDER BY id`);
  assert.deepEqual(await levels(), [
    { id: 'cat_a', level: 0 },
    { id: 'cat_b', level: 1 },
    { id: 'cat_c', level: 2 },
  ]);
  const bad = await run('categories', ['id,name,parentId', 'cat_a,A,cat_c', 'cat_x,X,cat_nowhere', 'cat_y,Y,cat_y']);
  assert.equal(bad.committed, false);
  assert.deepEqual(errorsOf(bad), [
    '2 parentId: parent cat_c does not lead to a top-level category (a cycle, or an unknown ancestor)',
    '3 parentId: unknown parent category cat_nowhere (import it first or in the same file)',
    '4 parentId: a category cannot be its own parent',
  ]);
  // Moving B to the top moves C up with it.
  const moved = await run('categories', ['id,name,parentId', 'cat_b,B,']);
  assert.deepEqual([moved.updated, moved.inserted], [1, 0]);
  assert.deepEqual(await levels(), [
    { id: 'cat_a', level: 0 },
    { id: 'cat_b', level: 0 },
    { id: 'cat_c', level: 1 },
  ]);
});

test("a defined cohort file replaces the listed companies' cohorts", async () => {
  await run('companies', ['domain', 'm1.example', 'm2.example', 'm3.example', 'solo.example']);
  const first = await run('cohorts', [
    'companyDomain,memberDomain,rank',
    'seeded.example,m1.example,1',
    'seeded.example,m2.example,2',
    'solo.example,m3.example,1',
  ]);
  assert.deepEqual([first.committed, first.inserted], [true, 3]);
  const second = await run('cohorts', ['companyDomain,memberDomain,rank,score', 'seeded.example,m2.example,1,0.5', 'seeded.example,m3.example,2,']);
  assert.deepEqual([second.inserted, second.updated, second.deleted, second.unchanged], [1, 1, 1, 0]);
  const rows = await db.query(
    // The companies read first (a member lives on another shard on Citus).
    `WITH d AS MATERIALIZED (SELECT id, domain FROM companies)
     SELECT c.domain, m.domain AS member, k.rank, k.score FROM cohorts k JOIN d c ON c.id = k.company_id JOIN d m ON m.id = k.member_id
      WHERE k.kind = 'defined' ORDER BY 1, 3`,
  );
  assert.deepEqual(rows, [
    { domain: 'seeded.example', member: 'm2.example', rank: 1, score: 0.5 },
    { domain: 'seeded.example', member: 'm3.example', rank: 2, score: null },
    { domain: 'solo.example', member: 'm3.example', rank: 1, score: null },
  ]);
  const bad = await run('cohorts', ['companyDomain,memberDomain,rank', 'solo.example,solo.example,1', 'm1.example,m2.example,1', 'm1.example,m3.example,1']);
  assert.deepEqual(errorsOf(bad), [
    '2 memberDomain: a company cannot be a member of its own cohort',
    '4 rank: duplicate of line 3 (same companyDomain + rank)',
  ]);
});

test('firmographic profiles: known fields are type-checked at their nested path, others pass', async () => {
  const bad = await run(
    'firmographics',
    [
      JSON.stringify({ companyDomain: 'seeded.example', profile: { name: 'Seeded', funding: [{ amount: 5 }], whatever: { x: 1 } } }),
      JSON.stringify({ companyDomain: 'seeded.example', profile: 'nope' }),
    ],
    'jsonl',
  );
  assert.deepEqual(
    bad.errors.map((e) => `${e.line} ${e.field}`),
    ['1 profile.funding.0.amount', '2 profile'],
  );
  const ok = await run('firmographics', [JSON.stringify({ companyDomain: 'seeded.example', profile: { name: 'Seeded', whatever: { x: 1 } } })], 'jsonl');
  assert.equal(ok.committed, true);
  const [row] = await db.query(`SELECT profile FROM firmographics WHERE company_id = 'cmp_seeded'`);
  assert.deepEqual(row, { profile: { name: 'Seeded', whatever: { x: 1 } } });
});

test('contacts: values checked by kind, emails stored lowercased, unknown profiles rejected', async () => {
  await run('people', ['id,fullName,companyDomain', 'per_1,Ada Lovelace,seeded.example']);
  const bad = await run('contacts', ['profileId,kind,value', 'per_1,email,not-an-email', 'per_1,fax,123', 'per_2,email,x@y.example', 'per_1,phone,call me']);
  assert.deepEqual(errorsOf(bad), [
    `2 value: 'not-an-email' is not an email address`,
    `3 kind: 'fax' must be one of: email, phone`,
    '4 profileId: unknown profile per_2 (import it first)',
    `5 value: 'call me' is not a phone number`,
  ]);
  const ok = await run('contacts', ['profileId,kind,value,verified', 'per_1,email,Ada@Seeded.Example,yes']);
  assert.equal(ok.committed, true);
  const again = await run('contacts', ['profileId,kind,value,verified', 'per_1,email,ada@seeded.example,true']);
  assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, 1]);
});

test('products name their vendor by domain or id, consistently', async () => {
  await insertWorld(db, {
    vendors: [
      { id: 'ven_a', domain: 'a-vendor.example' },
      { id: 'ven_b', domain: 'b-vendor.example' },
    ],
  });
  const s = await run('products', [
    'id,vendorDomain,vendorId,categoryId,name',
    'prd_1,,,cat_a,One',
    'prd_2,a-vendor.example,ven_b,cat_a,Two',
    'prd_3,,ven_a,cat_zz,Three',
  ]);
  assert.deepEqual(errorsOf(s), [
    '2 vendorDomain: is required (or vendorId)',
    '3 vendorId: vendor ven_b is not the vendor of a-vendor.example',
    '4 categoryId: unknown category cat_zz (import it first)',
  ]);
});

test("a company's domain is claimed with its id (company_domains), once, whoever wrote the company", async () => {
  const first = await run('companies', ['domain,name', 'claimed.example,Claimed']);
  assert.deepEqual([first.committed, first.inserted], [true, 1]);
  const again = await run('companies', ['id,domain,name', 'cmp_claimed_example,claimed.example,Claimed Inc']);
  assert.deepEqual([again.committed, again.inserted, again.updated], [true, 0, 1]);
  const claims = await db.query(`SELECT domain, company_id FROM company_domains WHERE domain IN ('claimed.example', 'seeded.example') ORDER BY domain`);
  assert.deepEqual(claims, [
    { domain: 'claimed.example', company_id: 'cmp_claimed_example' },
    { domain: 'seeded.example', company_id: 'cmp_seeded' },
  ]);
});

test('a news item the file gives to another company moves there; only a new item is a feed.item event', async () => {
  await run('companies', ['domain', 'mover-a.example', 'mover-b.example']);
  const added = await run('feed', ['id,companyDomain,date,title', 'fd_move,mover-a.example,2026-01-02,Moved item']);
  assert.deepEqual([added.committed, added.inserted], [true, 1]);
  const moved = await run('feed', ['id,companyDomain,date,title', 'fd_move,mover-b.example,2026-01-02,Moved item']);
  assert.equal(moved.committed, true);
  assert.deepEqual(await db.query(`SELECT id, company_id, title FROM feed_items WHERE id = 'fd_move'`), [
    { id: 'fd_move', company_id: 'cmp_mover-b_example', title: 'Moved item' },
  ]);
  const [events] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'feed.item' AND subject->>'feedItemId' = 'fd_move'`);
  assert.equal(events!.n, 1);
});
