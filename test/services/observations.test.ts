// The observation log: recording detections is idempotent per day, installs are
// derived from the log within a window, imported installs survive derivation, and a saved
// run changes the cohort's usage shares once the incremental refresh runs. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { refreshAll, refreshChanged } from '../../src/ingest/refresh.ts';
import { deriveInstalls, recordDetections } from '../../src/services/observations.ts';
import type { SiteResult } from '../../src/schemas/detect.ts';
import { companyVisits } from '../../src/store/visits.ts';
import { technologyChanges } from '../../src/technographics/changes.ts';
import { AS_OF, intelligenceWorld } from '../intelligence/world.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  const world = intelligenceWorld();
  world.categories!.push(
    { id: 'cat_web_analytics', name: 'Web Analytics', parent_id: 'cat_analytics' },
    { id: 'cat_marketing_automation', name: 'Marketing Automation', parent_id: 'cat_marketing' },
  );
  world.vendors!.push({ id: 'ven_google', domain: 'google.com' });
  world.products!.push({ id: 'prd_ga', vendor_id: 'ven_google', category_id: 'cat_web_analytics', name: 'Google Analytics' });
  await insertWorld(t.db, world);
  await refreshAll(t.db);
  client = await createTestClient(t.db, 'full');
});
after(() => t.close());

const day = (n: number) => new Date(Date.parse(AS_OF) + n * 86_400_000);
const ev = (ruleId: string, weight = 0.9, source: 'script' | 'cookie' | 'dns' = 'script') => ({
  source,
  url: 'https://x.example/',
  ruleId,
  excerpt: `<script src="${ruleId}">`,
  weight,
});
const site = (domain: string, techs: SiteResult['technologies']): SiteResult => ({ domain, technologies: techs });
const ga = (...evidence: ReturnType<typeof ev>[]) => ({
  name: 'Google Analytics',
  vendorDomain: 'google.com',
  category: 'Web Analytics',
  confidence: 0.9,
  evidence,
});
const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params))[0]!.n);
const install = async (companyId: string, productId: string) =>
  (
    await t.db.query<{ first_verified: Date; last_verified: Date; hit_count: number; intensity: number; sources: string[] }>(
      'SELECT first_verified, last_verified, hit_count, intensity, sources FROM installs WHERE company_id = $1 AND product_id = $2',
      [companyId, productId],
    )
  )[0];

test('recording the same detections twice on one day adds nothing; a later day adds observations', async () => {
  const input = [site('same.example', [ga(ev('Google Analytics/scriptSrc/0'), ev('Google Analytics/cookies/_ga', 0.6, 'cookie'))])];
  const first = await recordDetections(t.db, input, { seenAt: day(-10), runId: 'run-1', source: 'artifacts' });
  assert.deepEqual([first.observations, first.added, first.sites, first.companyIds], [2, 2, 1, ['cmp_same']]);
  const again = await recordDetections(t.db, input, { seenAt: new Date(day(-10).getTime() + 3_600_000), runId: 'run-2' });
  assert.deepEqual([again.observations, again.added], [2, 0], 'same traces, same UTC day: no duplicate');
  assert.equal(await count("SELECT count(*)::int AS n FROM observations WHERE company_id = 'cmp_same'"), 2);
  const later = await recordDetections(t.db, input, { seenAt: day(-3) });
  assert.equal(later.added, 2);
  const [row] = await t.db.query<{ evidence: Record<string, unknown>; product_id: string }>(
    "SELECT evidence, product_id FROM observations WHERE company_id = 'cmp_same' AND source = 'cookie' ORDER BY seen_at LIMIT 1",
  );
  assert.equal(row!.product_id, 'prd_ga', 'matched to the catalog product of the same vendor domain and name');
  assert.deepEqual(row!.evidence, {
    url: 'https://x.example/',
    ruleId: 'Google Analytics/cookies/_ga',
    excerpt: '<script src="Google Analytics/cookies/_ga">',
    weight: 0.6,
    input: 'artifacts',
  });
});

test('the log refuses updates (append-only)', async () => {
  await assert.rejects(t.db.query("UPDATE observations SET weight = 0.1 WHERE company_id = 'cmp_same'"), /append-only/);
});

