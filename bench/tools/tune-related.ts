// Tuning harness for related products: loads a refreshed world once (Default cohorts, stored
// stacks, population co-usage, hidden truth) and measures the eval's related top-5
// co-adoption (src/eval/intelligence.ts, the same sample and anchors) for ranking variants,
// in memory. A variant keeps or drops each candidate and scores it from its counts.
//   DATABASE_URL=... npx tsx bench/tools/tune-related.ts --schema eval_a
import { parseArgs } from 'node:util';
import { openDb } from '../../src/db/db.ts';
import { peersOfKind, truthInUse, truthSegments } from '../../src/store/truth.ts';
import { membersBySegment } from '../../src/eval/metrics.ts';

const { values } = parseArgs({ options: { schema: { type: 'string' }, sample: { type: 'string', default: '300' } } });
const db = await openDb({ databaseUrl: process.env.DATABASE_URL, schema: values.schema });
const cohorts = await peersOfKind(db, 'default');
const stacks = new Map(
  (await db.queryArrays<[string, string]>(`SELECT company_id, array_to_string(product_ids, ' ') FROM company_stacks`)).map(([c, s]) => [
    c,
    new Set(s ? s.split(' ') : []),
  ]),
);
const users = new Map((await db.queryArrays<[string, number]>('SELECT product_id, companies FROM product_usage_stats')).map(([p, n]) => [p, n]));
const pairs = new Map<string, Map<string, number>>();
for (const [a, p, n] of await db.queryArrays<[string, string, number]>('SELECT anchor_id, product_id, together FROM product_cousage')) {
  let m = pairs.get(a);
  if (!m) pairs.set(a, (m = new Map()));
  m.set(p, n);
}
const population = [...stacks.values()].filter((s) => s.size > 0).length;
const segments = await truthSegments(db);
const truth = new Map<string, Set<string>>();
for (const [c, p] of await truthInUse(db)) {
  const s = truth.get(c);
  if (s) s.add(p);
  else truth.set(c, new Set([p]));
}
await db.close();

/** What a variant sees of one candidate product p for one (company, anchor). */
export interface Candidate {
  p: string;
  /** cohort anchor users using p, cohort anchor users */
  t: number;
  a: number;
  /** cohort members using p, cohort size */
  m: number;
  n: number;
  /** the company itself runs p (stored stack) */
  own: boolean;
  /** population: anchor users using p, anchor users, users of p, companies with a stack */
  gt: number;
  ga: number;
  gu: number;
  N: number;
}
/** null drops the candidate; otherwise higher ranks first. */
export type Variant = (c: Candidate) => number | null;

const members = membersBySegment(segments);
const sorted = [...segments].sort((a, b) => (a.companyId < b.companyId ? -1 : 1));
const sample = Number(values.sample);
const step = Math.max(1, Math.floor(sorted.length / sample));
// The sampled (company, anchor, candidates, segment users of the anchor) once; variants only rank.
const cases: { cands: Candidate[]; rate: (p: string) => number }[] = [];
for (let i = 0; i < sorted.length && cases.length < sample * 2; i += step) {
  const { companyId, segmentId } = sorted[i]!;
  const own = [...(truth.get(companyId) ?? [])].sort();
  if (own.length === 0) continue;
  const anchor = own[i % own.length]!;
  const cohort = (cohorts.get(companyId) ?? []).map((m) => stacks.get(m) ?? new Set<string>());
  const t = new Map<string, number>(),
    m = new Map<string, number>();
  let a = 0;
  for (const s of cohort) {
    const uses = s.has(anchor);
    if (uses) a++;
    for (const p of s) {
      m.set(p, (m.get(p) ?? 0) + 1);
      if (uses) t.set(p, (t.get(p) ?? 0) + 1);
    }
  }
  const g = pairs.get(anchor) ?? new Map<string, number>();
  const ga = users.get(anchor) ?? 0;
  const ids = new Set([...(process.env.ALLM ? m.keys() : t.keys()), ...g.keys()]);
  ids.delete(anchor);
  const mine = stacks.get(companyId) ?? new Set<string>();
  const cands = [...ids].map((p) => ({
    p,
    t: t.get(p) ?? 0,
    a,
    m: m.get(p) ?? 0,
    n: cohort.length,
    own: mine.has(p),
    gt: g.get(p) ?? 0,
    ga,
    gu: users.get(p) ?? 0,
    N: population,
  }));
  const segUsers = members.get(segmentId)!.filter((x) => truth.get(x)?.has(anchor));
  cases.push({ cands, rate: (p) => (segUsers.length ? segUsers.filter((x) => truth.get(x)!.has(p)).length / segUsers.length : 0) });
}

export function measure(label: string, variant: Variant, k = 5, threshold = 0.3) {
  let hits = 0,
    shown = 0,
    anchors = 0,
    co = 0;
  for (const c of cases) {
    if (anchors >= sample) break;
    const scored = c.cands.flatMap((x) => {
      const s = variant(x);
      return s === null ? [] : [{ p: x.p, s }];
    });
    if (scored.length === 0) continue;
    scored.sort((x, y) => y.s - x.s || (x.p < y.p ? -1 : 1));
    anchors++;
    for (const { p } of scored.slice(0, k)) {
      const r = c.rate(p);
      co += r;
      shown++;
      if (r >= threshold) hits++;
    }
  }
  console.log(
    `${label.padEnd(56)} p@${k} ${(hits / shown).toFixed(3)} co ${(co / shown).toFixed(3)} anchors ${anchors} shown/anchor ${(shown / anchors).toFixed(2)}`,
  );
}

const variants = (await import(process.env.TUNE_VARIANTS ?? './tune-related-variants.ts')).default as (m: typeof measure) => void;
variants(measure);
