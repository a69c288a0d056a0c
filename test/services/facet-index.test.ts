// The market-sizing index answers exactly as the SQL path does, and never from a stale world.
// On a small demo world (companies with several products of one category, companies without
// installs, unknown bands): every dimension alone and every ordered pair, with and without a
// filter, with samples and a small limit, the index's cells, totals, ties and samples equal
// store/facets.ts's. After a write the index is not used until it is read again, unless the
// caller allows some staleness (then the answer says which world it counted). Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { FACET_DIMENSIONS, facetsBodySchema } from '../../src/schemas/facets.ts';
import { companyFacets } from '../../src/services/companies.ts';
import { currentFacetIndex, FacetIndex } from '../../src/services/facet-index.ts';
import { facetCounts } from '../../src/store/facets.ts';
import { companyNamesById, facetWorldVersion, foldWorldChanges } from '../../src/store/facet-world.ts';
import { matchingCompanyIds, narrowsCompanies, type CompanySearchCriteria } from '../../src/store/companies.ts';
import { everyCompany } from '../helpers/criteria.ts';
import { importRecords } from '../helpers/import-records.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  await seedWorld(db, { companies: 240, seed: 'facet-index', asOf: '2026-01-01' });
});
after(() => db.close());

const everyone = everyCompany();

test('the index counts every dimension and pair as the SQL path does: cells, totals, order of ties, samples', async () => {
  const index = await FacetIndex.load(db);
  assert.ok(index);
  const [{ country }] = (await db.query<{ country: string }>('SELECT country::text FROM companies GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')) as [
    { country: string },
  ];
  const filters: CompanySearchCriteria[] = [everyone, { ...everyone, countries: [country] }, { ...everyone, terms: ['a'] }];
  const shapes: Array<[string[], number, number]> = FACET_DIMENSIONS.flatMap((d1) => [
    [[d1], 200, 3] as [string[], number, number],
    ...FACET_DIMENSIONS.filter((d2) => d2 !== d1).map((d2) => [[d1, d2], 7, 2] as [string[], number, number]),
  ]);
  let compared = 0;
  for (const criteria of filters) {
    const matched = narrowsCompanies(criteria) ? index.positionsOf(await matchingCompanyIds(db, criteria)) : null;
    assert.notEqual(matched, undefined);
    for (const [dimensions, limit, sample] of shapes) {
      const dims = dimensions as typeof FACET_DIMENSIONS extends readonly (infer D)[] ? D[] : never;
      const fromSql = await facetCounts(db, criteria, dims, limit, sample);
      const fromIndex = await index.count(matched!, dims, limit, sample, (ids) => companyNamesById(db, ids));
      // The fields the service reads (the SQL rows carry their rank and the totals too).
      const plain = (r: typeof fromSql) => ({
        ...r,
        rows: r.rows.map(({ level, v1, n1, v2, n2, companies, sample }) => ({ level, v1, n1, v2, n2, companies, sample })),
      });
      assert.deepEqual(plain(fromIndex), plain(fromSql), `${JSON.stringify(criteria.countries)} ${criteria.terms} ${dimensions.join(' × ')}`);
      compared++;
    }
  }
  assert.equal(compared, 3 * 36);
});

test('a write makes the index stale: answers come from SQL (and stay right) until it is read again', async () => {
  const input = facetsBodySchema.parse({ dimensions: ['technology'], limit: 200, sample: 0 });
  const built = await currentFacetIndex(db);
  assert.ok(built, 'the first request builds the index');
  const before = await companyFacets(db, input, 'unmetered');
  // One company adopts a product it did not use: one technology cell grows by one.
  const pick = await companyWithoutProduct('ASC');
  await importRecords(db, 'installs', [
    { companyDomain: pick.domain, productId: pick.product_id, firstVerified: new Date().toISOString(), lastVerified: new Date().toISOString() },
  ]);
  assert.equal(await currentFacetIndex(db), undefined, 'the index of the old world is not used');
  const afterWrite = await companyFacets(db, input, 'unmetered');
  const cell = (f: typeof before) => f.cells.find((c) => c.values[0]!.value === pick.product_id)?.companies ?? 0;
  assert.equal(cell(afterWrite), cell(before) + 1);
  // Read again (the rebuild waits out its minimum interval), it serves the new world.
  const rebuilt = await FacetIndex.load(db);
  assert.ok(rebuilt);
  assert.notEqual(rebuilt.version, built.version);
  const fromIndex = await rebuilt.count(null, ['technology'], 200, 0, (ids) => companyNamesById(db, ids));
  assert.equal(fromIndex.rows.find((r) => r.v1 === pick.product_id)?.companies, cell(afterWrite));
});