test('unknown domains get a minimal company unless told not to; unknown technologies get a product in their category or are reported', async () => {
  const hubspot = { name: 'HubSpot', vendorDomain: 'hubspot.com', category: 'Marketing Automation', confidence: 0.95, evidence: [ev('HubSpot/scriptSrc/0')] };
  const odd = { name: 'Oddware', vendorDomain: 'oddware.example', category: 'No Such Category', confidence: 0.9, evidence: [ev('Oddware/html/0')] };
  const refused = await recordDetections(t.db, [site('brand-new.example', [hubspot])], { seenAt: day(-1), createCompanies: false });
  assert.deepEqual([refused.skippedSites, refused.added, refused.companiesCreated], [1, 0, 0]);
  assert.equal(await count("SELECT count(*)::int AS n FROM companies WHERE domain = 'brand-new.example'"), 0);

  const res = await recordDetections(t.db, [site('https://www.Brand-New.example/', [hubspot, odd])], { seenAt: day(-1) });
  assert.deepEqual([res.companiesCreated, res.productsCreated, res.unmappedTechnologies, res.added], [1, 1, ['Oddware'], 1]);
  const [company] = await t.db.query<{ id: string; name: string | null }>("SELECT id, name FROM companies WHERE domain = 'brand-new.example'");
  assert.deepEqual(company, { id: 'cmp_brand-new_example', name: null });
  const [product] = await t.db.query<{ id: string; category_id: string; vendor: string; domain: string }>(
    "SELECT p.id, p.category_id, v.name AS vendor, v.domain FROM products p JOIN vendors v ON v.id = p.vendor_id WHERE p.name = 'HubSpot'",
  );
  assert.deepEqual(product, { id: 'prd_hubspot', category_id: 'cat_marketing_automation', vendor: 'HubSpot', domain: 'hubspot.com' });
  // The second time the product exists: matched, not created again.
  const again = await recordDetections(t.db, [site('brand-new.example', [hubspot])], { seenAt: day(0) });
  assert.deepEqual([again.productsCreated, again.added], [0, 1]);
});

test('a bad site record is a 400-style error naming the field', async () => {
  await assert.rejects(
    recordDetections(t.db, [{ domain: 'x.example', technologies: [{ ...ga(ev('r')), evidence: [{ ...ev('r'), weight: 2 }] }] }]),
    (err: Error & { status?: number }) => err.status === 400 && /sites\[0\]\.technologies\.0\.evidence\.0\.weight/.test(err.message),
  );
});

test('deriveInstalls rebuilds observed pairs from the log, keeps imported installs, and expires what the window no longer covers', async () => {
  // cmp_same: imported installs of prd_crm_a and prd_email_a; observed prd_ga on days -10 and -3.
  const before = await install('cmp_same', 'prd_crm_a');
  const counts = await deriveInstalls(t.db, { companyIds: ['cmp_same'], asOf: day(0), staleAfterDays: 30 });
  assert.deepEqual(counts, { upserted: 1, expired: 0, companies: 1 });
  const derived = await install('cmp_same', 'prd_ga');
  assert.equal(derived!.first_verified.toISOString(), day(-10).toISOString());
  assert.equal(derived!.last_verified.toISOString(), day(-3).toISOString());
  assert.equal(derived!.hit_count, 4, 'two traces on two days');
  assert.deepEqual(derived!.sources, ['cookie', 'script']);
  assert.equal(derived!.intensity, 96, 'noisy-OR of 0.9 and 0.6');
  assert.deepEqual(await install('cmp_same', 'prd_crm_a'), before, 'an install without observations is not touched');

  // Unchanged log, unchanged installs: nothing marked.
  await t.db.query('DELETE FROM refresh_pending');
  assert.deepEqual(await deriveInstalls(t.db, { companyIds: ['cmp_same'], asOf: day(0), staleAfterDays: 30 }), { upserted: 0, expired: 0, companies: 0 });

  // 40 days on, with a 30-day window, prd_ga was last seen 43 days before: not in use any more.
  const later = await deriveInstalls(t.db, { companyIds: ['cmp_same'], asOf: day(40), staleAfterDays: 30 });
  assert.deepEqual(later, { upserted: 0, expired: 1, companies: 1 });
  assert.equal(await install('cmp_same', 'prd_ga'), undefined);
  assert.ok(await install('cmp_same', 'prd_crm_a'), 'imported installs stay');
  assert.equal(await count("SELECT count(*)::int AS n FROM refresh_pending WHERE company_id = 'cmp_same'"), 1);
  await assert.rejects(deriveInstalls(t.db, { staleAfterDays: 0 }), /staleAfterDays/);
});

