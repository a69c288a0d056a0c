// The customers AI helper's ranking on a generated demo world: the bounded peer inference
// (skips what cannot enter the answer, counts category peers over the candidates' own
// cohorts) gives exactly the answers of the exhaustive one it replaced, kept here as the
// reference: every product's peer adoption over every cohort, every candidate scored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { cohortAdoption, productEvidence, productInstallTuples, type CompanyFilter } from '../../src/store/ai.ts';
import { productDetails, productsInCategory } from '../../src/store/products.ts';
import { categoryUserCounts, coUsagePairs, productUserCounts } from '../../src/store/cousage.ts';
import { inUseConfidence, IN_USE_THRESHOLD } from '../../src/intelligence/confidence.ts';
import { inferredProbability, smoothedPeerShare, type PeerSignal } from '../../src/intelligence/peer-inference.ts';
import { inUseStacks, currentAsOf } from '../../src/services/stacks.ts';
import { byProbability, customerCandidates, MAX_INFERRED_PRODUCTS, type CustomerCandidate, type CustomerSearch } from '../../src/services/ai-customers.ts';
import { companyFilterOf, productsNamed } from '../../src/services/ai.ts';
import { understandAiPrompt } from '../../src/services/ai-prompt.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  await seedWorld(db, { companies: 600, seed: 'stacklens', asOf: '2026-01-01' });
  await refreshAll(db);
});
after(() => db.close());

/** The ranking as it was: peer adoption of the product and of its category over every Default cohort, every candidate scored. */
async function exhaustiveCandidates(s: CustomerSearch): Promise<CustomerCandidate[]> {
  const asOfMs = s.asOf.getTime();
  const details = new Map((await productDetails(db, s.productIds)).map((d) => [d.id, d]));
  const best = new Map<string, CustomerCandidate>();
  const offer = (c: CustomerCandidate) => {
    const have = best.get(c.companyId);
    if (!have || byProbability(c, have) < 0) best.set(c.companyId, c);
  };
  for (const e of await productEvidence(db, s.productIds, s.filter, s.time, Math.max(500, s.limit * 20))) {
    const probability = inUseConfidence(
      {
        firstVerified: e.firstVerified.getTime(),
        lastVerified: e.lastVerified.getTime(),
        hitCount: e.hitCount,
        intensity: e.intensity,
        sourceCount: e.sources.length,
      },
      asOfMs,
    );
    offer({ companyId: e.companyId, productId: e.productId, product: e.product, category: e.category, probability, kind: 'observed', evidence: e });
  }
  for (const productId of s.productIds.slice(0, MAX_INFERRED_PRODUCTS)) {
    const d = details.get(productId);
    if (!d) continue;
    const tuples = await productInstallTuples(db, await productsInCategory(db, d.categoryId));
    const evidenced = new Set<string>();
    const users: string[] = [];
    const categoryUsers = new Set<string>();
    const intensities: number[] = [];
    for (const [companyId, pid, last, first, hitCount, intensity, sourceCount] of tuples) {
      if (pid === productId) evidenced.add(companyId);
      if (inUseConfidence({ lastVerified: last, firstVerified: first, hitCount, intensity, sourceCount }, asOfMs) < IN_USE_THRESHOLD) continue;
      categoryUsers.add(companyId);
      if (pid !== productId) continue;
      users.push(companyId);
      intensities.push(intensity);
    }
    const populationShare = s.population > 0 ? Math.min(1, users.length / s.population) : 0;
    const categoryPopulationShare = s.population > 0 ? Math.min(1, ((await categoryUserCounts(db, [d.categoryId])).get(d.categoryId) ?? 0) / s.population) : 0;
    const categoryAdoption = new Map((await cohortAdoption(db, [...categoryUsers].sort(), s.filter, 1_000_000)).map((a) => [a.companyId, a.users]));
    const adoption = (await cohortAdoption(db, users, s.filter, Math.max(1000, s.limit * 20)))
      .filter((a) => !evidenced.has(a.companyId))
      .map((a) => ({ ...a, share: smoothedPeerShare({ cohortSize: a.size, peerUsers: a.users, populationShare }) }))
      .sort((a, b) => b.share - a.share || (a.companyId < b.companyId ? -1 : 1))
      .slice(0, Math.max(200, s.limit * 5));
    if (adoption.length === 0) continue;
    const ids = adoption.map((a) => a.companyId);
    const stacks = await inUseStacks(db, ids, s.asOf);
    const anchors = [...new Set([...stacks.values()].flatMap((rows) => rows.map((r) => r.productId)))].sort();
    const [pairs, anchorUsers] = await Promise.all([coUsagePairs(db, anchors, [productId]), productUserCounts(db, anchors)]);
    const rate = new Map(pairs.map((p) => [p.anchorId, (anchorUsers.get(p.anchorId) ?? 0) > 0 ? Math.min(1, p.together / anchorUsers.get(p.anchorId)!) : 0]));
    for (const a of adoption) {
      const stack = stacks.get(a.companyId) ?? [];
      const signal: PeerSignal = {
        cohortSize: a.size,
        peerUsers: a.users,
        populationShare,
        categoryPeerUsers: categoryAdoption.get(a.companyId) ?? a.users,
        categoryPopulationShare,
        categoryCovered: stack.some((r) => r.categoryId === d.categoryId && r.productId !== productId),
        coUsage: stack.reduce((m, r) => Math.max(m, rate.get(r.productId) ?? 0), 0),
      };
      offer({ companyId: a.companyId, productId, product: d.name, category: d.category, probability: inferredProbability(signal), kind: 'inferred', signal });
    }
  }
  return [...best.values()].sort(byProbability).slice(0, s.limit);
}

