// Background jobs started through the Admin API: a refresh of cohorts and co-usage runs in
// this process after the call has answered; its progress is written to the jobs table (on
// each phase change and at most once a second), so any process can read it. One job of a
// kind runs at a time across processes (the table's partial unique index); a job whose
// process died is marked failed by the next start once its heartbeat is JOB_STALE_MS old.
import type { Db } from '../store/db.ts';
import { findJob, finishJob, insertRunningJob, listJobs, touchJob, updateJobProgress, type JobRow } from '../store/jobs.ts';
import { refreshAll, refreshChanged, type RefreshProgress } from '../ingest/refresh.ts';
import { outsideRequest } from '../store/query-limits.ts';
import { now } from '../clock.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { Job } from '../schemas/admin-activity.ts';
import { adminAction, type AdminActor } from './audit.ts';

const PROGRESS_EVERY_MS = 1_000;
/** A running job's heartbeat, written even while a phase reports no progress. */
const HEARTBEAT_MS = 30_000;
export const JOB_STALE_MS = 5 * 60_000;

/** The jobs running in this process, per database: awaited before the database closes. */
const running = new WeakMap<Db, Set<Promise<void>>>();

export function toJob(r: JobRow): Job {
  return {
    id: String(r.id), kind: r.kind as Job['kind'], status: r.status as Job['status'], params: (r.params ?? {}) as Record<string, unknown>,
    phase: r.phase, done: r.done, total: r.total, result: (r.result ?? null) as Record<string, unknown> | null, error: r.error,
    startedBy: r.started_by, startedAt: r.started_at.toISOString(), finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  };
}

/** Starts a refresh in the background and answers the running job at once (409 while another runs). */
export async function startRefreshJob(db: Db, actor: AdminActor, input: { full?: boolean | undefined }): Promise<Job> {
  const full = input.full ?? false;
  const startedBy = actor === 'cli' ? 'cli' : actor.clientId;
  const job = await adminAction(db, actor, 'admin.jobs.refresh', { full }, async () => {
    const { started, running: other } = await insertRunningJob(db, { kind: 'refresh', params: { full }, startedBy }, JOB_STALE_MS);
    if (!started) throw new ConflictError(`A refresh job is already running (job ${other?.id ?? '?'}); read its progress with GET /api/admin/jobs/${other?.id ?? ''}`);
    return started;
  }, (j) => ({ jobId: String(j.id) }));
  const done = outsideRequest(() => runRefresh(db, Number(job.id), full));
  let set = running.get(db);
  if (!set) running.set(db, (set = new Set()));
  set.add(done);
  void done.finally(() => set.delete(done));
  return toJob(job);
}

async function runRefresh(db: Db, id: number, full: boolean): Promise<void> {
  // Yield first: the call answers before the refresh takes the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  let lastPhase = '';
  let lastWrite = 0;
  let writes = Promise.resolve();
  const onProgress = (p: RefreshProgress) => {
    const t = now();
    if (p.phase === lastPhase && t - lastWrite < PROGRESS_EVERY_MS && p.done !== p.total) return;
    lastPhase = p.phase;
    lastWrite = t;
    writes = writes.then(() => updateJobProgress(db, id, p)).catch(() => {
      /* progress is informative: a lost update is overwritten by the next */
    });
  };
  const heartbeat = setInterval(() => void touchJob(db, id).catch(() => {}), HEARTBEAT_MS).unref();
  try {
    const result = await (full ? refreshAll : refreshChanged)(db, { onProgress });
    await writes;
    await finishJob(db, id, { status: 'succeeded', result: { ...result } });
  } catch (err) {
    await writes;
    await finishJob(db, id, { status: 'failed', error: err instanceof Error ? err.message : String(err) }).catch(() => {});
  } finally {
    clearInterval(heartbeat);
  }
}

/** Waits for this process's jobs on `db` (called before the database closes). */
export async function settleJobs(db: Db): Promise<void> {
  await Promise.allSettled([...(running.get(db) ?? [])]);
}

export async function getJob(db: Db, jobId: string): Promise<Job> {
  const row = await findJob(db, jobId);
  if (!row) throw new NotFoundError(`jobId: no job '${jobId}'`);
  return toJob(row);
}

export async function listAdminJobs(db: Db, kind: string | undefined, page: number, size: number): Promise<Page<Job>> {
  const { rows, total } = await listJobs(db, kind, page * size, size);
  return toPage(rows.map(toJob), total, size);
}
