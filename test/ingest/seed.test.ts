// Demo world: determinism (digest) and the invariants every generated world keeps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld, WorldExistsError } from '../../src/ingest/seed/index.ts';
import { worldDigest } from '../../src/store/digest.ts';
import { EMPLOYEE_BAND_LABELS, REVENUE_BAND_LABELS } from '../../src/bands.ts';
import { normalizeDomain } from '../../src/domain.ts';
import { coreCatalog } from '../../src/detect/catalog.ts';
import { deriveInstallsFromLog } from '../../src/store/observations.ts';
import { refreshAll, refreshInBulkLoad, type RefreshResult } from '../../src/ingest/refresh.ts';
import { CompanyGenerator, WorldOutline } from '../../src/ingest/seed/generate.ts';
import { encodeCompanyBatch, WORLD_TABLES } from '../../src/store/seed.ts';
import { BacktrackingPattern } from '../../src/detect/pattern.ts';
import { HISTORY_INTERVAL_DAYS, HISTORY_VISITS } from '../../src/ingest/seed/history.ts';

const AS_OF = '2026-01-01';
let db: Db;

before(async () => {
  db = await createTestDb();
  await seedWorld(db, { companies: 200, seed: 'alpha', asOf: AS_OF });
});
after(async () => db.close());

/** The one row of an aggregate query. */
const one = async <T extends object>(sql: string, params: unknown[] = []) => {
  const [row] = await db.query<T>(sql, params);
  assert.ok(row, `no row from ${sql}`);
  return row;
};
const count = async (sql: string, params: unknown[] = []) => (await one<{ n: number }>(sql, params)).n;

test('same seed, size and as-of give the same digest; batching and the generator thread do not matter; another seed differs', async () => {
  const first = await worldDigest(db);
  assert.equal(first.tables.companies?.rows, 200);
  assert.ok((first.tables.installs?.rows ?? 0) > 2000);
  // 200 companies in one batch are generated on this thread; in batches of 37, on the generator thread.
  await seedWorld(db, { companies: 200, seed: 'alpha', asOf: AS_OF, replace: true, batchSize: 37 });
  assert.equal((await worldDigest(db)).digest, first.digest);
  await seedWorld(db, { companies: 200, seed: 'beta', asOf: AS_OF, replace: true });
  const other = await worldDigest(db);
  assert.notEqual(other.digest, first.digest);
  assert.ok(other.tables.companies && first.tables.companies, 'the digest covers companies');
  assert.notEqual(other.tables.companies.md5, first.tables.companies.md5);
  await seedWorld(db, { companies: 200, seed: 'alpha', asOf: AS_OF, replace: true });
  assert.equal((await worldDigest(db)).digest, first.digest);
});

