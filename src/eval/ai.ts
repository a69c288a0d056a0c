// `stacklens eval ai`: measures the AI helpers on a generated demo world with held-out
// evidence. A share of every company's truly-in-use installs is deleted before the refresh
// (so cohorts and co-usage never see it); then tech-stack inference is scored on the hidden
// installs (precision@10, recall@20), customers-of-products on the hidden adopters
// (precision@10), people profiles on prompts generated from known people (precision), the
// probabilities of all three against the truth (reliability table, ECE), and the prompt
// parser on generated prompts with known intent. With `fit`, fresh coefficients for the
// peer-inference and people-confidence models are fitted on this world.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { seedWorld } from '../ingest/seed/index.ts';
import { refreshAll } from '../ingest/refresh.ts';
import { deleteInstalls, evidencedTruth, truthInUse } from '../store/truth.ts';
import { loadPromptCatalog } from '../store/catalog.ts';
import { fitLogistic, sigmoid } from '../intelligence/confidence.ts';
import { calibration, mean, type Calibration } from './metrics.ts';
import { inferenceFeatures } from '../intelligence/peer-inference.ts';
import { evaluateParser, generateEvalCases } from './parser.ts';
import { stackCandidates } from '../services/ai-techstack.ts';
import { customerCandidates } from '../services/ai-customers.ts';
import { currentAsOf } from '../services/stacks.ts';
import { evaluatePeople, type PeopleEval } from './ai-people.ts';

interface AiEvalOptions {
  seed?: string;
  companies?: number;
  /** Share of each company's truly-in-use, evidenced installs hidden before the refresh. */
  holdOut?: number;
  /** Companies scored for the tech stack (and, with fit, used to fit the inference model). */
  stackSample?: number;
  /** Products scored for customers of products. */
  productSample?: number;
  peoplePrompts?: number;
  parserPrompts?: number;
  fit?: boolean;
  asOf?: string;
  onPhase?: (phase: string) => void;
}

export interface AiEvalReport {
  world: { seed: string; companies: number; hiddenInstalls: number; holdOut: number; engine: string };
  techStack: { companies: number; precisionAt10: number; recallAt20: number; inferred: Calibration; observed: Calibration; answer: Calibration };
  customers: { products: number; precisionAt10Inferred: number; precisionAt10Answer: number; inferred: Calibration; answer: Calibration };
  people: PeopleEval;
  overall: Calibration;
  parser: { total: number; accuracy: number; byVariant: Record<string, { total: number; accuracy: number }> };
  fitted?: { inference: number[]; inferenceCalibration: Calibration; people: number[]; peopleCalibration: Calibration };
}

function hashUnit(...parts: string[]): number {
  return createHash('sha1').update(parts.join('|')).digest().readUInt32BE(0) / 2 ** 32;
}

/** Seeds the world, hides `holdOut` of each company's evidenced true installs, refreshes. Returns the hidden pairs by company. */
async function prepareHeldOutWorld(db: Db, seed: string, companies: number, holdOut: number, asOf?: string): Promise<Map<string, Set<string>>> {
  await seedWorld(db, { companies, seed, asOf });
  const hidden = new Map<string, Set<string>>();
  const pairs: [string, string][] = [];
  for (const [companyId, products] of await evidencedTruth(db)) {
    const k = Math.round(holdOut * products.length);
    if (k === 0) continue;
    const chosen = [...products].sort((a, b) => hashUnit(seed, companyId, a) - hashUnit(seed, companyId, b)).slice(0, k);
    hidden.set(companyId, new Set(chosen));
    for (const p of chosen) pairs.push([companyId, p]);
  }
  await deleteInstalls(db, pairs);
  await refreshAll(db);
  return hidden;
}

/** Every `step`-th element of the sorted list, at most `n`. */
function stride<T>(list: T[], n: number): T[] {
  const step = Math.max(1, Math.floor(list.length / Math.max(1, n)));
  const out: T[] = [];
  for (let i = 0; i < list.length && out.length < n; i += step) out.push(list[i]!);
  return out;
}

