import { test } from 'node:test';
import assert from 'node:assert/strict';
import { employeeBandIndex, regionOf, revenueBandIndex } from '../../src/intelligence/bands.ts';
import { buildPopulation, descriptionTerms, type CompanyInput } from '../../src/intelligence/features.ts';
import {
  bandSimilarity,
  combinedSimilarity,
  combineParts,
  emptyParts,
  industrySimilarity,
  productSimilarity,
  SimilarityProbe,
  termSimilarity,
  WEIGHTS,
} from '../../src/intelligence/similarity.ts';
import { BlockIndex, computeCohorts, DEFAULT_COHORT_PARAMS, FirstStage } from '../../src/intelligence/cohorts.ts';
import { sharePercent, usageShares } from '../../src/intelligence/usage.ts';
import { compareStacks } from '../../src/intelligence/comparison.ts';
import { cohortCounts, rankRelated } from '../../src/intelligence/related.ts';
import { computeCoUsage } from '../../src/intelligence/cousage.ts';
import { calibrate, evidenceFeatures, fitIsotonic, fitLogistic, inUseConfidence, sigmoid } from '../../src/intelligence/confidence.ts';
import { expectedCalibrationError, reliabilityTable } from '../../src/eval/metrics.ts';

const company = (id: string, over: Partial<CompanyInput> = {}): CompanyInput => ({
  id,
  industryId: 'ind_a',
  sector: 'S',
  employeeBand: '50 - 199',
  revenueBand: '10M - 50M',
  country: 'US',
  description: null,
  products: [],
  ...over,
});

test('bands and regions', () => {
  assert.equal(employeeBandIndex('Less than 10'), 0);
  assert.equal(employeeBandIndex('Above 10,000'), 7);
  assert.equal(employeeBandIndex('lots'), -1);
  assert.equal(revenueBandIndex('More than 1B'), 8);
  assert.equal(regionOf('de'), 'EU');
  assert.equal(regionOf('US'), 'NA');
  assert.equal(regionOf(null), null);
  assert.equal(regionOf('ZZ'), 'other:ZZ');
  assert.equal(bandSimilarity(2, 2), 1);
  assert.equal(bandSimilarity(2, 3), 0.5);
  assert.equal(bandSimilarity(2, 5), 0);
});

test('similarity: IDF-weighted stacks, industries, description terms', () => {
  const pop = buildPopulation(
    [
      company('a', { products: ['rare', 'common'], description: 'Dental clinics software' }),
      company('b', { products: ['rare', 'common'], description: 'Software for dental clinic chains' }),
      company('c', { products: ['common'], industryId: 'ind_b', description: 'Trucking logistics' }),
      company('d', { products: ['common', 'other'], industryId: 'ind_c', sector: 'T', description: 'Trucking fleets' }),
      company('e', { products: ['common'], description: 'dental' }),
    ],
    [
      { id: 'rare', categoryId: 'x' },
      { id: 'common', categoryId: 'y' },
      { id: 'other', categoryId: 'y' },
    ],
  );
  assert.equal(productSimilarity(pop, 0, 1), 1);
  // Sharing only the product everyone runs is worth (almost) nothing.
  assert.ok(productSimilarity(pop, 0, 2) < 0.05);
  assert.equal(industrySimilarity(pop, 0, 1), 1);
  assert.equal(industrySimilarity(pop, 0, 2), 0.5, 'same sector');
  assert.equal(industrySimilarity(pop, 0, 3), 0);
  assert.deepEqual(descriptionTerms('The Dental Clinics, and clinics!'), ['dental', 'clinic']);
  assert.ok(termSimilarity(pop, 0, 1) > termSimilarity(pop, 0, 2));
  assert.equal(termSimilarity(pop, 2, 3), 1);
});