test('the history panel has a past: monthly visits and technology events (hiring too) inside its two years; a drop stands on successful visits only', async () => {
  const asOf = Date.parse(`${AS_OF}T00:00:00Z`);
  const windowStart = asOf - HISTORY_VISITS * HISTORY_INTERVAL_DAYS * 86_400_000;
  const visits = await one<{ n: number; companies: number; first: Date; last: Date; notOk: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT company_id)::int AS companies, min(visited_at) AS first, max(visited_at) AS last,
            count(*) FILTER (WHERE outcome <> 'ok')::int AS "notOk" FROM site_visits`,
  );
  // The default panel share of 200 companies, each visited every month.
  assert.ok(visits.companies >= 5 && visits.companies <= 40, `panel: ${visits.companies} companies`);
  assert.equal(visits.n, visits.companies * HISTORY_VISITS);
  assert.ok(visits.first.getTime() >= windowStart && visits.last.getTime() <= asOf, JSON.stringify(visits));
  assert.ok(visits.notOk > 0 && visits.notOk < visits.n * 0.2, `visits failed or partial: ${visits.notOk} of ${visits.n}`);
  const events = await db.query<{ type: string; n: number; first: Date; last: Date }>(
    `SELECT type, count(*)::int AS n, min(earliest) AS first, max(latest) AS last FROM events WHERE client_id IS NULL GROUP BY type ORDER BY type`,
  );
  const byType = Object.fromEntries(events.map((e) => [e.type, e]));
  for (const type of ['technology.adopted', 'technology.dropped', 'technology.hiring'])
    assert.ok((byType[type]?.n ?? 0) > 0, `${type}: ${JSON.stringify(events)}`);
  for (const e of events) assert.ok(e.first.getTime() >= visits.first.getTime() && e.last.getTime() <= visits.last.getTime(), JSON.stringify(e));
  // Every event belongs to a visited company; a drop is confirmed by two successful visits: its first absence (latest) and the one that declared it.
  // (The visits are read in a materialized CTE: on Citus events are local, visits sharded.)
  assert.equal(
    await count(
      'WITH v AS MATERIALIZED (SELECT DISTINCT company_id FROM site_visits) SELECT count(*)::int AS n FROM events e WHERE NOT EXISTS (SELECT 1 FROM v WHERE v.company_id = e.company_id)',
    ),
    0,
  );
  const unconfirmed = await count(
    `WITH site_visits AS MATERIALIZED (SELECT company_id, visited_at, outcome FROM site_visits WHERE outcome = 'ok')
     SELECT count(*)::int AS n FROM events e WHERE e.type = 'technology.dropped' AND e.client_id IS NULL
        AND (NOT EXISTS (SELECT 1 FROM site_visits v WHERE v.company_id = e.company_id AND v.visited_at = e.latest AND v.outcome = 'ok')
          OR NOT EXISTS (SELECT 1 FROM site_visits v WHERE v.company_id = e.company_id AND v.visited_at = e.detected_at AND v.outcome = 'ok'))`,
  );
  assert.equal(unconfirmed, 0);
  // The truth of the panel's changes is there for the eval.
  assert.ok((await count('SELECT count(DISTINCT company_id)::int AS n FROM truth_history')) === visits.companies);
});

test('a database that already holds a world is refused without replace', async () => {
  await assert.rejects(seedWorld(db, { companies: 10, seed: 'x', asOf: AS_OF }), WorldExistsError);
  assert.equal(await count('SELECT count(*)::int AS n FROM companies'), 200);
});

test('domains are unique, normalized DNS names; ids carry their prefixes', async () => {
  const rows = await db.query<{ id: string; domain: string }>('SELECT id, domain FROM companies');
  assert.equal(new Set(rows.map((r) => r.domain)).size, rows.length);
  for (const r of rows) {
    assert.equal(normalizeDomain(r.domain), r.domain);
    assert.match(r.id, /^cmp_[0-9a-z]{10}$/);
  }
  const vendors = await db.query<{ domain: string }>('SELECT domain FROM vendors');
  for (const v of vendors) assert.equal(normalizeDomain(v.domain), v.domain);
  assert.equal(await count(`SELECT count(*)::int AS n FROM people WHERE id NOT LIKE 'per\\_%'`), 0);
  assert.equal(await count(`SELECT count(*)::int AS n FROM feed_items WHERE id NOT LIKE 'fd\\_%'`), 0);
  assert.equal(await count(`SELECT count(*)::int AS n FROM products WHERE id NOT LIKE 'prd\\_%'`), 0);
  assert.equal(await count(`SELECT count(*)::int AS n FROM industries WHERE id NOT LIKE 'ind\\_%'`), 0);
});

test('referential integrity holds (the bulk load skips FK triggers, so check it)', async () => {
  // Companies are read in a materialized CTE where the other side is sharded apart on Citus.
  const companies = 'WITH c AS MATERIALIZED (SELECT id, domain FROM companies)';
  const orphans: Record<string, string> = {
    'products → vendors': 'SELECT count(*)::int AS n FROM products p LEFT JOIN vendors v ON v.id = p.vendor_id WHERE v.id IS NULL',
    'products → categories': 'SELECT count(*)::int AS n FROM products p LEFT JOIN categories c ON c.id = p.category_id WHERE c.id IS NULL',
    'categories → parent':
      'SELECT count(*)::int AS n FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.parent_id IS NOT NULL AND p.id IS NULL',
    'companies → industries': 'SELECT count(*)::int AS n FROM companies c LEFT JOIN industries i ON i.id = c.industry_id WHERE i.id IS NULL',
    'installs → companies/products':
      'SELECT count(*)::int AS n FROM installs i LEFT JOIN companies c ON c.id = i.company_id LEFT JOIN products p ON p.id = i.product_id WHERE c.id IS NULL OR p.id IS NULL',
    'people → companies': `${companies} SELECT count(*)::int AS n FROM people p LEFT JOIN c ON c.id = p.company_id WHERE c.id IS NULL`,
    'contacts → people': 'SELECT count(*)::int AS n FROM contacts k LEFT JOIN people p ON p.id = k.person_id WHERE p.id IS NULL',
    'feed → companies': 'SELECT count(*)::int AS n FROM feed_items f LEFT JOIN companies c ON c.id = f.company_id WHERE c.id IS NULL',
    'cohorts → companies': `${companies} SELECT count(*)::int AS n FROM cohorts k LEFT JOIN c a ON a.id = k.company_id LEFT JOIN c b ON b.id = k.member_id WHERE a.id IS NULL OR b.id IS NULL`,
    'company_domains ↔ companies': `${companies}, d AS MATERIALIZED (SELECT domain, company_id FROM company_domains)
      SELECT count(*)::int AS n FROM c FULL JOIN d ON d.company_id = c.id AND d.domain = c.domain WHERE c.id IS NULL OR d.domain IS NULL`,
    'firmographics → companies': 'SELECT count(*)::int AS n FROM firmographics f LEFT JOIN companies c ON c.id = f.company_id WHERE c.id IS NULL',
  };
  for (const [name, sql] of Object.entries(orphans)) assert.equal(await count(sql), 0, name);
  assert.equal(await count('SELECT count(*)::int AS n FROM companies c LEFT JOIN firmographics f ON f.company_id = c.id WHERE f.company_id IS NULL'), 0);
  // Indexes dropped for the bulk load are back.
  const idx = await db.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname IN ('installs_product_idx', 'people_title_trgm_idx', 'companies_name_trgm_idx', 'feed_items_company_idx')`,
  );
  assert.equal(idx.length, 4);
});