const NO_FILTER: CompanyFilter = { industryIds: [], countries: [], employeeBands: [], revenueBands: [] };
const summary = (list: CustomerCandidate[]) => list.map((c) => `${c.companyId} ${c.productId} ${c.kind} ${c.probability}`);

test('category, vendor and product prompts: the same companies, products, kinds and probabilities as the exhaustive ranking', async () => {
  const { asOf, population } = await currentAsOf(db);
  let inferred = 0;
  for (const prompt of [
    'who uses CRM?',
    'who uses Salesforce?',
    'companies using HubSpot',
    'who uses Zoom',
    'CRM users in Germany',
    'marketing automation at software companies',
  ]) {
    const understood = await understandAiPrompt(db, { ai: {} } as never, prompt, 'customers');
    const productIds = await productsNamed(db, understood.query);
    assert.ok(productIds.length > 0, prompt);
    for (const limit of [10, 200]) {
      const search: CustomerSearch = { productIds, filter: companyFilterOf(understood.query), time: null, asOf, population, limit };
      const expected = await exhaustiveCandidates(search);
      const got = await customerCandidates(db, search);
      assert.deepEqual(summary(got), summary(expected), `${prompt} (size ${limit})`);
      inferred += got.filter((c) => c.kind === 'inferred').length;
    }
  }
  // The comparison covers answers with inferred companies, not only evidence.
  assert.ok(inferred > 0, 'some answers hold inferred companies');
});

test('a narrow product set with a small population of users: inferred candidates fill the answer the same way', async () => {
  const { asOf, population } = await currentAsOf(db);
  const rare = await db.query<{ id: string }>(
    `SELECT product_id AS id FROM product_usage_stats WHERE companies BETWEEN 3 AND 15 ORDER BY companies DESC, product_id LIMIT 5`,
  );
  assert.ok(rare.length > 0);
  for (const { id } of rare) {
    const search: CustomerSearch = { productIds: [id], filter: NO_FILTER, time: null, asOf, population, limit: 50 };
    const got = await customerCandidates(db, search);
    assert.deepEqual(summary(got), summary(await exhaustiveCandidates(search)), id);
    assert.ok(
      got.some((c) => c.kind === 'inferred'),
      `${id}: inferred companies in the answer`,
    );
  }
});
