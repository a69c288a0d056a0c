// Demo world plausibility: firmographics, feed, people and stacks agree with each other
// and with the hidden segments, the way a reviewer browsing companies would expect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { parseOutline } from '../../src/ingest/seed/catalog.ts';
import { COUNTRIES } from '../../src/ingest/seed/geo.ts';
import { FUNCTIONS, SENIORITIES } from '../../src/ingest/seed/people.ts';
import { FEED_CATEGORIES } from '../../src/ingest/seed/news.ts';

const AS_OF = '2026-01-01';
const N = 400;
let db: Db;

before(async () => {
  db = await createTestDb();
  await seedWorld(db, { companies: N, seed: 'plausible', asOf: AS_OF });
});
after(async () => db.close());

const q = <T extends object>(sql: string, params: unknown[] = []) => db.query<T>(sql, params);
/** The one row of an aggregate query. */
const one = async <T extends object>(sql: string, params: unknown[] = []) => {
  const [row] = await q<T>(sql, params);
  assert.ok(row, `no row from ${sql}`);
  return row;
};

// Rows of tables sharded apart on Citus (people by person, a cohort's members) are read in a
// materialized CTE first, which every engine joins as it is.

test('firmographic profiles agree with the company rows', async () => {
  const rows = await q<{ profile: any; city: string; employee_count: number; revenue_band: string; founded_year: number; name: string; ceo: string | null }>(
    `WITH ceo AS MATERIALIZED (SELECT DISTINCT ON (company_id) company_id, full_name FROM people WHERE title = 'Chief Executive Officer' ORDER BY company_id, id)
     SELECT f.profile, c.city, c.employee_count, c.revenue_band, c.founded_year, c.name, ceo.full_name AS ceo
     FROM companies c JOIN firmographics f ON f.company_id = c.id LEFT JOIN ceo ON ceo.company_id = c.id`,
  );
  assert.equal(rows.length, N);
  for (const r of rows) {
    const p = r.profile;
    assert.equal(p.short_name, r.name);
    assert.equal(p.hq_address.city, r.city);
    assert.equal(p.employee_count, String(r.employee_count));
    assert.equal(p.revenue, r.revenue_band);
    assert.equal(Number(p.founded_date.slice(0, 4)), r.founded_year);
    assert.equal(`${p.ceo.first_name} ${p.ceo.last_name}`, r.ceo);
    assert.equal(Boolean(p.stock), p.company_type === 'Public');
    assert.ok(Array.isArray(p.funding) && Array.isArray(p.acquisition) && Array.isArray(p.sic_code) && p.industries.length === 1);
  }
  assert.ok(rows.some((r) => r.profile.funding.length > 0) && rows.some((r) => r.profile.stock));
});

