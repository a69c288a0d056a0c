// Jobs, with their progress in the jobs table (written on each phase change and at most
// once a second), so any process can read it through the Admin API:
// - a refresh of cohorts and co-usage started through the Admin API runs in this process
//   after the call has answered; one refresh runs at a time across processes (the
//   table's partial unique index);
// - every import (`stacklens import`, runImportJob) is recorded while it runs, with its
//   summary or its failure at the end; several may run at once;
// - a detection of never-observed accounts (enrichment with observeMissing) runs in this
//   process after the call has answered: each domain fetched and matched as POST /detect
//   does, the detections recorded and derived as `stacklens observe` does.
// A job whose process died is marked failed by the next start of its kind once its
// heartbeat is JOB_STALE_MS old.
import type { Db } from '../db/db.ts';
import type { Readable } from 'node:stream';
import { findJob, finishJob, insertConcurrentJob, insertRunningJob, listJobs, touchJob, updateJobProgress, type JobRow } from '../store/jobs.ts';
import { refreshAll, refreshChanged, type RefreshProgress, type RefreshResult } from '../ingest/refresh.ts';
import { importFile, type ImportKind, type ImportOptions, type ImportProgress, type ImportSummary } from '../ingest/import/index.ts';
import { outsideRequest } from '../db/query-limits.ts';
import { now } from '../clock.ts';
import { AppError, ConflictError, NotFoundError } from '../errors.ts';
import { detectTechnologies, type DetectDeps } from './detect.ts';
import { deriveInstalls, recordDetections } from './observations.ts';
import type { SiteResult } from '../schemas/detect.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { Job } from '../schemas/admin-activity.ts';
import { adminAction, type AdminActor } from './audit.ts';

const PROGRESS_EVERY_MS = 1_000;
/** A running job's heartbeat, written even while a phase reports no progress. */
const HEARTBEAT_MS = 30_000;
const JOB_STALE_MS = 5 * 60_000;

/** The jobs running in this process, per database: awaited before the database closes. */
const running = new WeakMap<Db, Set<Promise<void>>>();
/** Aborted when the database is about to close: jobs that can stop between steps do, and resume at the next start. */
const stopping = new WeakMap<Db, AbortController>();

/** Runs a job of this process in the background, outside any request's limits; the database waits for it before it closes. */
export function runInBackground(db: Db, fn: (signal: AbortSignal) => Promise<void>): void {
  let stop = stopping.get(db);
  if (!stop || stop.signal.aborted) stopping.set(db, (stop = new AbortController()));
  const signal = stop.signal;
  const done = outsideRequest(() => fn(signal));
  let set = running.get(db);
  if (!set) running.set(db, (set = new Set()));
  set.add(done);
  void done.finally(() => set.delete(done));
}

function toJob(r: JobRow): Job {
  return {
    id: String(r.id),
    kind: r.kind as Job['kind'],
    status: r.status as Job['status'],
    params: (r.params ?? {}) as Record<string, unknown>,
    phase: r.phase,
    done: r.done,
    total: r.total,
    result: (r.result ?? null) as Record<string, unknown> | null,
    error: r.error,
    startedBy: r.started_by,
    startedAt: r.started_at.toISOString(),
    finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  };
}

/** Starts a refresh in the background and answers the running job at once (409 while another runs). */
export async function startRefreshJob(db: Db, actor: AdminActor, input: { full?: boolean | undefined }): Promise<Job> {
  const full = input.full ?? false;
  const startedBy = actor === 'cli' ? 'cli' : actor.clientId;
  const job = await adminAction(
    db,
    actor,
    'admin.jobs.refresh',
    { full },
    async () => {
      const { started, running: other } = await insertRunningJob(db, { kind: 'refresh', params: { full }, startedBy }, JOB_STALE_MS);
      if (!started)
        throw new ConflictError(`A refresh job is already running (job ${other?.id ?? '?'}); read its progress with GET /api/admin/jobs/${other?.id ?? ''}`);
      return started;
    },
    (j) => ({ jobId: String(j.id) }),
  );
  runInBackground(db, () => runRefresh(db, Number(job.id), full));
  return toJob(job);
}

/**
 * Writes a job's progress: each phase change at once, then at most once a second, in order;
 * `flush` waits for the writes in flight. `paused` holds writes back while the database's
 * one connection is taken by the job itself (an import on the embedded database).
 */
