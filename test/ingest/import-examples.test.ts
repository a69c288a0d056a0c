// Every example file imports in order, as CSV and as JSONL, and a second import of the
// same files changes no row.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createTestDb } from '../helpers/db.ts';
import { importFile, type ImportKind } from '../../src/ingest/import/index.ts';
import type { Db } from '../../src/db/db.ts';
import { EXAMPLES, EXAMPLE_ORDER, csvToJsonl, fingerprint, tempDir, writeFile } from './helpers.ts';

const TABLES = ['industries', 'categories', 'vendors', 'products', 'companies', 'firmographics', 'installs', 'people', 'contacts', 'feed_items', 'cohorts'];
const kindOf = (file: string) => file.split('.')[0] as ImportKind;

let csvDb: Db;
let jsonlDb: Db;
before(async () => {
  csvDb = await createTestDb();
  jsonlDb = await createTestDb();
});
after(async () => {
  await csvDb?.close();
  await jsonlDb?.close();
});

test('the examples import in order and land with their values', async () => {
  for (const file of EXAMPLE_ORDER) {
    const s = await importFile(csvDb, kindOf(file), path.join(EXAMPLES, file));
    assert.equal(s.committed, true, `${file}: ${JSON.stringify(s.errors)}`);
    assert.equal(s.rejected, 0);
    assert.equal(s.inserted, s.rowsRead, file);
    assert.ok(s.rowsRead > 0, file);
  }
  const [acme] = await csvDb.query('SELECT * FROM companies WHERE domain = $1', ['acme.example']);
  assert.equal(acme!.id, 'cmp_acme');
  assert.equal(acme!.industry_id, 'ind_software');
  assert.equal(acme!.employee_band, '50 - 199');
  assert.equal(acme!.revenue_usd, 20_000_000);
  // A company without id gets one derived from its domain; a count alone implies its band.
  const [initech] = await csvDb.query('SELECT id, employee_band, industry_id FROM companies WHERE domain = $1', ['initech.example']);
  assert.deepEqual(initech, { id: 'cmp_initech_example', employee_band: '200 - 499', industry_id: 'ind_software' });
  // Vendor domains are normalized (https://www.salesforce.com/ → salesforce.com).
  const vendors = await csvDb.query<{ id: string; domain: string }>('SELECT id, domain FROM vendors ORDER BY domain');
  assert.deepEqual(
    vendors.map((v) => v.domain),
    ['atlassian.com', 'hubspot.com', 'mailchimp.com', 'salesforce.com', 'slack.com'],
  );
  assert.equal(vendors.find((v) => v.domain === 'mailchimp.com')!.id, 'ven_mailchimp_com');
  const [crm] = await csvDb.query('SELECT vendor_id, category_id, features, review_count, star_rating FROM products WHERE id = $1', ['prd_hubspot_crm']);
  assert.deepEqual(crm, {
    vendor_id: 'ven_hubspot',
    category_id: 'cat_crm',
    features: ['Pipelines', 'Contact records', 'Email tracking'],
    review_count: 1520,
    star_rating: 4.4,
  });
  const levels = await csvDb.query('SELECT id, level FROM categories WHERE id IN ($1, $2) ORDER BY id', ['cat_crm', 'cat_sales']);
  assert.deepEqual(levels, [
    { id: 'cat_crm', level: 1 },
    { id: 'cat_sales', level: 0 },
  ]);
  const [install] = await csvDb.query(
    `SELECT first_verified, last_verified, hit_count, intensity, sources FROM installs WHERE company_id = 'cmp_globex_example' AND product_id = 'prd_salesforce_sales_cloud'`,
  );
  assert.deepEqual(install, {
    first_verified: new Date('2019-03-01T00:00:00Z'),
    last_verified: new Date('2026-09-01T12:00:00Z'),
    hit_count: 310,
    intensity: 90,
    sources: ['website', 'dns', 'job posts'],
  });
  const [profile] = await csvDb.query<{ profile: Record<string, unknown> }>(`SELECT profile FROM firmographics WHERE company_id = 'cmp_acme'`);
  assert.deepEqual(profile!.profile.stock ?? null, null);
  assert.deepEqual(profile!.profile.ceo, { first_name: 'Ada', last_name: 'Lovelace' });
  const [email] = await csvDb.query(`SELECT value, verified FROM contacts WHERE person_id = 'per_ada' AND kind = 'email'`);
  assert.deepEqual(email, { value: 'ada@acme.example', verified: true });
  const feed = await csvDb.query<{ id: string; category: string }>(
    `SELECT f.id, f.category FROM feed_items f JOIN companies c ON c.id = f.company_id WHERE c.domain = 'globex.example'`,
  );
  assert.equal(feed.length, 1);
  assert.equal(feed[0]!.category, 'ACQUISITION');
  assert.match(feed[0]!.id, /^fdi_[0-9a-f]{24}$/);
  const cohort = await csvDb.query(`SELECT member_id, rank, score FROM cohorts WHERE company_id = 'cmp_acme' AND kind = 'defined' ORDER BY rank`);
  assert.deepEqual(
    cohort.map((r) => r.member_id),
    ['cmp_initech_example', 'cmp_hooli_example', 'cmp_globex_example'],
  );
});

test('importing the same files again changes no row', async () => {
  const before = await Promise.all(TABLES.map((t) => fingerprint(csvDb, t)));
  for (const file of EXAMPLE_ORDER) {
    const s = await importFile(csvDb, kindOf(file), path.join(EXAMPLES, file));
    assert.deepEqual([s.committed, s.inserted, s.updated, s.deleted, s.unchanged], [true, 0, 0, 0, s.rowsRead], file);
  }
  assert.deepEqual(await Promise.all(TABLES.map((t) => fingerprint(csvDb, t))), before);
});

test('the same records as JSONL build the same database, and match the CSV import', async () => {
  const dir = tempDir();
  for (const file of EXAMPLE_ORDER) {
    const jsonl = file.endsWith('.csv') ? writeFile(dir, file.replace(/\.csv$/, '.jsonl'), csvToJsonl(path.join(EXAMPLES, file))) : path.join(EXAMPLES, file);
    const s = await importFile(jsonlDb, kindOf(file), jsonl);
    assert.equal(s.committed, true, `${file}: ${JSON.stringify(s.errors)}`);
    assert.equal(s.format, 'jsonl');
    assert.equal(s.inserted, s.rowsRead, file);
  }
  const rows = (db: Db, t: string) => db.query(`SELECT (to_jsonb(t) - 'updated_at')::text AS r FROM ${t} t ORDER BY 1`);
  for (const t of TABLES.filter((t) => t !== 'contacts')) assert.deepEqual(await rows(jsonlDb, t), await rows(csvDb, t), t);
  // The JSONL file re-imported into the CSV-built database is unchanged, row for row.
  for (const file of EXAMPLE_ORDER.filter((f) => f.endsWith('.csv'))) {
    const s = await importFile(csvDb, kindOf(file), path.join(dir, file.replace(/\.csv$/, '.jsonl')));
    assert.deepEqual([s.inserted, s.updated, s.unchanged], [0, 0, s.rowsRead], file);
  }
});
