// Installs from observations: the fold of the observation log into one install per company
// and product. `foldInstalls` is the executable specification; the SQL that derives installs
// from the stored log (store/observations.ts deriveInstallsFromLog) must give the same rows,
// and a test holds the two equal on random logs. The demo world folds its observations here,
// in memory, instead of asking the database.
import { traceOf } from './evidence.ts';
import { logKeyOf, type Observation } from './observations.ts';

const DAY_MS = 86_400_000;

/** What the log says about one install: the input of the in-use confidence (intelligence/confidence.ts). */
export interface InstallSignal {
  /** Time of the first verification (ms since epoch). */
  firstVerified: number;
  /** Time of the latest verification (ms since epoch). */
  lastVerified: number;
  /** Observations: distinct evidence items per day. */
  hitCount: number;
  /** 1-100: how strongly the recent traces say it is used (foldInstalls). */
  intensity: number;
  /** Number of distinct evidence sources that saw the product. */
  sourceCount: number;
}

export interface FoldedInstall extends Omit<InstallSignal, 'sourceCount'> {
  companyId: string;
  productId: string;
  /** The distinct evidence sources, sorted. */
  sources: string[];
}

interface FoldWindow {
  /** The day the window ends (ms since epoch). */
  asOf: number;
  /** A pair last seen more than this many days before asOf is not in use: no install. Traces older than this before the last observation do not count in intensity. */
  staleAfterDays: number;
}

/** The weights the log keeps are float4 (`real`): the fold computes with the same values. */
const stored = Math.fround;
/** A weight of 1 would make the product certain and ln(0) infinite: capped as the SQL caps it (at 0.999 as a `real`). */
const WEIGHT_CAP = stored(0.999);

/**
 * Folds observations into installs as the observation log derives them. The log keeps an
 * evidence item once per day (the first one seen). Per company and product:
 * - first and last verified: the first and last observation;
 * - hit count: the number of observations;
 * - sources: the distinct evidence sources;
 * - intensity: 100 × the noisy-OR of each trace's strongest weight (traceOf: the rules of one
 *   DNS record type are one trace) over the traces seen within `staleAfterDays` before the last
 *   observation, between 1 and 100.
 * A pair last seen before `asOf − staleAfterDays` is not in use and gives no install. Without a
 * window every observation counts and every pair is an install (the demo world: its old traces
 * stay installs whose age says they are stale).
 */
export function foldInstalls(
  observations: Iterable<Pick<Observation, 'companyId' | 'productId' | 'seenAt' | 'evidenceHash' | 'source' | 'ruleId' | 'weight'>>,
  window?: FoldWindow,
): FoldedInstall[] {
  type Seen = { seenAt: number; trace: string; weight: number };
  const logged = new Set<string>();
  const pairs = new Map<string, { companyId: string; productId: string; seen: Seen[]; sources: Set<string> }>();
  for (const o of observations) {
    const key = logKeyOf(o);
    if (logged.has(key)) continue;
    logged.add(key);
    const pairKey = `${o.companyId}|${o.productId}`;
    let pair = pairs.get(pairKey);
    if (!pair) pairs.set(pairKey, (pair = { companyId: o.companyId, productId: o.productId, seen: [], sources: new Set() }));
    pair.seen.push({ seenAt: o.seenAt.getTime(), trace: traceOf(o), weight: stored(o.weight) });
    pair.sources.add(o.source);
  }
  const out: FoldedInstall[] = [];
  for (const { companyId, productId, seen, sources } of pairs.values()) {
    let first = Infinity,
      last = -Infinity;
    for (const s of seen) {
      first = Math.min(first, s.seenAt);
      last = Math.max(last, s.seenAt);
    }
    if (window && last < window.asOf - window.staleAfterDays * DAY_MS) continue;
    const since = window ? last - window.staleAfterDays * DAY_MS : -Infinity;
    const strongest = new Map<string, number>();
    for (const s of seen) if (s.seenAt >= since) strongest.set(s.trace, Math.max(strongest.get(s.trace) ?? 0, s.weight));
    let logMiss = 0;
    for (const w of strongest.values()) logMiss += Math.log(1 - Math.min(w, WEIGHT_CAP));
    const strength = 1 - Math.exp(logMiss);
    out.push({
      companyId,
      productId,
      firstVerified: first,
      lastVerified: last,
      hitCount: seen.length,
      intensity: Math.max(1, Math.min(100, Math.round(100 * strength))),
      sources: [...sources].sort(),
    });
  }
  return out.sort((a, b) =>
    a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
}

/**
 * "Now" for recency: the newest verification in the data, capped at the wall clock. The
 * evidence ages relative to when it was collected, so a dataset imported once and left alone
 * keeps its verdicts instead of decaying day by day until everything looks unused.
 */
export function evidenceAsOf(newestVerification: Date | null, now: Date): Date {
  return newestVerification && newestVerification < now ? newestVerification : now;
}
