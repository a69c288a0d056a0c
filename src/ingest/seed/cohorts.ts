// Defined cohorts: curated lists of 10-30 peers for about 20% of companies, as an operator
// would import them. Mostly companies of the same hidden segment, then the same industry,
// then the same region and size tier — curated lists are good but not pure.
import { rngFor } from './rng.ts';
import type { Segment } from './segments.ts';

interface DefinedCohort {
  company: number;
  members: number[];
}

const DEFINED_COHORT_SHARE = 0.2;

/** segmentOf[i] = segment index of company i. */
export function definedCohorts(seed: string, segmentOf: Int32Array, segments: Segment[], from: number, to: number, bySegment: number[][]): DefinedCohort[] {
  const n = segmentOf.length;
  if (to > n) throw new Error(`definedCohorts: companies up to ${to} asked for, but only ${n} have a segment`);
  // segmentOf holds indexes into segments, and bySegment has one list per segment.
  const segmentOfCompany = (company: number) => segments[segmentOf[company]!]!;
  const membersOf = (segment: Segment) => bySegment[segment.index]!;
  const out: DefinedCohort[] = [];
  const byIndustry = new Map<string, number[]>();
  segments.forEach((s) => byIndustry.set(s.industry.id, [...(byIndustry.get(s.industry.id) ?? []), ...membersOf(s)]));
  for (let i = from; i < to; i++) {
    const rng = rngFor(seed, 'cohort', i);
    if (!rng.chance(DEFINED_COHORT_SHARE) || n < 12) continue;
    const seg = segmentOfCompany(i);
    const size = Math.min(n - 1, rng.int(10, 30));
    const chosen = new Set<number>();
    const take = (pool: number[], k: number) => {
      for (let guard = 0; chosen.size < k && guard < k * 4 && pool.length > 0; guard++) {
        const m = rng.pick(pool);
        if (m !== i) chosen.add(m);
      }
    };
    take(membersOf(seg), Math.round(size * 0.75));
    take(byIndustry.get(seg.industry.id)!, Math.round(size * 0.9));
    for (let guard = 0; chosen.size < size && guard < size * 50; guard++) {
      const m = rng.int(0, n - 1);
      const other = segmentOfCompany(m);
      if (m !== i && (guard > size * 25 || (other.region === seg.region && other.tier === seg.tier))) chosen.add(m);
    }
    out.push({ company: i, members: [...chosen] });
  }
  return out;
}
