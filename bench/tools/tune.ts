// Tuning harness: loads a seeded world's population once and measures Default-cohort
// purity and competitor precision in memory for weight variants (no writes).
//   DATABASE_URL=... npx tsx bench/tools/tune.ts --schema eval_a
import { parseArgs } from 'node:util';
import { openDb } from '../../src/db/db.ts';
import { loadPopulation } from '../../src/ingest/refresh.ts';
import { resolveAsOf } from '../../src/services/stacks.ts';
import { truthSegments } from '../../src/store/truth.ts';
import { BlockIndex, computeCohorts, DEFAULT_COHORT_PARAMS, FirstStage } from '../../src/intelligence/cohorts.ts';
import { SimilarityProbe, WEIGHTS, type Weights } from '../../src/intelligence/similarity.ts';

const { values } = parseArgs({ options: { schema: { type: 'string' }, sample: { type: 'string', default: '1500' } } });
const db = await openDb({ databaseUrl: process.env.DATABASE_URL, schema: values.schema });
const { pop } = await loadPopulation(db, await resolveAsOf(db));
const truth = new Map((await truthSegments(db)).map((s) => [s.companyId, s]));
await db.close();
const index = new BlockIndex(pop);
const step = Math.max(1, Math.floor(pop.size / Number(values.sample)));

export function measure(label: string, def: Partial<Weights>, comp: Partial<Weights> = {}) {
  Object.assign(WEIGHTS.default, def);
  Object.assign(WEIGHTS.competitors, comp);
  let pur = 0,
    prec = 0,
    n = 0,
    sizes = 0,
    compSizes = 0;
  const params = {
    ...DEFAULT_COHORT_PARAMS,
    maxCandidates: Number(process.env.MAXC ?? DEFAULT_COHORT_PARAMS.maxCandidates),
    minCandidates: Number(process.env.MINC ?? DEFAULT_COHORT_PARAMS.minCandidates),
  };
  // The first stage depends on the weights: a fresh one per variant.
  const probe = new SimilarityProbe(pop),
    firstStage = new FirstStage(index, params);
  for (let i = 0; i < pop.size; i += step) {
    const c = computeCohorts(index, i, params, probe, firstStage);
    const me = truth.get(pop.ids[i]!)!;
    if (c.default.length) pur += c.default.filter((s) => truth.get(pop.ids[s.member]!)!.segmentId === me.segmentId).length / c.default.length;
    if (c.competitors.length)
      prec +=
        c.competitors.filter((s) => {
          const t = truth.get(pop.ids[s.member]!)!;
          return t.industryId === me.industryId && t.sizeTier === me.sizeTier;
        }).length / c.competitors.length;
    sizes += c.default.length;
    compSizes += c.competitors.length;
    n++;
  }
  console.log(
    `${label.padEnd(40)} purity ${(pur / n).toFixed(3)} compPrec ${(prec / n).toFixed(3)} meanSize ${(sizes / n).toFixed(1)} compSize ${(compSizes / n).toFixed(1)}`,
  );
}

const variants = (await import(process.env.TUNE_VARIANTS ?? './tune-variants.ts')).default as (m: typeof measure) => void;
variants(measure);
