// The refresh job: materializes, per company, the in-use stack, the Default cohort, the
// competitors and the Aspirational cohort, and the global co-usage statistics behind related
// products.
// Loads the population's compact features once, computes in batches in Node (pure code in
// intelligence/), writes each batch in its own transaction, records the run and its
// parameters in refresh_runs. Run after every import and after seeding.
import { withinTransaction, type Transactional, type Tx } from '../db/db.ts';
import { buildPopulation, type CompanyInput, type Population } from '../intelligence/features.ts';
import { BlockIndex, computeCohorts, DEFAULT_COHORT_PARAMS, FirstStage, type CohortParams } from '../intelligence/cohorts.ts';
import { computeCoUsage } from '../intelligence/cousage.ts';
import { CONFIDENCE_CALIBRATION, CONFIDENCE_COEFFICIENTS, isInUse } from '../intelligence/confidence.ts';
import { SimilarityProbe, WEIGHTS } from '../intelligence/similarity.ts';
import { evidenceAsOf } from '../technographics/installs.ts';
import { nowDate } from '../clock.ts';
import {
  companiesToRefresh,
  createRefreshPartitions,
  finishRefreshPartition,
  recordPartitionProgress,
  refreshRun,
  takeRefreshPartition,
  finishRefreshRun,
  newestVerification,
  pendingChanges,
  settlePendingChanges,
  forEachInstallSignal,
  latestRefreshRun,
  loadCompanyFeatures,
  loadProductCategories,
  replaceCoUsage,
  replaceComputedCohorts,
  startRefreshRun,
  type CohortRow,
} from '../store/intelligence.ts';
import { refreshObserver } from '../telemetry/metrics.ts';

/** Companies scored between two turns of the event loop (about 20-40 ms of work). */
const YIELD_EVERY = 50;

export type RefreshPhase = 'load' | 'cohorts' | 'cousage';

export interface RefreshProgress {
  phase: RefreshPhase;
  done: number;
  total: number;
}

interface RefreshOptions {
  onProgress?: (progress: RefreshProgress) => void;
  cohortParams?: Partial<CohortParams>;
  /** Companies per write transaction. */
  batchSize?: number;
  /** Overrides the as-of date recency is measured from (tests, evaluation). */
  asOf?: Date;
  /**
   * Started once the population is read, before the cohorts are computed: a bulk load builds
   * its indexes here, which the database runs while this thread computes. The cohort writes
   * start when it has finished (a transaction's statements go one at a time), computed batches
   * waiting meanwhile (writesAhead).
   */
  besideComputing?: () => Promise<void>;
  /**
   * Computed batches that may wait for their write before the computation waits for the oldest
   * (default 1: one batch computed while the previous is written). More lets the computation
   * run on while the database is busy with besideComputing's work; each holds a batch's rows.
   */
  writesAhead?: number;
}

export interface RefreshResult {
  runId: number;
  kind: 'full' | 'incremental';
  companies: number;
  refreshed: number;
  cohortRows: number;
  asOf: string;
  timingsMs: Record<RefreshPhase, number>;
}

/** Recomputes every company's cohorts and the co-usage statistics (settling every pending change). */
export async function refreshAll(db: Transactional, options: RefreshOptions = {}): Promise<RefreshResult> {
  const pending = await pendingChanges(db);
  return run(db, 'full', null, options, pending.seqs);
}

/**
 * Recomputes the cohorts of the given companies against the current population (their
 * peers' own cohorts are left for the next full refresh) and the co-usage statistics.
 */
export function refreshCompanies(db: Transactional, companyIds: string[], options: RefreshOptions = {}): Promise<RefreshResult> {
  return run(db, 'incremental', companyIds, options);
}

/**
 * Incremental when a full run exists, full otherwise. The incremental run takes the companies
 * imports marked as changed (refresh_pending, read before the population is loaded, so the
 * load sees every change it settles), those whose rows changed since the last run began
 * (writers other than imports), and those never computed.
 */
export async function refreshChanged(db: Transactional, options: RefreshOptions = {}): Promise<RefreshResult> {
  const last = await latestRefreshRun(db);
  if (!last) return refreshAll(db, options);
  const pending = await pendingChanges(db);
  const changed = new Set([...pending.companyIds, ...(await companiesToRefresh(db, last.startedAt))]);
  return run(db, 'incremental', [...changed].sort(), options, pending.seqs);
}