test('evidence dates are ordered and inside five years before as-of', async () => {
  assert.equal(await count('SELECT count(*)::int AS n FROM installs WHERE last_verified < first_verified'), 0);
  assert.equal(
    await count(`SELECT count(*)::int AS n FROM installs WHERE last_verified > $1::timestamptz OR first_verified < $1::timestamptz - interval '1827 days'`, [
      AS_OF,
    ]),
    0,
  );
  assert.equal(await count('SELECT count(*)::int AS n FROM installs WHERE intensity NOT BETWEEN 0 AND 100 OR hit_count < 1 OR cardinality(sources) = 0'), 0);
  const old = await one<{ share: number }>(`SELECT avg((last_verified < $1::timestamptz - interval '1 year')::int)::float AS share FROM installs`, [AS_OF]);
  // Some installs are old evidence (a tenth of them before job posts' optional skills stopped making claims alone; 0.098 since;
  // 0.066 since the job board names the tools in use in several posts a year: more installs are current).
  assert.ok(old.share >= 0.05, `installs last verified over a year ago: ${old.share}`);
});

test('band labels come from the fixed lists and agree with the numbers', async () => {
  const rows = await db.query<{ employee_band: string; employee_count: number; revenue_band: string; revenue_usd: number }>(
    'SELECT employee_band, employee_count, revenue_band, revenue_usd FROM companies',
  );
  const employee = (n: number) => EMPLOYEE_BAND_LABELS[[10, 50, 200, 500, 1000, 5000, 10000, Infinity].findIndex((max) => n < max)];
  const revenue = (n: number) => REVENUE_BAND_LABELS[[1, 2, 5, 10, 50, 100, 500, 1000, Infinity].findIndex((max) => n < max * 1e6)];
  for (const r of rows) {
    assert.ok(EMPLOYEE_BAND_LABELS.includes(r.employee_band), r.employee_band);
    assert.ok(REVENUE_BAND_LABELS.includes(r.revenue_band), r.revenue_band);
    assert.equal(r.employee_band, employee(r.employee_count));
    assert.equal(r.revenue_band, revenue(r.revenue_usd));
  }
});

test('ground truth exists for every company; installs are what the detector found, mostly true, not a copy of the truth', async () => {
  assert.equal(await count('SELECT count(*)::int AS n FROM companies c LEFT JOIN truth_segments t ON t.company_id = c.id WHERE t.company_id IS NULL'), 0);
  const kinds = await db.query<{ kind: string; in_use: boolean }>('SELECT DISTINCT kind, in_use FROM truth_installs ORDER BY 1, 2');
  assert.deepEqual(
    kinds.map((k) => `${k.kind}:${k.in_use}`),
    ['active:true', 'active_sparse:true', 'churned:false', 'weak_mention:false', 'weak_mention:true'],
  );
  const seg = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM truth_segments t JOIN companies c ON c.id = t.company_id WHERE t.industry_id <> c.industry_id`,
  );
  assert.equal(seg.n, 0);
  // Installs come from detections over the rendered artifacts: most are truly in use, some are
  // stale traces of dropped tools or technologies the truth does not list, and some tools in use left no trace.
  const e = await one<{ n: number; in_use: number; no_truth: number; stale: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE t.in_use)::int AS in_use, count(*) FILTER (WHERE t.company_id IS NULL)::int AS no_truth,
            count(*) FILTER (WHERE NOT t.in_use)::int AS stale
       FROM installs i LEFT JOIN truth_installs t USING (company_id, product_id)`,
  );
  assert.ok(e.in_use / e.n > 0.75, `share of installs truly in use: ${JSON.stringify(e)}`);
  assert.ok(e.stale > 0 && e.no_truth / e.n < 0.15, JSON.stringify(e));
  const missed = await one<{ active: number; missed: number }>(
    `SELECT count(*) FILTER (WHERE t.kind = 'active')::int AS active, count(*) FILTER (WHERE t.kind = 'active' AND i.company_id IS NULL)::int AS missed
       FROM truth_installs t LEFT JOIN installs i USING (company_id, product_id)`,
  );
  assert.ok(missed.missed > 0 && missed.missed / missed.active < 0.5, JSON.stringify(missed));
});

