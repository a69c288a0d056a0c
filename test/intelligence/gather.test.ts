// Candidate gathering (intelligence/cohorts.ts `gather`): the binary-search sampler must pick
// exactly the members the plain walk of a tier picks (the walk is kept below as the
// reference), for every company, on tiers small and large, so refreshes stay reproducible
// and the cohorts of a large population do not depend on which way was taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPopulation, type CompanyInput } from '../../src/intelligence/features.ts';
import { BlockIndex, gather, type Key } from '../../src/intelligence/cohorts.ts';

/** The tier walk as it was before sampling by search: materialize, dedupe, stride. */
function walkReference(index: BlockIndex, self: number, tiers: Key[][], min: number, max: number): number[] {
  const picked = new Set<number>();
  for (const tier of tiers) {
    const fresh: number[] = [];
    for (const key of tier) for (const m of index.list(key)) if (m !== self && !picked.has(m)) fresh.push(m);
    const room = max - picked.size;
    if (fresh.length <= room) {
      for (const m of fresh) picked.add(m);
    } else {
      const unique = [...new Set(fresh)];
      const stride = unique.length / room;
      const offset = ((self * 2654435761) >>> 0) % Math.max(1, Math.floor(stride));
      for (let t = 0; t < room; t++) picked.add(unique[Math.min(unique.length - 1, offset + Math.floor(t * stride))]!);
    }
    if (picked.size >= min) break;
  }
  return [...picked];
}

function population(n: number, seed: number) {
  let state = seed;
  const next = (m: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % m;
  };
  const bands = ['Less than 10', '10 - 49', '50 - 199', '200 - 499', '500 - 999', '1,000 - 4,999', '5,000 - 10,000', 'Above 10,000', 'unknown'];
  const companies: CompanyInput[] = Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    // Skewed industries: a few huge blocks and many small ones.
    industryId: next(10) === 0 ? null : `ind_${Math.min(next(12), next(12))}`,
    sector: next(8) === 0 ? null : `s${next(3)}`,
    employeeBand: bands[next(bands.length)]!,
    revenueBand: next(3) ? null : 'More than 1B',
    country: next(9) === 0 ? null : ['US', 'DE', 'FR', 'JP', 'BR'][next(5)]!,
    description: null,
    products: [],
  }));
  return buildPopulation(companies, []);
}

test('gather: same members in the same order as the reference walk, on hand-made tiers', () => {
  const pop = population(8000, 5);
  const index = new BlockIndex(pop);
  const tiersOf = (self: number): Key[][] => {
    const ind = pop.industry[self]! >= 0 ? pop.industry[self]! : null;
    const e = pop.emp[self]!,
      r = pop.region[self]!,
      sec = pop.sector[self]! >= 0 ? pop.sector[self]! : null;
    return [
      [ind === null ? null : `ier:${ind}:${e}:${r}`],
      [ind === null ? null : `ie:${ind}:${e}`],
      [ind === null ? null : `ie:${ind}:${e - 1}`, ind === null ? null : `ie:${ind}:${e + 1}`],
      [sec === null ? null : `se:${sec}:${e}`, sec === null ? null : `se:${sec}:${e}`],
      [ind === null ? null : `i:${ind}`],
      [`e:${e}`],
      ['*'],
    ];
  };
  let large = 0;
  for (const [min, max] of [
    [30, 50],
    [200, 400],
    [1000, 1500],
    [3, 4],
  ] as const) {
    for (let self = 0; self < pop.size; self += 13) {
      const tiers = tiersOf(self);
      assert.deepEqual(gather(index, self, tiers, min, max), walkReference(index, self, tiers, min, max), `company ${self}, min ${min}, max ${max}`);
      if (index.list(tiers[1]![0]!).length > 4 * max) large++;
    }
  }
  assert.ok(large > 50, `the sampler's path was taken (${large} large tiers)`);
});