/**
 * Cohort batches a refresh inside a bulk load computes ahead of its writes: enough to cover the
 * world's index builds queued before them (2-3 s on the embedded default world, 5-6 batches).
 */
const BULK_LOAD_WRITES_AHEAD = 8;

/**
 * The first refresh of a world seedWorld has just written, inside its bulk load (seedWorld's
 * afterLoad): the database builds the world's indexes while this thread computes the cohorts,
 * whose writes queue behind them.
 */
export function refreshInBulkLoad(tx: Tx, restoreWorldIndexes: () => Promise<void>, options: RefreshOptions = {}): Promise<RefreshResult> {
  return refreshAll(withinTransaction(tx), { ...options, besideComputing: restoreWorldIndexes, writesAhead: BULK_LOAD_WRITES_AHEAD });
}

interface LoadedPopulation {
  pop: Population;
  asOf: Date;
  installs: number;
  inUse: number;
}

/** Loads companies, products and install evidence; keeps the installs whose evidence says in use. */
export async function loadPopulation(db: Transactional, asOf: Date): Promise<LoadedPopulation> {
  const [companies, products] = await Promise.all([loadCompanyFeatures(db), loadProductCategories(db)]);
  const byId = new Map<string, CompanyInput>();
  const inputs: CompanyInput[] = companies.map((c) => {
    const input = { ...c, products: [] as string[] };
    byId.set(c.id, input);
    return input;
  });
  const asOfMs = asOf.getTime();
  let installs = 0,
    inUse = 0;
  await forEachInstallSignal(db, (rows) => {
    for (const [companyId, productId, lastMs, firstMs, hitCount, intensity, sourceCount] of rows) {
      installs++;
      if (!isInUse({ lastVerified: lastMs, firstVerified: firstMs, hitCount, intensity, sourceCount }, asOfMs)) continue;
      inUse++;
      byId.get(companyId)?.products.push(productId);
    }
  });
  return { pop: buildPopulation(inputs, products), asOf, installs, inUse };
}

async function run(
  db: Transactional,
  kind: 'full' | 'incremental',
  only: string[] | null,
  options: RefreshOptions,
  settles: number[] = [],
): Promise<RefreshResult> {
  // /metrics: running, progress per phase, runs by outcome.
  const observed = refreshObserver(kind);
  try {
    const result = await runObserved(db, kind, only, { ...options, onProgress: (p) => (observed.progress(p), options.onProgress?.(p)) }, settles);
    observed.end(true);
    return result;
  } catch (err) {
    observed.end(false);
    throw err;
  }
}

async function runObserved(
  db: Transactional,
  kind: 'full' | 'incremental',
  only: string[] | null,
  options: RefreshOptions,
  settles: number[],
): Promise<RefreshResult> {
  const params = { ...DEFAULT_COHORT_PARAMS, ...options.cohortParams };
  const progress = options.onProgress ?? (() => {});
  const timings: Record<RefreshPhase, number> = { load: 0, cohorts: 0, cousage: 0 };
  const asOf = options.asOf ?? evidenceAsOf(await newestVerification(db), nowDate());
  const runParams: Record<string, unknown> = {
    asOf: asOf.toISOString(),
    cohorts: params,
    weights: WEIGHTS,
    confidence: CONFIDENCE_COEFFICIENTS,
    calibration: CONFIDENCE_CALIBRATION,
  };
  const runId = await startRefreshRun(db, kind, runParams);

  let t = Date.now();
  progress({ phase: 'load', done: 0, total: 1 });
  const loaded = await loadPopulation(db, asOf);
  const { pop } = loaded;
  progress({ phase: 'load', done: 1, total: 1 });
  timings.load = Date.now() - t;
  const beside = options.besideComputing?.() ?? Promise.resolve();
  beside.catch(() => {}); // surfaced by the first write, or the await at the end

  t = Date.now();
  const targets = only === null ? pop.ids.map((_, i) => i) : only.map((id) => pop.indexOf.get(id)).filter((i): i is number => i !== undefined);
  const cohortRows = await computeAndWriteCohorts(db, pop, targets, params, { ...options, onProgress: progress, besideComputing: () => beside });
  timings.cohorts = Date.now() - t;

  t = Date.now();
  progress({ phase: 'cousage', done: 0, total: 1 });
  const cousage = await writeCoUsage(db, pop);
  progress({ phase: 'cousage', done: 1, total: 1 });
  timings.cousage = Date.now() - t;

  const result: RefreshResult = {
    runId,
    kind,
    companies: pop.size,
    refreshed: targets.length,
    cohortRows,
    asOf: asOf.toISOString(),
    timingsMs: timings,
  };
  await beside;
  await finishRefreshRun(db, runId, {
    ...runParams,
    population: cousage.population,
    companies: pop.size,
    refreshed: targets.length,
    cohortRows,
    installs: loaded.installs,
    installsInUse: loaded.inUse,
    cousagePairs: cousage.pairs,
    timingsMs: timings,
  });
  await settlePendingChanges(db, settles);
  return result;
}