export function progressWriter(db: Db, id: number, paused: () => boolean = () => false) {
  let lastPhase = '';
  let lastWrite = 0;
  let writes = Promise.resolve();
  const heartbeat = setInterval(() => {
    if (!paused()) void touchJob(db, id).catch(() => {});
  }, HEARTBEAT_MS).unref();
  return {
    report(p: { phase: string; done: number; total: number }) {
      const t = now();
      if (paused() || (p.phase === lastPhase && t - lastWrite < PROGRESS_EVERY_MS && p.done !== p.total)) return;
      lastPhase = p.phase;
      lastWrite = t;
      writes = writes
        .then(() => updateJobProgress(db, id, p))
        .catch(() => {
          /* progress is informative: a lost update is overwritten by the next */
        });
    },
    async flush() {
      clearInterval(heartbeat);
      await writes;
    },
  };
}

async function runRefresh(db: Db, id: number, full: boolean): Promise<void> {
  // Yield first: the call answers before the refresh takes the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  const progress = progressWriter(db, id);
  try {
    const result = await (full ? refreshAll : refreshChanged)(db, { onProgress: (p) => progress.report(p) });
    await progress.flush();
    await finishJob(db, id, { status: 'succeeded', result: { ...result } });
  } catch (err) {
    await progress.flush();
    await finishJob(db, id, { status: 'failed', error: err instanceof Error ? err.message : String(err) }).catch(() => {});
  }
}

interface ImportJobInput {
  kind: ImportKind;
  /** A file path, or a byte stream (stdin) named by `file`. */
  source: string | Readable;
  /** The file as the job's parameters name it (`-` for standard input). */
  file: string;
  options?: ImportOptions;
  /** 'cli', or the client id of whoever started it. */
  startedBy: string;
  /** Refresh the derived data after a committed import that changed rows (a phase of the job). */
  refresh?: boolean;
  onRefreshProgress?: (p: RefreshProgress) => void;
}

interface ImportJobOutcome {
  jobId: string;
  summary: ImportSummary;
  refresh?: RefreshResult;
}

const KIB = 1024;

/**
 * One import, recorded as a job of kind 'import': running while it reads (progress: KiB
 * of the file read, of its size; 0 when reading a stream), checks and writes, then
 * 'refreshing' when it refreshes the derived data; succeeded with the counts, or failed
 * with why (rows rejected: nothing written; or the error). The import's own result or
 * error is returned or thrown as without the job. On the embedded database the import
 * holds its one connection, so progress is written only between phases there.
 */
export async function runImportJob(db: Db, input: ImportJobInput): Promise<ImportJobOutcome> {
  const options = input.options ?? {};
  const params = { kind: input.kind, file: input.file, ...(options.format ? { format: options.format } : {}) };
  const job = await insertConcurrentJob(db, { kind: 'import', params, startedBy: input.startedBy }, JOB_STALE_MS);
  const id = Number(job.id);
  let importing = false;
  const progress = progressWriter(db, id, () => importing && db.engine === 'pglite');
  const onProgress = (p: ImportProgress) => {
    options.onProgress?.(p);
    // 'done' follows a COMMIT or a ROLLBACK alike: the job's status says which.
    if (p.phase !== 'done') progress.report({ phase: p.phase, done: Math.floor(p.bytesRead / KIB), total: Math.ceil((p.totalBytes ?? 0) / KIB) });
  };
  let summary: ImportSummary;
  try {
    importing = true;
    summary = await importFile(db, input.kind, input.source, { ...options, onProgress });
  } catch (err) {
    importing = false;
    await progress.flush();
    await finishJob(db, id, { status: 'failed', error: err instanceof Error ? err.message : String(err) }).catch(() => {});
    throw err;
  }
  importing = false;
  const counts = {
    committed: summary.committed,
    rowsRead: summary.rowsRead,
    inserted: summary.inserted,
    updated: summary.updated,
    unchanged: summary.unchanged,
    deleted: summary.deleted,
    rejected: summary.rejected,
    errorCount: summary.errorCount,
    elapsedMs: Math.round(summary.elapsedMs),
  };
  if (!summary.committed) {
    await progress.flush();
    await finishJob(db, id, {
      status: 'failed',
      result: counts,
      error: `${summary.rejected} of ${summary.rowsRead} rows rejected (${summary.errorCount} errors): nothing written`,
    });
    return { jobId: String(id), summary };
  }
  let refresh: RefreshResult | undefined;
  if (input.refresh && summary.inserted + summary.updated + summary.deleted > 0) {
    try {
      refresh = await refreshChanged(db, {
        onProgress: (p) => {
          input.onRefreshProgress?.(p);
          progress.report({ phase: `refreshing: ${p.phase}`, done: p.done, total: p.total });
        },
      });
    } catch (err) {
      await progress.flush();
      const message = err instanceof Error ? err.message : String(err);
      await finishJob(db, id, { status: 'failed', result: counts, error: `imported, but the refresh failed: ${message}` }).catch(() => {});
      throw err;
    }
  }
  await progress.flush();
  await finishJob(db, id, {
    status: 'succeeded',
    result: {
      ...counts,
      ...(refresh ? { refresh: { kind: refresh.kind, runId: refresh.runId, refreshed: refresh.refreshed, companies: refresh.companies } } : {}),
    },
  });
  return { jobId: String(id), summary, ...(refresh ? { refresh } : {}) };
}