test('folding the change rows keeps their sum: the version stays what it was', async () => {
  const [{ rows }] = (await db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM world_changes')) as [{ rows: number }];
  assert.ok(rows > 1, `${rows} change rows after the seed and the writes above`);
  const version = await facetWorldVersion(db);
  await foldWorldChanges(db);
  assert.equal(await facetWorldVersion(db), version);
  assert.equal((await db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM world_changes'))[0]!.rows, 1);
});

test('installs imported again with new dates leave the world version as it was; a changed country moves it', async () => {
  const index = await FacetIndex.load(db);
  const [install] = await db.query<{ domain: string; product_id: string; first_verified: Date; last_verified: Date }>(
    `SELECT c.domain, i.product_id, i.first_verified, i.last_verified FROM installs i JOIN companies c ON c.id = i.company_id ORDER BY i.company_id, i.product_id LIMIT 1`,
  );
  const later = new Date(install!.last_verified.getTime() + 86_400_000).toISOString();
  const dated = await importRecords(db, 'installs', [
    { companyDomain: install!.domain, productId: install!.product_id, firstVerified: install!.first_verified.toISOString(), lastVerified: later },
  ]);
  assert.equal(dated.updated, 1);
  const again = await FacetIndex.load(db);
  assert.equal(again!.version, index!.version);
  await importRecords(db, 'companies', [{ domain: install!.domain, country: 'NZ' }]);
  assert.notEqual((await FacetIndex.load(db))!.version, index!.version);
});

/** A company and a product it does not use (the first or last company by id). */
async function companyWithoutProduct(order: 'ASC' | 'DESC'): Promise<{ domain: string; product_id: string }> {
  // The company first, then the product (on Citus, products are a reference table, which
  // takes no subquery per row into installs).
  const [company] = await db.query<{ id: string; domain: string }>(`SELECT id, domain FROM companies ORDER BY id ${order} LIMIT 1`);
  const [product] = await db.query<{ id: string }>(
    'SELECT id FROM products WHERE id NOT IN (SELECT product_id FROM installs WHERE company_id = $1) ORDER BY id LIMIT 1',
    [company!.id],
  );
  return { domain: company!.domain, product_id: product!.id };
}

/** The index once it holds the current world (a rebuild may wait out its minimum interval). */
async function freshIndex(): Promise<FacetIndex> {
  for (let waited = 0; waited < 60_000; waited += 200) {
    const index = await currentFacetIndex(db);
    if (index) return index;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the index was not read again within 60 s');
}

test('with a staleness allowance, a write leaves the old index answering (countedAt says when it was read) until the new one is read', async () => {
  const input = facetsBodySchema.parse({ dimensions: ['technology'], limit: 200, sample: 0 });
  const allowance = { maxStalenessMs: 3_600_000 };
  const old = await freshIndex();
  const before = await companyFacets(db, input, 'unmetered', allowance);
  assert.equal(before.countedAt, old.readAt.toISOString());
  const pick = await companyWithoutProduct('DESC');
  const wroteAt = new Date();
  await importRecords(db, 'installs', [
    { companyDomain: pick.domain, productId: pick.product_id, firstVerified: wroteAt.toISOString(), lastVerified: wroteAt.toISOString() },
  ]);
  const cell = (f: typeof before) => f.cells.find((c) => c.values[0]!.value === pick.product_id)?.companies ?? 0;
  // Within the allowance: the old index, and the answer says it describes the world before the write.
  const stale = await companyFacets(db, input, 'unmetered', allowance);
  assert.equal(cell(stale), cell(before));
  assert.equal(stale.countedAt, old.readAt.toISOString());
  assert.ok(new Date(stale.countedAt) < wroteAt);
  // Without it: SQL, counted now.
  const exact = await companyFacets(db, input, 'unmetered');
  assert.equal(cell(exact), cell(before) + 1);
  assert.ok(new Date(exact.countedAt) >= wroteAt);
  // An allowance shorter than the index's age is no allowance.
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(cell(await companyFacets(db, input, 'unmetered', { maxStalenessMs: Date.now() - old.readAt.getTime() - 10 })), cell(before) + 1);
  // The stale index started a rebuild: once read, it counts the write.
  const rebuilt = await freshIndex();
  assert.ok(rebuilt.readAt >= wroteAt);
  const after = await companyFacets(db, input, 'unmetered', allowance);
  assert.equal(cell(after), cell(before) + 1);
  assert.equal(after.countedAt, rebuilt.readAt.toISOString());
});