/**
 * Computes the cohorts of `targets` (indexes into the population) against the whole
 * population and writes them in batches, each batch written while the next is computed.
 * Returns the cohort rows written. A partition of a partitioned refresh runs the same.
 */
async function computeAndWriteCohorts(
  db: Transactional,
  pop: Population,
  targets: number[],
  params: CohortParams,
  options: Pick<RefreshOptions, 'batchSize' | 'writesAhead' | 'besideComputing'> & { onProgress?: (p: RefreshProgress) => void },
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  const progress = options.onProgress ?? (() => {});
  const index = new BlockIndex(pop);
  const probe = new SimilarityProbe(pop);
  const firstStage = new FirstStage(index, params);
  let cohortRows = 0;
  const writing: Promise<void>[] = [];
  const writesAhead = Math.max(1, options.writesAhead ?? 1);
  // The writes run one after another (one connection, or one transaction's client, never
  // given two statements at once), the first once the work beside the computation is done.
  let lastWrite: Promise<unknown> = options.besideComputing?.() ?? Promise.resolve();
  let failure: unknown;
  progress({ phase: 'cohorts', done: 0, total: targets.length });
  for (let start = 0; start < targets.length; start += batchSize) {
    const batch = targets.slice(start, start + batchSize);
    const rows: CohortRow[] = [];
    for (let j = 0; j < batch.length; j++) {
      // The previous batch's write is several statements, each sent when the event loop
      // turns: yield now and then, or it would only progress while this loop waits for it.
      if (j > 0 && j % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      const self = batch[j]!;
      const sets = computeCohorts(index, self, params, probe, firstStage);
      for (const kindName of ['default', 'competitors', 'aspirational'] as const) {
        sets[kindName].forEach((s, r) => rows.push({ companyId: pop.ids[self]!, kind: kindName, memberId: pop.ids[s.member]!, score: s.score, rank: r + 1 }));
      }
    }
    // Write this batch while the next one is computed: on PostgreSQL the write runs in the
    // server process, so the two overlap on a multi-core machine. writesAhead writes in flight.
    while (writing.length >= writesAhead) await writing.shift();
    if (failure) throw failure;
    const done = Math.min(targets.length, start + batch.length);
    // The rejection is caught at once (and rethrown above) so it never goes unhandled while computing.
    const stacks = batch.map((i) => Array.from(pop.stacks[i]!, (p) => pop.productIds[p]!));
    const write = lastWrite.then(() =>
      replaceComputedCohorts(
        db,
        batch.map((i) => pop.ids[i]!),
        rows,
        stacks,
      ),
    );
    lastWrite = write;
    writing.push(
      write.then(
        () => progress({ phase: 'cohorts', done, total: targets.length }),
        (err: unknown) => void (failure ??= err),
      ),
    );
    cohortRows += rows.length;
  }
  await Promise.all(writing);
  if (failure) throw failure;
  return cohortRows;
}

/** Counts co-usage over the population's in-use stacks and replaces the statistics; returns the population counted and the pairs written. */
async function writeCoUsage(db: Transactional, pop: Population): Promise<{ population: number; pairs: number }> {
  const stats = computeCoUsage(pop.stacks, pop.productIds.length);
  const users = [...stats.users].flatMap((n, p) => (n > 0 ? [{ productId: pop.productIds[p]!, companies: n }] : []));
  const pairs = [...stats.pairs].flatMap(([a, list]) => list.map(([b, n]) => ({ anchorId: pop.productIds[a]!, productId: pop.productIds[b]!, together: n })));
  await replaceCoUsage(db, users, pairs);
  return { population: stats.population, pairs: pairs.length };
}

// A full refresh in partitions ---------------------------------------------------------------
//
// The same computation as refreshAll, split by company: each partition is the companies whose
// id hashes to it, scored against the whole population (a company's peers can be anywhere),
// so any number of worker processes, on one machine or many, give the same cohorts as one
// process. Each partition loads the population itself at the run's recorded as-of date; the
// run's last partition to finish writes the co-usage statistics and finishes the run.

/** The partition of a company id among `parts`: FNV-1a of its UTF-16 code units, stable across processes and versions. */
export function partitionOf(companyId: string, parts: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < companyId.length; i++) {
    h ^= companyId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % parts;
}

/** Records a full run split into `parts` partitions (all pending) and returns its id; the caller queues one job per partition. */
export async function startPartitionedRefresh(db: Transactional, parts: number, options: Pick<RefreshOptions, 'asOf' | 'cohortParams'> = {}): Promise<number> {
  const params = { ...DEFAULT_COHORT_PARAMS, ...options.cohortParams };
  const asOf = options.asOf ?? evidenceAsOf(await newestVerification(db), nowDate());
  // Changes marked before the run starts are settled by it: every partition loads the
  // population after this point, so it sees them.
  const pending = await pendingChanges(db);
  return db.transaction(async (tx) => {
    const runId = await startRefreshRun(tx, 'full', {
      asOf: asOf.toISOString(),
      cohorts: params,
      weights: WEIGHTS,
      confidence: CONFIDENCE_COEFFICIENTS,
      calibration: CONFIDENCE_CALIBRATION,
      partitions: parts,
      settles: pending.seqs,
    });
    await createRefreshPartitions(tx, runId, parts);
    return runId;
  });
}

/**
 * Computes and writes one partition of a run as `worker`; the run's last partition also writes
 * co-usage and finishes the run. Taking a partition again (its worker died) recomputes it
 * whole: each company's cohorts are replaced, so a half-written attempt leaves nothing behind.
 * Returns false when there was nothing to do (the partition was done, or the run is unknown).
 */
export async function refreshPartition(
  db: Transactional,
  runId: number,
  part: number,
  worker: string,
  options: Pick<RefreshOptions, 'batchSize' | 'onProgress'> = {},
): Promise<boolean> {
  const run = await refreshRun(db, runId);
  if (!run || run.computedAt) return false;
  const taken = await takeRefreshPartition(db, runId, part, worker);
  if (!taken) return false;
  const asOf = new Date(String(run.params.asOf));
  const params = { ...DEFAULT_COHORT_PARAMS, ...(run.params.cohorts as Partial<CohortParams>) };
  const loaded = await loadPopulation(db, asOf);
  const { pop } = loaded;
  const targets = pop.ids.flatMap((id, i) => (partitionOf(id, taken.parts) === part ? [i] : []));
  await recordPartitionProgress(db, runId, part, worker, 0, targets.length);
  // Progress rows are written one after another, so a late one never overwrites the last.
  let progressWrites = Promise.resolve();
  const cohortRows = await computeAndWriteCohorts(db, pop, targets, params, {
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    onProgress: (p) => {
      options.onProgress?.(p);
      progressWrites = progressWrites.then(() => recordPartitionProgress(db, runId, part, worker, p.done, p.total)).catch(() => {});
    },
  });
  await progressWrites;
  await recordPartitionProgress(db, runId, part, worker, targets.length, targets.length);
  const { last } = await finishRefreshPartition(db, runId, part, worker);
  if (!last) return true;
  const cousage = await writeCoUsage(db, pop);
  await finishRefreshRun(db, runId, {
    ...run.params,
    population: cousage.population,
    companies: pop.size,
    refreshed: pop.size,
    installs: loaded.installs,
    installsInUse: loaded.inUse,
    cousagePairs: cousage.pairs,
    lastPartitionCohortRows: cohortRows,
  });
  await settlePendingChanges(db, (run.params.settles as number[] | undefined) ?? []);
  return true;
}