/** Waits for this process's jobs on `db` (called before the database closes). */
export async function settleJobs(db: Db): Promise<void> {
  stopping.get(db)?.abort();
  await Promise.allSettled([...(running.get(db) ?? [])]);
}

export async function getJob(db: Db, jobId: string): Promise<Job> {
  const row = await findJob(db, jobId);
  if (!row) throw new NotFoundError(`jobId: no job '${jobId}'`);
  return toJob(row);
}

/** A job the client started itself (else 404, as for a job that does not exist: ids are not secrets, jobs are). */
export async function getClientJob(db: Db, clientId: string, jobId: string): Promise<Job> {
  const row = await findJob(db, jobId);
  if (!row || row.started_by !== clientId) throw new NotFoundError(`jobId: no job '${jobId}' of this client`);
  return toJob(row);
}

export async function listAdminJobs(db: Db, kind: string | undefined, page: number, size: number): Promise<Page<Job>> {
  const { rows, total } = await listJobs(db, kind, page * size, size);
  return toPage(rows.map(toJob), total, size);
}

/** Sites recorded per transaction by a detection job. */
const OBSERVE_SITES_PER_BATCH = 100;

/**
 * Starts the detection of domains never observed (enrichment with observeMissing) in the
 * background and answers the running job at once. Each domain is fetched and matched as POST
 * /detect does (detectTechnologies: the private-address guard, robots.txt, byte and time
 * limits), one at a time; a domain that cannot be fetched is counted, not fatal. The sites are
 * recorded in the observation log (a company is added for an unknown domain), their installs
 * derived and the derived data refreshed, as `stacklens observe` does.
 */
export async function startObserveJob(db: Db, deps: DetectDeps, domains: readonly string[], startedBy: string, staleAfterDays: number): Promise<Job> {
  const job = await insertConcurrentJob(db, { kind: 'observe', params: { domains: [...domains] }, startedBy }, JOB_STALE_MS);
  const done = outsideRequest(() => runObserve(db, Number(job.id), deps, domains, staleAfterDays));
  let set = running.get(db);
  if (!set) running.set(db, (set = new Set()));
  set.add(done);
  void done.finally(() => set.delete(done));
  return toJob(job);
}

async function runObserve(db: Db, id: number, deps: DetectDeps, domains: readonly string[], staleAfterDays: number): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const progress = progressWriter(db, id);
  const runId = `observe_${id}`;
  const failures: Record<string, string> = {};
  const counts = { detected: 0, failed: 0, observations: 0, added: 0, companiesCreated: 0, installsChanged: 0, refreshed: 0 };
  const companies = new Set<string>();
  let pending: SiteResult[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const r = await recordDetections(db, pending, { source: 'crawl', runId });
    pending = [];
    counts.observations += r.observations;
    counts.added += r.added;
    counts.companiesCreated += r.companiesCreated;
    for (const c of r.companyIds) companies.add(c);
  };
  try {
    for (const [i, domain] of domains.entries()) {
      progress.report({ phase: 'detecting', done: i, total: domains.length });
      try {
        pending.push(await detectTechnologies({ url: domain }, deps));
        counts.detected++;
      } catch (err) {
        counts.failed++;
        // The reason a person reads (a 4xx's message); anything else is said without its details.
        failures[domain] = err instanceof AppError ? err.message.slice(0, 300) : 'detection failed';
      }
      if (pending.length >= OBSERVE_SITES_PER_BATCH) await flush();
    }
    progress.report({ phase: 'recording', done: domains.length, total: domains.length });
    await flush();
    const derived = await deriveInstalls(db, { companyIds: [...companies], staleAfterDays });
    counts.installsChanged = derived.upserted;
    if (companies.size > 0) {
      progress.report({ phase: 'refreshing', done: 0, total: 1 });
      counts.refreshed = (await refreshChanged(db)).refreshed;
    }
    await progress.flush();
    await finishJob(db, id, { status: 'succeeded', result: { ...counts, failures } });
  } catch (err) {
    await progress.flush();
    await finishJob(db, id, { status: 'failed', result: { ...counts, failures }, error: err instanceof Error ? err.message : String(err) }).catch(() => {});
  }
}