test('cohorts: blocking keeps peers in their block; K and the 50 cap hold; no self', () => {
  const companies: CompanyInput[] = [];
  for (let i = 0; i < 120; i++) companies.push(company(`a${i}`, { products: i % 2 ? ['p1', 'p2'] : ['p1', 'p3'] }));
  for (let i = 0; i < 30; i++) companies.push(company(`b${i}`, { industryId: 'ind_b', sector: 'T', products: ['p4'] }));
  for (let i = 0; i < 10; i++) companies.push(company(`big${i}`, { employeeBand: '200 - 499', products: ['p1', 'p2', 'p3', 'p5'] }));
  const pop = buildPopulation(
    companies,
    ['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => ({ id, categoryId: 'c' })),
  );
  const index = new BlockIndex(pop);
  const a1 = computeCohorts(index, pop.indexOf.get('a1')!, DEFAULT_COHORT_PARAMS);
  assert.equal(a1.default.length, 25);
  assert.equal(a1.competitors.length, 50);
  assert.ok(a1.default.every((s) => pop.ids[s.member]!.startsWith('a') && s.member !== pop.indexOf.get('a1')));
  // Same stack first: a1 runs p1+p2 like every odd a.
  assert.ok(
    a1.default.every((s) => Number(pop.ids[s.member]!.slice(1)) % 2 === 1),
    JSON.stringify(a1.default.map((s) => pop.ids[s.member])),
  );
  assert.deepEqual(
    a1.aspirational.map((s) => pop.ids[s.member]!.slice(0, 3)),
    Array(10).fill('big'),
  );
  const huge = computeCohorts(index, 0, { ...DEFAULT_COHORT_PARAMS, competitorsSize: 500 });
  assert.equal(huge.competitors.length, 50);
  const b0 = computeCohorts(index, pop.indexOf.get('b0')!, DEFAULT_COHORT_PARAMS);
  assert.ok(b0.default.every((s) => pop.ids[s.member]!.startsWith('b')));
  assert.equal(b0.aspirational.length, 0, 'no larger finance company');

  test('competitors never include a company with the same name (case and punctuation aside); the Default cohort may', () => {
    // twin-1 and twin-2 are the same business under two domains: identical firmographics and
    // stacks make each the other's best match, which is why the name has to rule it out.
    const companies: CompanyInput[] = [
      company('twin-1', { name: 'Harbor Logistics', products: ['p1', 'p2'] }),
      company('twin-2', { name: 'harbor  logistics.', products: ['p1', 'p2'] }),
      company('nameless-1', { name: null, products: ['p1', 'p2'] }),
      company('nameless-2', { name: null, products: ['p1', 'p2'] }),
    ];
    for (let i = 0; i < 30; i++) companies.push(company(`other${i}`, { name: `Other ${i}`, products: ['p1'] }));
    const pop = buildPopulation(
      companies,
      ['p1', 'p2'].map((id) => ({ id, categoryId: 'c' })),
    );
    const index = new BlockIndex(pop);
    const ids = (list: { member: number }[]) => list.map((s) => pop.ids[s.member]);
    const twin = computeCohorts(index, pop.indexOf.get('twin-1')!, DEFAULT_COHORT_PARAMS);
    assert.ok(!ids(twin.competitors).includes('twin-2'), JSON.stringify(ids(twin.competitors)));
    assert.ok(ids(twin.competitors).includes('nameless-1'));
    assert.ok(ids(twin.default).includes('twin-2'));
    // Unknown names are not a shared name.
    const nameless = computeCohorts(index, pop.indexOf.get('nameless-1')!, DEFAULT_COHORT_PARAMS);
    assert.ok(ids(nameless.competitors).includes('nameless-2'));
  });
});

test('similarity probe: every score bit-for-bit the pairwise one; cohorts the same with a shared probe', () => {
  // A varied population from a fixed pseudo-random sequence: stacks of 0-12 of 40 products
  // over 6 categories, 3 industries in 2 sectors, missing bands and countries, descriptions.
  let state = 7;
  const next = (n: number) => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const bands = ['Less than 10', '10 - 49', '50 - 199', '200 - 499', 'nonsense'];
  // 40 words, so each is in few enough descriptions to carry weight (over a third get none).
  const words = Array.from({ length: 40 }, (_, i) => `term${i}`);
  const products = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, categoryId: `c${i % 6}` }));
  const companies: CompanyInput[] = [];
  for (let i = 0; i < 300; i++) {
    const stack = new Set<string>();
    for (let k = next(13); k > 0; k--) stack.add(`p${next(next(2) ? 8 : 40)}`);
    companies.push(
      company(`x${i}`, {
        industryId: next(5) === 0 ? null : `ind_${next(3)}`,
        sector: next(2) ? 'S' : 'T',
        employeeBand: bands[next(bands.length)]!,
        country: next(6) === 0 ? null : ['US', 'DE', 'FR', 'JP'][next(4)]!,
        description: next(4) === 0 ? null : Array.from({ length: 1 + next(5) }, () => words[next(words.length)]).join(' '),
        products: [...stack],
      }),
    );
  }
  const pop = buildPopulation(companies, products);
  const probe = new SimilarityProbe(pop);
  const parts = emptyParts();
  for (let a = 0; a < pop.size; a += 7) {
    probe.from(a);
    for (let b = 0; b < pop.size; b++) {
      probe.parts(b, parts);
      for (const kind of ['default', 'competitors', 'aspirational', 'lookalikes'] as const) {
        assert.equal(combineParts(parts, WEIGHTS[kind]), combinedSimilarity(pop, a, b, WEIGHTS[kind]), `${kind} ${a}-${b}`);
      }
    }
  }
  // One probe reused across companies (as the refresh does) gives what a fresh one gives.
  const index = new BlockIndex(pop);
  const shared = new SimilarityProbe(pop);
  // One first stage too, filled in whatever order the companies come (here backwards).
  const firstStage = new FirstStage(index, DEFAULT_COHORT_PARAMS);
  for (let self = pop.size - 1; self >= 0; self -= 11) {
    assert.deepEqual(computeCohorts(index, self, DEFAULT_COHORT_PARAMS, shared, firstStage), computeCohorts(index, self, DEFAULT_COHORT_PARAMS));
  }
});

