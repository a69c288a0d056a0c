// Lookalike scoring (intelligence/lookalikes.ts) is the pairwise similarity of cohorts and
// competitors generalized to a seed set: with one seed and minSupport 1 every part equals the
// pairwise part (SimilarityProbe, bit-for-bit the same as similarity.ts's functions); a value
// fewer than minSupport seeds hold has no weight; the contributions add up to the score.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPopulation, type CompanyInput } from '../../src/intelligence/features.ts';
import { emptyParts, SimilarityProbe } from '../../src/intelligence/similarity.ts';
import { emptyLookalikeParts, LOOKALIKE_WEIGHTS, LookalikeScorer, seedProfile, type LookalikePart } from '../../src/intelligence/lookalikes.ts';

const products = ['p_crm', 'p_crm2', 'p_mail', 'p_bi', 'p_rare', 'p_erp'].map((id, i) => ({ id, categoryId: `c${i % 4}` }));
const industries = ['i_soft', 'i_fin', null];
const bands = ['1 - 9', '10 - 49', '50 - 199', '200 - 499', null];
const countries = ['US', 'CA', 'GB', 'DE', null];
const words = ['cloud accounting software', 'retail banking lending', 'cloud payroll software', 'clinic software', 'accounting banking'];

function company(i: number): CompanyInput {
  return {
    id: `c${String(i).padStart(3, '0')}`,
    industryId: industries[i % 3]!,
    sector: industries[i % 3] === 'i_fin' ? 'Finance' : industries[i % 3] ? 'Technology' : null,
    employeeBand: bands[i % 5]!,
    revenueBand: bands[(i * 3) % 5]!,
    country: countries[(i * 7) % 5]!,
    description: words[(i * 11) % 5]!,
    products: products.filter((_, p) => (i >> p) % 2 === 1 || (i + p) % 5 === 0).map((p) => p.id),
  };
}
const pop = buildPopulation(
  Array.from({ length: 60 }, (_, i) => company(i)),
  products,
);
const PARTS: LookalikePart[] = ['industry', 'employees', 'revenue', 'region', 'products', 'categories', 'terms'];

test('one seed, minSupport 1: every part is the pairwise part of cohorts and competitors', () => {
  const probe = new SimilarityProbe(pop);
  for (const seed of [0, 7, 13, 42]) {
    const scorer = new LookalikeScorer(pop, seedProfile(pop, [seed], 1));
    for (let c = 0; c < pop.size; c++) {
      const pair = probe.from(seed).parts(c, emptyParts());
      const mine = scorer.parts(c, emptyLookalikeParts());
      for (const k of PARTS) assert.ok(Math.abs(mine[k] - pair[k]) < 1e-12, `${k} seed ${seed} candidate ${c}: ${mine[k]} vs ${pair[k]}`);
    }
  }
});

test('firmographic parts are the mean of the pairwise parts over the seeds that hold a supported value', () => {
  const seeds = [0, 3, 6, 9, 12, 15];
  const probe = new SimilarityProbe(pop);
  const scorer = new LookalikeScorer(pop, seedProfile(pop, seeds, 1));
  for (let c = 0; c < pop.size; c++) {
    const mine = scorer.parts(c, emptyLookalikeParts());
    for (const k of ['industry', 'employees', 'revenue', 'region'] as const) {
      const mean = seeds.reduce((s, seed) => s + probe.from(seed).parts(c, emptyParts())[k], 0) / seeds.length;
      assert.ok(Math.abs(mine[k] - mean) < 1e-12, `${k} ${c}`);
    }
  }
});

test('a product, category or term held by fewer than minSupport seeds weighs nothing', () => {
  const seeds = [1, 2, 3, 4, 5];
  const profile = seedProfile(pop, seeds, 3);
  pop.productIds.forEach((_, p) => {
    const users = seeds.filter((s) => pop.stacks[s]!.includes(p)).length;
    assert.equal(profile.productSupport[p], users);
    assert.equal(profile.productWeight[p]! > 0, users >= 3 && pop.productIdf[p]! > 0, `product ${p}`);
  });
  for (const part of ['industry', 'employees', 'revenue', 'region'] as const) for (const g of profile[part]) assert.ok(g.seeds >= 3);
  // Two candidates that differ only by an unsupported product score the same.
  const unsupported = pop.productIds.findIndex((_, p) => profile.productSupport[p]! > 0 && profile.productSupport[p]! < 3);
  assert.ok(unsupported >= 0);
  const base = company(30);
  const withIt = { ...base, id: 'x_with', products: [...base.products.filter((id) => id !== pop.productIds[unsupported]), pop.productIds[unsupported]!] };
  const without = { ...base, id: 'x_without', products: base.products.filter((id) => id !== pop.productIds[unsupported]) };
  const pop2 = buildPopulation([...Array.from({ length: 60 }, (_, i) => company(i)), withIt, without], products);
  const s2 = new LookalikeScorer(pop2, seedProfile(pop2, seeds, 3));
  const a = s2.parts(60, emptyLookalikeParts()),
    b = s2.parts(61, emptyLookalikeParts());
  // The products part: the unsupported product adds to the candidate's own weight only (the Jaccard's union), never to the overlap.
  assert.ok(a.products <= b.products);
  assert.equal(
    s2.contributions(60).products.find((p) => p.product === unsupported),
    undefined,
  );
});

test('contributions add up to the score, and the memo changes nothing', () => {
  const seeds = [2, 4, 8, 16, 32];
  const scorer = new LookalikeScorer(pop, seedProfile(pop, seeds, 2));
  for (let c = 0; c < pop.size; c++) {
    const fresh = new LookalikeScorer(pop, seedProfile(pop, seeds, 2));
    const score = scorer.score(c);
    assert.equal(score, fresh.score(c));
    const k = scorer.contributions(c);
    assert.ok(Math.abs(k.score - score) < 1e-12);
    const productSum = k.products.reduce((s, p) => s + p.contribution, 0);
    assert.ok(Math.abs(productSum - k.parts.products) < 1e-12);
  }
  assert.ok(Math.abs(Object.values(LOOKALIKE_WEIGHTS).reduce((s, w) => s + w, 0) - 1) < 1e-9, 'the weights sum to 1');
});
