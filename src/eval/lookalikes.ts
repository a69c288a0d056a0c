// `stacklens eval lookalikes`: lookalikes measured against the demo world's hidden segments.
// For each segment with enough members, a few trials each pick 5 seeds of the segment
// (deterministically), ask the lookalikes service for its top 200, and measure
// precision@50 (results from the seeds' segment) and recall@200 (held-out members of the
// segment found in the top 200, over min(held-out, 200) so a segment larger than 200 can still
// reach 1). Figures are means over every trial.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { truthSegments } from '../store/truth.ts';
import { findCompanyDomains } from '../store/lookalikes.ts';
import { findLookalikes } from '../services/lookalikes.ts';
import { lookalikesBodySchema } from '../schemas/lookalikes.ts';
import { mean, membersBySegment } from './metrics.ts';
import { NoTruthError } from './intelligence.ts';

export const LOOKALIKE_GOALS = { precisionAt50: 0.85, recallAt200: 0.6 } as const;

interface LookalikesEvalOptions {
  seeds?: number;
  trialsPerSegment?: number;
  /** Segments with fewer members (seeds + held-out) are skipped. */
  minSegmentSize?: number;
  /** At most this many segments, the largest first. */
  maxSegments?: number;
}

export interface LookalikesEvalReport {
  segments: number;
  trials: number;
  seeds: number;
  precisionAt50: number;
  recallAt200: number;
  /** Precision@50 a random ranking would reach: the mean share of the segment among the candidates. */
  randomPrecision: number;
  millisPerQuery: number;
}

const hashOf = (s: string) => createHash('sha1').update(s).digest('hex');

export async function evaluateLookalikes(db: Db, options: LookalikesEvalOptions = {}): Promise<LookalikesEvalReport> {
  const seedsPer = options.seeds ?? 5;
  const trials = options.trialsPerSegment ?? 2;
  const segments = await truthSegments(db);
  if (segments.length === 0)
    throw new NoTruthError('No ground truth in this database (truth_segments is empty): evaluate a generated demo world (stacklens seed).');
  const members = membersBySegment(segments);
  const domains = await findCompanyDomains(
    db,
    segments.map((s) => s.companyId),
  );
  const segmentOf = new Map(segments.map((s) => [domains.get(s.companyId), s.segmentId]));
  const minSize = options.minSegmentSize ?? seedsPer + 20;
  const chosen = [...members]
    .filter(([, ids]) => ids.length >= minSize)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .slice(0, options.maxSegments ?? 30);

  const precision: number[] = [],
    recall: number[] = [],
    random: number[] = [],
    millis: number[] = [];
  for (const [segmentId, ids] of chosen) {
    for (let trial = 0; trial < trials; trial++) {
      const order = [...ids].sort((a, b) => (hashOf(`${trial}:${a}`) < hashOf(`${trial}:${b}`) ? -1 : 1));
      const seeds = order.slice(0, seedsPer).map((id) => domains.get(id)!);
      const heldOut = ids.length - seedsPer;
      const started = performance.now();
      const top: string[] = [];
      for (const page of [0, 1]) {
        const answer = await findLookalikes(db, lookalikesBodySchema.parse({ seedDomains: seeds, size: 100, page }));
        top.push(...answer.content.map((l) => l.domain));
      }
      millis.push((performance.now() - started) / 2);
      const inSegment = top.map((d) => segmentOf.get(d) === segmentId);
      precision.push(inSegment.slice(0, 50).filter(Boolean).length / Math.min(50, top.length || 1));
      recall.push(inSegment.filter(Boolean).length / Math.min(heldOut, 200));
      random.push(heldOut / (segments.length - seedsPer));
    }
  }
  return {
    segments: chosen.length,
    trials: precision.length,
    seeds: seedsPer,
    precisionAt50: mean(precision),
    recallAt200: mean(recall),
    randomPrecision: mean(random),
    millisPerQuery: mean(millis),
  };
}

export function formatLookalikesEval(r: LookalikesEvalReport): string {
  const f = (x: number) => x.toFixed(3);
  return [
    `Lookalikes: ${r.trials} trials of ${r.seeds} seeds over the ${r.segments} largest hidden segments.`,
    '',
    `${'measure'.padEnd(46)}value    goal`,
    `${'precision@50 (results in the seeds’ segment)'.padEnd(46)}${f(r.precisionAt50).padEnd(9)}>= ${LOOKALIKE_GOALS.precisionAt50}`,
    `${'  random-ranking baseline'.padEnd(46)}${f(r.randomPrecision)}`,
    `${'recall@200 (held-out members in the top 200)'.padEnd(46)}${f(r.recallAt200).padEnd(9)}>= ${LOOKALIKE_GOALS.recallAt200}`,
    `${'mean time per query (ms)'.padEnd(46)}${r.millisPerQuery.toFixed(1)}`,
  ].join('\n');
}