export async function evaluateAi(db: Db, options: AiEvalOptions = {}): Promise<AiEvalReport> {
  const seed = options.seed ?? 'stacklens';
  const companies = options.companies ?? 5000;
  const holdOut = options.holdOut ?? 0.2;
  const phase = options.onPhase ?? (() => {});
  phase(`seeding ${companies} companies (seed '${seed}'), hiding ${Math.round(holdOut * 100)}% of each company's true installs, refreshing`);
  const hidden = await prepareHeldOutWorld(db, seed, companies, holdOut, options.asOf);
  const truth = new Set((await truthInUse(db)).map(([c, p]) => `${c}|${p}`));
  const { asOf, population } = await currentAsOf(db);
  const pooled: { p: number; y: boolean }[] = [];

  // Tech stack: inferred products scored against the hidden installs.
  phase('tech stack');
  const sampled = stride([...hidden.keys()].sort(), options.stackSample ?? 300);
  const inf = { p: [] as number[], y: [] as boolean[], x: [] as number[][] };
  const obs = { p: [] as number[], y: [] as boolean[] };
  const ans = { p: [] as number[], y: [] as boolean[] };
  const p10: number[] = [],
    r20: number[] = [];
  for (const companyId of sampled) {
    const gone = hidden.get(companyId)!;
    const c = await stackCandidates(db, companyId, asOf, population);
    const inferred = [...c.inferred].sort((a, b) => b.probability - a.probability || (a.productId < b.productId ? -1 : 1));
    for (const i of inferred) {
      inf.p.push(i.probability);
      inf.y.push(gone.has(i.productId));
      inf.x.push(inferenceFeatures(i.signal));
    }
    for (const o of c.observed) {
      obs.p.push(o.probability);
      obs.y.push(truth.has(`${companyId}|${o.evidence.productId}`));
    }
    const top10 = inferred.slice(0, 10);
    if (top10.length) p10.push(top10.filter((i) => gone.has(i.productId)).length / top10.length);
    r20.push(inferred.slice(0, 20).filter((i) => gone.has(i.productId)).length / gone.size);
    // The answer as the endpoint returns it: observed and inferred together, top 20 by probability.
    const answer = [
      ...c.observed.map((o) => ({ p: o.probability, y: truth.has(`${companyId}|${o.evidence.productId}`) })),
      ...inferred.map((i) => ({ p: i.probability, y: gone.has(i.productId) })),
    ]
      .sort((a, b) => b.p - a.p)
      .slice(0, 20);
    for (const a of answer) {
      ans.p.push(a.p);
      ans.y.push(a.y);
      pooled.push(a);
    }
  }

  // Customers of products: products with hidden adopters, ranked candidates against the truth.
  phase('customers of products');
  const adopters = new Map<string, number>();
  for (const set of hidden.values()) for (const p of set) adopters.set(p, (adopters.get(p) ?? 0) + 1);
  const products = stride(
    [...adopters]
      .filter(([, n]) => n >= 5)
      .map(([p]) => p)
      .sort(),
    options.productSample ?? 40,
  );
  const cinf = { p: [] as number[], y: [] as boolean[] };
  const cans = { p: [] as number[], y: [] as boolean[] };
  const cp10inf: number[] = [],
    cp10ans: number[] = [];
  const empty = { industryIds: [], countries: [], employeeBands: [], revenueBands: [] };
  for (const productId of products) {
    const ranked = await customerCandidates(db, { productIds: [productId], filter: empty, time: null, asOf, population, limit: 300 });
    const isTrue = (companyId: string) => truth.has(`${companyId}|${productId}`);
    const inferred = ranked.filter((r) => r.kind === 'inferred');
    for (const r of inferred) {
      cinf.p.push(r.probability);
      cinf.y.push(isTrue(r.companyId));
    }
    if (inferred.length) cp10inf.push(inferred.slice(0, 10).filter((r) => isTrue(r.companyId)).length / Math.min(10, inferred.length));
    const top = ranked.slice(0, 10);
    if (top.length) cp10ans.push(top.filter((r) => isTrue(r.companyId)).length / top.length);
    for (const r of top) {
      cans.p.push(r.probability);
      cans.y.push(isTrue(r.companyId));
      pooled.push({ p: r.probability, y: isTrue(r.companyId) });
    }
  }

  phase('people profiles');
  const people = await evaluatePeople(db, options.peoplePrompts ?? 300, asOf);
  for (const r of people.rows) pooled.push({ p: r.confidence, y: r.label });

  phase('prompt parser');
  const catalog = await loadPromptCatalog(db, { maxAgeMs: 0 });
  const parsed = evaluateParser(catalog, generateEvalCases(catalog, { count: options.parserPrompts ?? 300, seed: 7 }));

  const report: AiEvalReport = {
    world: { seed, companies, hiddenInstalls: [...hidden.values()].reduce((s, v) => s + v.size, 0), holdOut, engine: db.engine },
    techStack: {
      companies: sampled.length,
      precisionAt10: mean(p10),
      recallAt20: mean(r20),
      inferred: calibration(inf.p, inf.y),
      observed: calibration(obs.p, obs.y),
      answer: calibration(ans.p, ans.y),
    },
    customers: {
      products: products.length,
      precisionAt10Inferred: mean(cp10inf),
      precisionAt10Answer: mean(cp10ans),
      inferred: calibration(cinf.p, cinf.y),
      answer: calibration(cans.p, cans.y),
    },
    people: { ...people, rows: [] },
    overall: calibration(
      pooled.map((r) => r.p),
      pooled.map((r) => r.y),
    ),
    parser: {
      total: parsed.total,
      accuracy: parsed.accuracy,
      byVariant: Object.fromEntries(Object.entries(parsed.byVariant).map(([k, v]) => [k, { total: v.total, accuracy: v.accuracy }])),
    },
  };
  if (options.fit) {
    const inference = fitLogistic(inf.x, inf.y);
    const peopleCoef = fitLogistic(
      people.rows.map((r) => r.features),
      people.rows.map((r) => r.label),
    );
    const apply = (w: number[], x: number[]) => sigmoid(x.reduce((s, v, j) => s + v * w[j]!, 0));
    report.fitted = {
      inference,
      inferenceCalibration: calibration(
        inf.x.map((x) => apply(inference, x)),
        inf.y,
      ),
      people: peopleCoef,
      peopleCalibration: calibration(
        people.rows.map((r) => apply(peopleCoef, r.features)),
        people.rows.map((r) => r.label),
      ),
    };
  }
  return report;
}