test('feed: 5-50 items per company over three years, fixed categories, funding and acquisitions match the profile', async () => {
  const per = await q<{ n: number; lo: string; hi: string }>(
    `SELECT count(*)::int AS n, min(published_at)::text AS lo, max(published_at)::text AS hi FROM feed_items GROUP BY company_id`,
  );
  assert.equal(per.length, N);
  for (const r of per) assert.ok(r.n >= 5 && r.n <= 50, `feed size ${r.n}`);
  const outside = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM feed_items WHERE published_at > $1::timestamptz OR published_at < $1::timestamptz - interval '1096 days'`,
    [AS_OF],
  );
  assert.equal(outside.n, 0);
  const cats = await q<{ category: string }>('SELECT DISTINCT category FROM feed_items ORDER BY 1');
  assert.deepEqual(
    cats.map((c) => c.category),
    [...FEED_CATEGORIES].sort(),
  );
  const funding = await q<{ title: string; description: string; day: string; rounds: any[] }>(
    `SELECT fi.title, fi.description, to_char(fi.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, f.profile->'funding' AS rounds
     FROM feed_items fi JOIN firmographics f ON f.company_id = fi.company_id WHERE fi.category = 'FUNDING'`,
  );
  assert.ok(funding.length > 0);
  for (const item of funding) {
    const round = item.rounds.find((r: any) => r.date === item.day);
    assert.ok(round, `no funding round on ${item.day} for "${item.title}"`);
    assert.ok(item.title.includes(round.type), `${item.title} vs ${round.type}`);
    if (round.undisclosed === 'false') assert.match(item.title, /raises \$/);
  }
  const acq = await one<{ bad: number }>(
    `SELECT count(*)::int AS bad FROM feed_items fi JOIN firmographics f ON f.company_id = fi.company_id
     WHERE fi.category = 'ACQUISITION' AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(f.profile->'acquisition') a
       WHERE fi.title LIKE '%acquires ' || (a->>'name') AND a->>'date' = to_char(fi.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'))`,
  );
  assert.equal(acq.bad, 0);
  const appoint = await one<{ bad: number; n: number }>(
    `WITH p AS MATERIALIZED (SELECT company_id, full_name, title FROM people),
          fi AS MATERIALIZED (SELECT company_id, title FROM feed_items WHERE category = 'PEOPLE' AND title LIKE '% appoints %')
     SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.company_id = fi.company_id AND fi.title LIKE '%appoints ' || p.full_name || ' as ' || p.title))::int AS bad, count(*)::int AS n
     FROM fi`,
  );
  assert.ok(appoint.n > 0);
  assert.equal(appoint.bad, 0);
});

test('defined cohorts: about 20% of companies, 10-30 peers each, drawn from the same industry first', async () => {
  const rows = await q<{ company_id: string; n: number; same_industry: number }>(
    `SELECT k.company_id, count(*)::int AS n, avg((a.industry_id = b.industry_id)::int)::float AS same_industry
     FROM cohorts k JOIN companies a ON a.id = k.company_id JOIN (SELECT id, industry_id FROM companies) b ON b.id = k.member_id
     WHERE k.kind = 'defined' GROUP BY 1`,
  );
  const share = rows.length / N;
  assert.ok(share > 0.12 && share < 0.28, `share with a defined cohort: ${share}`);
  for (const r of rows) assert.ok(r.n >= 10 && r.n <= 30, `cohort size ${r.n}`);
  const sameIndustry = rows.reduce((s, r) => s + r.same_industry, 0) / rows.length;
  // Far above chance (~4%); below the 90% of big worlds because 400 companies leave
  // only a handful of peers per industry.
  assert.ok(sameIndustry > 0.3, `same-industry share ${sameIndustry}`);
  const kinds = await q<{ kind: string }>('SELECT DISTINCT kind FROM cohorts');
  assert.deepEqual(
    kinds.map((k) => k.kind),
    ['defined'],
  );
});

test('people: about ten per company, more in bigger companies, with fixed seniorities and functions and work emails', async () => {
  const avg = await one<{ per: number }>('SELECT (SELECT count(*) FROM people)::float / (SELECT count(*) FROM companies) AS per');
  assert.ok(avg.per >= 7 && avg.per <= 14, `people per company ${avg.per}`);
  const bySize = await one<{ small: number; big: number }>(
    `SELECT avg(n) FILTER (WHERE employee_count < 50)::float AS small, avg(n) FILTER (WHERE employee_count >= 1000)::float AS big
     FROM (WITH p AS MATERIALIZED (SELECT company_id, count(*) AS n FROM people GROUP BY 1)
           SELECT c.employee_count, p.n FROM companies c JOIN p ON p.company_id = c.id) x`,
  );
  assert.ok(bySize.big > bySize.small * 2, JSON.stringify(bySize));
  const bad = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM people WHERE seniority <> ALL ($1::text[]) OR function <> ALL ($2::text[]) OR linkedin_url NOT LIKE 'https://www.linkedin.com/in/%'`,
    [SENIORITIES, FUNCTIONS],
  );
  assert.equal(bad.n, 0);
  const noWorkEmail = await one<{ n: number }>(
    `WITH c AS MATERIALIZED (SELECT id, domain FROM companies)
     SELECT count(*)::int AS n FROM people p JOIN c ON c.id = p.company_id
     WHERE NOT EXISTS (SELECT 1 FROM contacts k WHERE k.person_id = p.id AND k.kind = 'email' AND k.type = 'work' AND k.value LIKE '%@' || c.domain)`,
  );
  assert.equal(noWorkEmail.n, 0);
});

test('companies: real countries, full addresses, several segments per industry', async () => {
  const countries = await q<{ country: string }>('SELECT DISTINCT country FROM companies');
  const known = new Set(COUNTRIES.map((c) => c.code));
  assert.ok(COUNTRIES.length >= 30 && countries.length >= 20, `${countries.length} countries`);
  for (const c of countries) assert.ok(known.has(c.country), c.country);
  const missing = await one<{ n: number }>(
    'SELECT count(*)::int AS n FROM companies WHERE name IS NULL OR street IS NULL OR city IS NULL OR state IS NULL OR postal_code IS NULL OR phone IS NULL OR founded_year IS NULL OR linkedin_url IS NULL',
  );
  assert.equal(missing.n, 0);
  const segs = await q<{ industry_id: string; segments: number }>(
    'SELECT industry_id, count(DISTINCT segment_id)::int AS segments FROM truth_segments GROUP BY 1 ORDER BY 2 DESC LIMIT 5',
  );
  for (const s of segs) assert.ok(s.segments >= 3, JSON.stringify(s));
});

test('stacks follow size and industry; evidence tells in-use from noise, but not perfectly', async () => {
  const size = await one<{ small: number; big: number }>(
    `SELECT avg(n) FILTER (WHERE size_tier = 'small')::float AS small, avg(n) FILTER (WHERE size_tier IN ('large', 'enterprise'))::float AS big
     FROM (SELECT t.size_tier, count(i.*) n FROM truth_segments t JOIN installs i ON i.company_id = t.company_id GROUP BY t.company_id, t.size_tier) x`,
  );
  assert.ok(size.big > size.small * 1.4, JSON.stringify(size));
  // Industry software (EHR, core banking, POS...) is in use almost only in its industries.
  const only = parseOutline().filter((c) => c.only);
  const rows = await q<{ category_id: string; industry_id: string }>(
    `SELECT p.category_id, c.industry_id FROM truth_installs t JOIN products p ON p.id = t.product_id JOIN companies c ON c.id = t.company_id
     WHERE t.in_use AND t.kind = 'active' AND p.category_id = ANY ($1::text[])`,
    [only.map((c) => c.id)],
  );
  const fits = rows.filter((r) => only.find((c) => c.id === r.category_id)!.only!.has(r.industry_id)).length;
  assert.ok(rows.length > 0 && fits / rows.length > 0.9, `${fits}/${rows.length} industry installs fit`);
  const ev = await one<{ fresh: number; stale: number; single: number; all: number }>(
    `SELECT avg(t.in_use::int) FILTER (WHERE i.last_verified > $1::timestamptz - interval '90 days' AND i.hit_count >= 5)::float AS fresh,
            avg(t.in_use::int) FILTER (WHERE i.last_verified < $1::timestamptz - interval '1 year' AND i.hit_count >= 5)::float AS stale,
            avg(t.in_use::int) FILTER (WHERE i.hit_count = 1)::float AS single,
            avg(t.in_use::int)::float AS all
     FROM installs i JOIN truth_installs t USING (company_id, product_id)`,
    [AS_OF],
  );
  assert.ok(ev.fresh > 0.95, `fresh ${ev.fresh}`);
  assert.ok(ev.stale < 0.5, `stale ${ev.stale}`);
  // A single sighting is in use less often than the rest (0.87 since a skill a job post only welcomes no longer makes a claim alone).
  assert.ok(ev.single > 0.3 && ev.single < 0.9, `single hit ${ev.single}`);
  assert.ok(ev.all > 0.6 && ev.all < 0.95, `overall ${ev.all}`);
});