test('catalog: the 3-level tree of ~150+ categories; one product per technology of the core catalog, vendors grouped by company', async () => {
  const cats = await one<{ n: number; levels: number }>('SELECT count(*)::int AS n, (max(level) + 1)::int AS levels FROM categories');
  assert.ok(cats.n >= 150 && cats.levels >= 3, JSON.stringify(cats));
  const technologies = coreCatalog().technologies;
  assert.equal(await count('SELECT count(*)::int AS n FROM products'), technologies.length);
  assert.equal(await count('SELECT count(*)::int AS n FROM vendors'), new Set(technologies.map((t) => t.vendor)).size);
  const names = new Set((await db.query<{ name: string }>('SELECT name FROM products')).map((r) => r.name));
  for (const t of technologies) assert.ok(names.has(t.name), t.name);
  assert.equal(
    await count(
      "SELECT count(*)::int AS n FROM products WHERE cardinality(features) NOT BETWEEN 3 AND 8 OR description = '' OR short_name IS NULL OR public_detail_url IS NULL",
    ),
    0,
  );
  assert.equal(await count('SELECT count(*)::int AS n FROM products WHERE avg_rating NOT BETWEEN 0 AND 5 OR star_rating NOT BETWEEN 0 AND 5'), 0);
  const crowd = await one<{ crowded: number; niche: number }>(
    'SELECT count(*) FILTER (WHERE n >= 10)::int AS crowded, count(*) FILTER (WHERE n <= 4)::int AS niche FROM (SELECT category_id, count(*) n FROM products GROUP BY 1) x',
  );
  assert.ok(crowd.crowded >= 10 && crowd.niche >= 5, JSON.stringify(crowd));
  const multi = await count('SELECT count(*)::int AS n FROM (SELECT vendor_id FROM products GROUP BY 1 HAVING count(DISTINCT category_id) >= 5) x');
  assert.ok(multi >= 5, `vendors selling in 5+ categories: ${multi}`);
});

test('installs equal what the observation log derives from the same detections; the log holds the evidence', async () => {
  const installs = async () =>
    db.query<{ c: string; p: string; f: string; l: string; h: number; n: number; s: string[] }>(
      `SELECT company_id AS c, product_id AS p, first_verified::text AS f, last_verified::text AS l, hit_count AS h, intensity AS n, sources AS s
       FROM installs ORDER BY company_id, product_id`,
    );
  await seedWorld(db, { companies: 60, seed: 'paths', asOf: AS_OF, replace: true });
  const seeded = await installs();
  const observed = await one<{ n: number; pairs: number }>(
    'SELECT count(*)::int AS n, count(DISTINCT (company_id, product_id))::int AS pairs FROM observations',
  );
  assert.ok(observed.n > seeded.length && observed.pairs === seeded.length, JSON.stringify(observed));
  // Deriving from the log (window: the world's five years) finds nothing to change or expire.
  const derived = await db.transaction((tx) => deriveInstallsFromLog(tx, null, new Date(`${AS_OF}T00:00:00Z`), 1827));
  assert.deepEqual({ upserted: derived.upserted, expired: derived.expired }, { upserted: 0, expired: 0 });
  assert.deepEqual(await installs(), seeded);
  await seedWorld(db, { companies: 60, seed: 'paths', asOf: AS_OF, replace: true, recordObservations: false });
  assert.deepEqual(await installs(), seeded);
  assert.equal(await count('SELECT count(*)::int AS n FROM observations'), 0);
});