test('two-stage ranking: the first stage decides how many, shared nearest neighbours re-rank', () => {
  // Two segments of one industry, size and region: "u" companies run u-products, "v" ones
  // v-products, the u ones also a shared suite. u0 runs the suite plus one v-product.
  const companies: CompanyInput[] = [company('u0', { products: ['s1', 's2', 'v1'] })];
  for (let i = 1; i <= 14; i++) companies.push(company(`u${i}`, { products: ['s1', 's2', `u${i % 4}`, `u${(i + 1) % 4}`] }));
  for (let i = 1; i <= 14; i++) companies.push(company(`v${i}`, { products: [`v${i % 4}`, `v${(i + 1) % 4}`] }));
  const pop = buildPopulation(
    companies,
    ['s1', 's2', 'u0', 'u1', 'u2', 'u3', 'v0', 'v1', 'v2', 'v3'].map((id) => ({ id, categoryId: 'c' })),
  );
  const index = new BlockIndex(pop);
  const stage = new FirstStage(index, DEFAULT_COHORT_PARAMS);
  const self = pop.indexOf.get('u0')!;
  const first = [...stage.peersOf(self)].filter((m) => m >= 0).map((m) => pop.ids[m]!);
  assert.equal(first.length, DEFAULT_COHORT_PARAMS.firstStagePeers);
  // The part is a share in [0, 1]: a first-stage peer sharing all of u0's peers scores 1 at most.
  for (let m = 0; m < pop.size; m++) {
    const x = stage.shared(self, m);
    assert.ok(x >= 0 && x <= 1, `${pop.ids[m]} ${x}`);
  }
  const u0 = computeCohorts(index, self, DEFAULT_COHORT_PARAMS, undefined, stage);
  const withoutSecond = (() => {
    const saved = WEIGHTS.default.neighbours;
    WEIGHTS.default.neighbours = 0;
    try {
      return computeCohorts(index, self, DEFAULT_COHORT_PARAMS, undefined, new FirstStage(index, DEFAULT_COHORT_PARAMS));
    } finally {
      WEIGHTS.default.neighbours = saved;
    }
  })();
  // How many is read from the second-stage scores: past the minimum size, every member scores at
  // least the cut × the mean of the top 5, and the cohort stops at the first that does not.
  const { defaultMinSize, defaultRelativeCut, defaultSize } = DEFAULT_COHORT_PARAMS;
  const top5 = u0.default.slice(0, 5);
  const bar = (defaultRelativeCut * top5.reduce((sum, s) => sum + s.score, 0)) / top5.length;
  assert.ok(u0.default.length >= defaultMinSize && u0.default.length <= defaultSize, `${u0.default.length}`);
  for (const s of u0.default.slice(defaultMinSize)) assert.ok(s.score >= bar - 1e-4, `${pop.ids[s.member]} ${s.score} < ${bar}`);
  const uncut = computeCohorts(index, self, { ...DEFAULT_COHORT_PARAMS, defaultRelativeCut: 0 }, undefined, stage).default;
  if (uncut.length > u0.default.length) assert.ok(uncut[u0.default.length]!.score < bar, 'the cohort stops at the first candidate below the bar');
  // A first-stage peer of u0 that shares u0's first-stage peers climbs: the second-stage score
  // is the first-stage score plus the weighted shared-neighbour part.
  const firstScore = new Map(withoutSecond.default.map((s) => [s.member, s.score]));
  for (const s of u0.default) {
    const before = firstScore.get(s.member);
    if (before !== undefined) assert.ok(Math.abs(s.score - before - WEIGHTS.default.neighbours * stage.shared(self, s.member)) < 1e-3);
  }
});

