// The all-or-nothing contract: a 10,000-row file with two malformed lines writes nothing and
// names exactly those lines; the corrected file imports; importing it again changes no row.
// Unknown references and in-file duplicates are rejected with their lines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { importFile } from '../../src/ingest/import/index.ts';
import type { Db } from '../../src/db/db.ts';
import { fingerprint, tempDir, writeFile } from './helpers.ts';

let db: Db;
const dir = tempDir();
const N = 100; // 100 companies × 100 products = 10,000 distinct installs

before(async () => {
  db = await createTestDb();
  await insertWorld(db, {
    categories: [{ id: 'cat_x' }],
    vendors: [{ id: 'ven_x', domain: 'vendor.example' }],
    products: Array.from({ length: N }, (_, p) => ({ id: `prd_${p}`, vendor_id: 'ven_x', category_id: 'cat_x' })),
    companies: Array.from({ length: N }, (_, c) => ({ id: `cmp_${c}`, domain: `c${c}.example` })),
  });
});
after(() => db?.close());

const HEADER = 'companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,source';
function installLines(broken: Map<number, string> = new Map()): string[] {
  const lines = [HEADER];
  for (let i = 0; i < N * N; i++) {
    const line = lines.length + 1;
    const c = i % N;
    const p = Math.floor(i / N);
    lines.push(
      broken.get(line) ?? `C${c}.Example,prd_${p},2024-01-${String(1 + (i % 28)).padStart(2, '0')},2026-0${1 + (i % 9)}-15,${1 + (i % 50)},${i % 101},website`,
    );
  }
  return lines;
}

const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

test('10,000 rows with two malformed lines: nothing written, exactly those two lines named', async () => {
  const broken = new Map([
    [1234, 'not a domain,prd_1,2024-01-01,2026-01-01,5,50,website'],
    [8765, 'c7.example,prd_7,2024-01-01,2026-01-01,5,150,website'],
  ]);
  const file = writeFile(dir, 'installs-broken.csv', installLines(broken));
  const s = await importFile(db, 'installs', file);
  assert.equal(s.committed, false);
  assert.equal(s.rowsRead, 10_000);
  assert.equal(s.rejected, 2);
  assert.deepEqual(s.errors, [
    { line: 1234, field: 'companyDomain', message: "'not a domain' is not a valid domain name" },
    { line: 8765, field: 'intensity', message: "'150' must be an integer from 0 to 100" },
  ]);
  assert.equal(s.errorCount, 2);
  assert.deepEqual([s.inserted, s.updated, s.unchanged], [0, 0, 0]);
  assert.equal(await count('installs'), 0);
});

test('the corrected file imports; importing it again changes no row', async () => {
  const file = writeFile(dir, 'installs.csv', installLines());
  const first = await importFile(db, 'installs', file);
  assert.deepEqual([first.committed, first.rowsRead, first.inserted, first.updated, first.unchanged, first.rejected], [true, 10_000, 10_000, 0, 0, 0]);
  assert.equal(await count('installs'), 10_000);
  const [row] = await db.query(
    `SELECT first_verified, last_verified, hit_count, intensity, sources FROM installs WHERE company_id = 'cmp_3' AND product_id = 'prd_0'`,
  );
  assert.deepEqual(row, {
    first_verified: new Date('2024-01-04T00:00:00Z'),
    last_verified: new Date('2026-04-15T00:00:00Z'),
    hit_count: 4,
    intensity: 3,
    sources: ['website'],
  });

  const stored = await fingerprint(db, 'installs');
  const again = await importFile(db, 'installs', file);
  assert.deepEqual([again.committed, again.inserted, again.updated, again.unchanged], [true, 0, 0, 10_000]);
  assert.deepEqual(await fingerprint(db, 'installs'), stored, 'no row was rewritten');

  // One changed value updates exactly one row.
  const lines = installLines();
  lines[5] = lines[5]!.replace(/,website$/, ',dns');
  const changed = await importFile(db, 'installs', writeFile(dir, 'installs-changed.csv', lines));
  assert.deepEqual([changed.inserted, changed.updated, changed.unchanged], [0, 1, 9_999]);
});