test('the first refresh run inside the bulk load computes what a refresh after it computes', async () => {
  const derived = async () => {
    const [row] = await db.query<{ cohorts: string; stacks: string; cousage: string; n: number }>(`SELECT
      (SELECT md5(string_agg(company_id || kind || member_id || rank || score, ',' ORDER BY company_id, kind, member_id)) FROM cohorts) AS cohorts,
      (SELECT md5(string_agg(company_id || array_to_string(product_ids, ' '), ',' ORDER BY company_id)) FROM company_stacks) AS stacks,
      (SELECT md5(string_agg(anchor_id || product_id || together, ',' ORDER BY anchor_id, product_id)) FROM product_cousage) AS cousage,
      (SELECT count(*)::int FROM cohorts WHERE kind <> 'defined') AS n`);
    return row!;
  };
  const worldIndexes = () =>
    db.query<{ tablename: string; indexname: string; indexdef: string }>(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1::text[]) ORDER BY indexname`,
      [[...WORLD_TABLES]],
    );
  await seedWorld(db, { companies: 120, seed: 'gamma', asOf: AS_OF, replace: true });
  await refreshAll(db, { asOf: new Date(AS_OF) });
  const indexesBefore = await worldIndexes();
  const after = await derived();
  assert.ok(after.n > 1000, `computed cohort rows: ${after.n}`);
  let inside: RefreshResult | undefined;
  // As the first start runs it: the world's indexes are built while the cohorts are computed,
  // and the cohort writes (computed ahead) queue behind them.
  let restoredWhenRefreshEnded: boolean | undefined;
  // A transaction's client is given one statement at a time (node-postgres warns otherwise).
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  await seedWorld(db, {
    companies: 120,
    seed: 'gamma',
    asOf: AS_OF,
    replace: true,
    batchSize: 40,
    afterLoad: async (tx, restoreWorldIndexes) => {
      let restored = false;
      inside = await refreshInBulkLoad(
        tx,
        async () => {
          await restoreWorldIndexes();
          restored = true;
        },
        { asOf: new Date(AS_OF), batchSize: 20 },
      );
      restoredWhenRefreshEnded = restored;
    },
  });
  process.off('warning', onWarning);
  assert.deepEqual(warnings, []);
  assert.equal(inside?.cohortRows, after.n);
  assert.deepEqual(await derived(), after);
  assert.equal(restoredWhenRefreshEnded, true, 'the refresh waits for the work beside it');
  // Every index dropped for the load is back, the same as before.
  const indexes = await worldIndexes();
  assert.deepEqual(indexes, indexesBefore);
  assert.ok(indexes.some((i) => i.indexname === 'cohorts_rank_idx') && indexes.some((i) => i.tablename === 'people'));
});

test('a refresh that fails inside the bulk load leaves no world behind', async () => {
  const before = await worldDigest(db);
  await assert.rejects(
    seedWorld(db, {
      companies: 60,
      seed: 'delta',
      asOf: AS_OF,
      replace: true,
      afterLoad: async (tx, restoreWorldIndexes) => {
        await refreshInBulkLoad(tx, restoreWorldIndexes);
        throw new Error('stopped after the refresh');
      },
    }),
    /stopped after the refresh/,
  );
  assert.equal((await worldDigest(db)).digest, before.digest);
});

test('the generator matches its own pages with JavaScript RegExp and finds exactly what the linear engine finds', () => {
  const plan = { companies: 400, seed: 'engines', scale: 'M' as const, asOfMs: Date.parse(`${AS_OF}T00:00:00Z`), recordObservations: true, historyShare: 0.1 };
  const ownText = new WorldOutline(plan);
  // Not vacuous: nearly every pattern of the generator's catalog runs on the backtracking engine.
  const patterns = [...ownText.detector.html.patterns, ...ownText.detector.resourceUrls.patterns, ...ownText.detector.inlineScripts.patterns];
  const backtracking = patterns.filter((p) => p.re instanceof BacktrackingPattern).length;
  assert.ok(backtracking > 0.9 * patterns.length, `${backtracking} of ${patterns.length} patterns on RegExp`);
  const linear = new WorldOutline(plan, coreCatalog());
  assert.ok(!linear.detector.html.patterns.some((p) => p.re instanceof BacktrackingPattern));
  // Every row, evidence excerpts, versions and hashes included.
  const rows = (outline: WorldOutline) => encodeCompanyBatch(new CompanyGenerator(outline).batch(0, plan.companies));
  const [a, b] = [rows(ownText), rows(linear)];
  assert.ok(a.installs > 1000, `installs found: ${a.installs}`);
  assert.deepEqual(a, b);
});