test('a saved detection run changes the cohort usage shares after the incremental refresh', async () => {
  const share = async (productId: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/companies/me.example/cohort/Defined/metrics/usage', headers: client.headers });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { productId: string; percentage: number }[]).find((r) => r.productId === productId)?.percentage ?? 0;
  };
  await refreshChanged(t.db);
  assert.equal(await share('prd_ga'), 0);
  const run = await recordDetections(t.db, [site('none.example', [ga(ev('Google Analytics/scriptSrc/0'))])], { seenAt: day(0) });
  await deriveInstalls(t.db, { companyIds: run.companyIds, asOf: day(0) });
  const refreshed = await refreshChanged(t.db, { asOf: day(0) });
  assert.equal(refreshed.kind, 'incremental');
  assert.equal(await share('prd_ga'), 33, 'one of the three Defined members now uses it');
});

test('each recorded site is a visit with its coverage; read back, the visits give the change rules their events', async () => {
  const ok = { outcome: 'ok' as const, kinds: ['web' as const], reason: null };
  const failed = { outcome: 'failed' as const, kinds: [], reason: 'timeout' };
  const at = (n: number, visit: typeof ok | typeof failed, techs: SiteResult['technologies'] = []) =>
    recordDetections(t.db, [{ domain: 'visits.example', technologies: techs, seenAt: day(n).toISOString(), visit }], { runId: `run-${n}` });
  const first = await at(-60, ok);
  assert.equal(first.visitsAdded, 1);
  const [companyId] = first.companyIds;
  await at(-50, ok, [ga(ev('Google Analytics/scriptSrc/0'))]);
  await at(-40, failed);
  await at(-30, ok);
  await at(-25, failed);
  await at(-20, ok);
  assert.equal((await at(-20, ok)).visitsAdded, 0, 'the same visit recorded again is kept once');
  // A record without its coverage: a visit that shows no absence.
  await recordDetections(t.db, [site('visits.example', [])], { seenAt: day(-10), runId: 'run-upload' });

  const visits = await companyVisits(t.db, companyId!);
  assert.deepEqual(
    visits.map((v) => [v.outcome, v.kinds, v.reason]),
    [
      ['ok', ['web'], null],
      ['ok', ['web'], null],
      ['failed', [], 'timeout'],
      ['ok', ['web'], null],
      ['failed', [], 'timeout'],
      ['ok', ['web'], null],
      ['partial', [], 'coverage unknown'],
    ],
  );
  const seen = visits[1]!.seen.get('prd_ga')!;
  assert.deepEqual([seen.confidence, seen.version, seen.kinds, seen.evidence.length], [0.9, null, ['web'], 1]);
  const [hash] = await t.db.query<{ evidence_hash: string }>('SELECT evidence_hash FROM observations WHERE company_id = $1', [companyId]);
  assert.deepEqual(seen.evidence, [hash!.evidence_hash], 'the visit names the logged evidence');

  const events = technologyChanges(companyId!, visits).map((e) => [e.type, e.productId, e.earliest.getTime(), e.latest.getTime(), e.detectedAt.getTime()]);
  assert.deepEqual(events, [
    ['technology.adopted', 'prd_ga', day(-60).getTime(), day(-50).getTime(), day(-50).getTime()],
    ['technology.dropped', 'prd_ga', day(-50).getTime(), day(-30).getTime(), day(-20).getTime()],
  ]);
  await assert.rejects(t.db.query("UPDATE site_visits SET outcome = 'ok' WHERE company_id = $1", [companyId]), /append-only/);
});