test('usage shares: 1-100, never 0 for a used product', () => {
  assert.equal(sharePercent(1, 1000), 1);
  assert.equal(sharePercent(999, 1000), 100);
  assert.equal(sharePercent(0, 10), 0);
  const shares = usageShares([['a', 'b', 'a'], ['a'], []]);
  assert.deepEqual(shares, [
    { productId: 'a', companiesUsing: 2, cohortSize: 3, percentage: 67 },
    { productId: 'b', companiesUsing: 1, cohortSize: 3, percentage: 33 },
  ]);
});

test('comparison: similar, different (named), missing over the company categories only', () => {
  const item = (productId: string, categoryId: string) => ({ productId, productName: productId.toUpperCase(), categoryId, categoryName: `Cat ${categoryId}` });
  const mine = [item('crm1', 'crm'), item('mail1', 'mail'), item('bi1', 'bi')];
  const peer = [item('crm1', 'crm'), item('crm2', 'crm'), item('mail2', 'mail'), item('hr1', 'hr')];
  const rows = compareStacks(mine, peer);
  assert.deepEqual(
    rows.map((r) => [r.categoryId, r.similar, r.different, r.missing, r.product ?? null]),
    [
      ['bi', false, false, true, null],
      ['crm', true, false, false, 'CRM1'],
      ['mail', false, true, false, 'MAIL2'],
    ],
  );
  assert.deepEqual(
    compareStacks(mine, peer, new Set(['mail'])).map((r) => r.categoryId),
    ['mail'],
  );
});

test('related: ranked by lift among supported products, falls back on the population, never the anchor', () => {
  const global = {
    population: 1000,
    anchorUsers: 100,
    together: new Map([
      ['x', 60],
      ['everyone', 95],
      ['rare', 1],
      ['anchor', 100],
    ]),
    users: new Map([
      ['x', 100],
      ['everyone', 950],
      ['rare', 1],
      ['anchor', 100],
    ]),
  };
  const fallback = rankRelated('anchor', cohortCounts('anchor', [], null), global);
  assert.deepEqual(
    fallback.map((r) => r.productId),
    ['x', 'everyone'],
  );
  assert.equal(fallback[0]!.confidence, 0.6);
  // A cohort that strongly co-uses y outweighs the population prior.
  const peers = [...Array.from({ length: 30 }, () => ['anchor', 'y']), ...Array.from({ length: 10 }, () => ['z'])];
  const ranked = rankRelated('anchor', cohortCounts('anchor', peers, ['anchor']), { ...global, users: new Map([...global.users, ['y', 50]]) });
  assert.equal(ranked[0]!.productId, 'y');
  assert.ok(!ranked.some((r) => r.productId === 'anchor'));
});

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

test('related: every peer counts, the anchor users and the company itself double', () => {
  // 2 peers run the anchor and p, 4 run p alone, 4 run neither; the company runs the anchor and p.
  const peers = [['anchor', 'p'], ['anchor', 'p'], ['p'], ['p'], ['p'], ['p'], ['q'], ['q'], [], []];
  const counts = cohortCounts('anchor', peers, ['anchor', 'p']);
  assert.equal(counts.weight, 2 * 2 + 8 + 2);
  assert.equal(counts.weighted.get('p'), 2 * 2 + 4 + 2);
  assert.equal(counts.weighted.get('anchor'), undefined);
  // Support counts peers running both, unweighted; the company is not a peer.
  assert.equal(counts.together.get('p'), 2);
  assert.equal(counts.together.get('q'), undefined);
  // Blended with the population's P(p | anchor) = 0.5 at the weight of 10 members: (10 + 5) / (14 + 10).
  const global = { population: 100, anchorUsers: 20, together: new Map([['p', 10]]), users: new Map([['p', 40]]) };
  const [p, ...rest] = rankRelated('anchor', counts, global);
  assert.equal(p!.productId, 'p');
  assert.equal(p!.confidence, 0.625);
  assert.equal(p!.lift, round4(0.625 / 0.4));
  assert.deepEqual(rest, []);
  // A product only peers without the anchor run is no candidate: nothing ties it to the anchor.
  assert.ok(!rankRelated('anchor', cohortCounts('anchor', [['q'], ['q'], ['q']], null), global).some((r) => r.productId === 'q'));
});