test('unknown references are rejected with their lines, and nothing is written', async () => {
  const file = writeFile(dir, 'refs.csv', [
    HEADER,
    'c1.example,prd_1,2024-01-01,2024-02-01,1,1,website',
    'nowhere.example,prd_1,2024-01-01,2024-02-01,1,1,website',
    'c2.example,prd_missing,2024-01-01,2024-02-01,1,1,website',
    'c3.example,prd_3,2024-03-01,2024-02-01,1,1,website',
  ]);
  const before = await fingerprint(db, 'installs');
  const s = await importFile(db, 'installs', file);
  assert.equal(s.committed, false);
  assert.equal(s.rejected, 3);
  assert.deepEqual(s.errors, [
    { line: 3, field: 'companyDomain', message: 'unknown company nowhere.example (import it first)' },
    { line: 4, field: 'productId', message: 'unknown product prd_missing (import it first)' },
    { line: 5, field: 'lastVerified', message: '2024-02-01T00:00:00.000Z is before firstVerified 2024-03-01T00:00:00.000Z' },
  ]);
  assert.deepEqual(await fingerprint(db, 'installs'), before);
});

test('a natural key twice in one file is rejected on the later line', async () => {
  const file = writeFile(dir, 'dups.jsonl', [
    JSON.stringify({ companyDomain: 'c1.example', productId: 'prd_1', firstVerified: '2024-01-01', lastVerified: '2024-02-01' }),
    '',
    JSON.stringify({ companyDomain: 'https://www.C1.example/', productId: 'prd_1', firstVerified: '2024-01-01', lastVerified: '2024-02-01' }),
    '{"companyDomain": "c2.example", oops}',
    JSON.stringify({ companyDomain: 'c2.example', productId: 'prd_2', firstVerified: '2024-01-01', lastVerified: '2024-02-01', colour: 'red' }),
  ]);
  const s = await importFile(db, 'installs', file);
  assert.equal(s.committed, false);
  assert.equal(s.rowsRead, 4);
  assert.deepEqual(
    s.errors.map((e) => [e.line, e.field]),
    [
      [3, 'productId'],
      [4, '(row)'],
      [5, 'colour'],
    ],
  );
  assert.equal(s.errors[0]!.message, 'duplicate of line 1 (same companyDomain + productId)');
  assert.match(s.errors[1]!.message, /^invalid JSON/);
  assert.match(s.errors[2]!.message, /^unknown field \(expected: companyDomain, productId, /);
});

test('a CSV header with an unknown or a missing required column is rejected on line 1', async () => {
  const file = writeFile(dir, 'header.csv', ['companyDomain,product,firstVerified,lastVerified', 'c1.example,prd_1,2024-01-01,2024-02-01']);
  const s = await importFile(db, 'installs', file);
  assert.equal(s.committed, false);
  assert.equal(s.rowsRead, 0);
  assert.equal(s.rejected, 1);
  assert.deepEqual(
    s.errors.map((e) => [e.line, e.field]),
    [
      [1, 'product'],
      [1, 'productId'],
    ],
  );
  assert.equal(s.errors[1]!.message, 'required column is missing from the header');
});

test('CSV structure errors name their line; quoted cells may span lines', async () => {
  const file = writeFile(dir, 'structure.csv', [
    'id,fullName,title',
    'per_1,"Ada',
    'Lovelace",CEO',
    'per_2,Grace Hopper,VP,extra',
    '',
    'per_3,Bad Id Row,',
    'per 4,Space In Id,CTO',
  ]);
  const s = await importFile(db, 'people', file);
  assert.equal(s.committed, false);
  assert.deepEqual(
    s.errors.map((e) => [e.line, e.field]),
    [
      [4, '(row)'],
      [7, 'id'],
    ],
  );
  assert.equal(s.errors[0]!.message, 'has 4 fields, the header has 3');
  assert.equal(await count('people'), 0);
});

test('every bad line is counted; the list stops at maxErrors', async () => {
  const lines = [HEADER];
  for (let i = 0; i < 50; i++) lines.push(`c${i}.example,prd_${i},yesterday,2026-01-01,1,1,website`);
  const s = await importFile(db, 'installs', writeFile(dir, 'many.csv', lines), { maxErrors: 10 });
  assert.equal(s.rejected, 50);
  assert.equal(s.errorCount, 50);
  assert.deepEqual(
    s.errors.map((e) => e.line),
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  );
});