test('co-usage counts pairs both ways and drops pairs below support', () => {
  const stats = computeCoUsage([Int32Array.from([0, 1, 2]), Int32Array.from([0, 1]), Int32Array.from([2]), new Int32Array()], 3);
  assert.equal(stats.population, 3);
  assert.deepEqual([...stats.users], [2, 2, 2]);
  assert.deepEqual(stats.pairs.get(0), [[1, 2]]);
  assert.deepEqual(stats.pairs.get(1), [[0, 2]]);
  assert.equal(stats.pairs.get(2), undefined);
});

test('confidence: monotone in evidence, fit recovers a known model, ECE of a calibrated set is small', () => {
  const asOf = Date.parse('2026-10-01');
  const fresh = { lastVerified: asOf, firstVerified: asOf - 400 * 86_400_000, hitCount: 50, intensity: 80, sourceCount: 3 };
  const old = { ...fresh, lastVerified: asOf - 900 * 86_400_000 };
  assert.ok(inUseConfidence(fresh, asOf) > inUseConfidence(old, asOf));
  assert.ok(inUseConfidence(fresh, asOf) > inUseConfidence({ ...fresh, hitCount: 1 }, asOf));
  // Intensity is not held monotone: its sign is learned from the evidence model. Since installs
  // come from the detector's observations, intensity is the noisy-OR of trace weights and the fit
  // (checked on a second seed, docs/intelligence.md) gives it a negative weight once hits and age are known.

  // Labels drawn from a known logistic model: the fit reproduces its probabilities.
  const truth = [0.5, -1.2, -0.1, 0.4, -0.5, 2, 0.5, 0.3, 0.1, -0.6, -0.8, -0.3, -0.4];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const rows: number[][] = [];
  const labels: boolean[] = [];
  for (let i = 0; i < 20_000; i++) {
    const last = asOf - rand() * 1500 * 86_400_000;
    const e = {
      lastVerified: last,
      firstVerified: last - rand() * 1000 * 86_400_000,
      hitCount: Math.floor(rand() * 200),
      intensity: rand() * 100,
      sourceCount: Math.floor(rand() * 4) + 1,
    };
    const x = evidenceFeatures(e, asOf);
    rows.push(x);
    labels.push(rand() < sigmoid(x.reduce((s, v, j) => s + v * truth[j]!, 0)));
  }
  const w = fitLogistic(rows, labels);
  const probs = rows.map((x) => sigmoid(x.reduce((s, v, j) => s + v * w[j]!, 0)));
  const trueProbs = rows.map((x) => sigmoid(x.reduce((s, v, j) => s + v * truth[j]!, 0)));
  const gap = probs.reduce((s, p, i) => s + Math.abs(p - trueProbs[i]!), 0) / probs.length;
  assert.ok(gap < 0.02, `mean |fitted - true| = ${gap}`);
  assert.ok(expectedCalibrationError(probs, labels) < 0.02);
  const table = reliabilityTable(probs, labels, 10);
  assert.equal(
    table.reduce((s, b) => s + b.count, 0),
    rows.length,
  );
  assert.ok(expectedCalibrationError([0.9, 0.9, 0.9, 0.9], [false, false, false, false]) > 0.8);

  // The isotonic map over the fitted scores: ascending steps of at least the minimum size,
  // non-decreasing probabilities never 0 or 1, and calibrated on the rows it was fitted on.
  const scores = rows.map((x) => x.reduce((s, v, j) => s + v * w[j]!, 0));
  const map = fitIsotonic(scores, labels, 500);
  assert.ok(map.length >= 3, `${map.length} steps`);
  for (let i = 1; i < map.length; i++) {
    assert.ok(map[i]![0] > map[i - 1]![0]);
    assert.ok(map[i]![1] >= map[i - 1]![1]);
  }
  assert.ok(map.every(([, p]) => p > 0 && p < 1));
  const counts = map.map(([from], i) => scores.filter((z) => z >= from && (i + 1 === map.length || z < map[i + 1]![0])).length);
  assert.ok(Math.min(...counts) >= 500, `smallest step ${Math.min(...counts)}`);
  assert.ok(
    expectedCalibrationError(
      scores.map((z) => calibrate(z, map)),
      labels,
    ) < 0.01,
  );
  assert.equal(calibrate(map[0]![0] - 100, map), map[0]![1]);
  assert.equal(calibrate(map.at(-1)![0] + 100, map), map.at(-1)![1]);
  assert.equal(calibrate(0, []), 0.5);
});
