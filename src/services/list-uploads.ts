// Large account-list uploads as background jobs (kind 'list_upload', in the jobs table like
// refreshes and imports): the upload is kept, read and checked row by row, matched in batches
// committed to a staging table with the job's progress, and published as the list's next
// version in one transaction at the end — readers see the whole version or none of it. A
// process that stops (or dies) leaves the job running; the next start resumes it after the
// last committed batch. A bad row fails the job naming its line and field; a cancelled or
// failed upload leaves nothing behind.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/db.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.ts';
import { readRecords, type RecordError } from '../records.ts';
import type { AccountList, ListUploadInput, ListUploadJob } from '../schemas/lists.ts';
import { findClient } from '../store/access.ts';
import { claimListUploads, findJob, finishJob, insertListUploadJob, releaseJob, type JobRow } from '../store/jobs.ts';
import {
  deleteUpload,
  findList,
  findUpload,
  insertList,
  insertUpload,
  lockList,
  publishStaged,
  stageBatch,
  uploadDone,
  type UploadRow,
} from '../store/lists.ts';
import { progressWriter, runInBackground } from './jobs.ts';
import { checkRecord, getList, matchRows, rowsError, uploadList, uploadTarget, type ParsedRow } from './lists.ts';

/** How large uploads are run: the row count from which an upload becomes a job, and the rows matched per committed batch. */
interface ListJobSettings {
  asyncRows: number;
  batchRows: number;
}

/** Bad rows named in a failed job (as in a refused upload). */
const MAX_REPORTED = 10;
/** Characters of the upload handed to the parser at a time: parsing yields between them. */
const CHUNK_CHARS = 64 * 1024;
/** A running upload whose heartbeat is this old lost its process: another start takes it over. */
const UPLOAD_STALE_MS = 5 * 60_000;

/** Rows of an upload, estimated from its lines (the job's progress total before the rows are read). */
function estimateRows(format: 'csv' | 'jsonl', content: string): number {
  let n = 0;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) n++;
  if (content.length > 0 && !content.endsWith('\n')) n++;
  return Math.max(0, format === 'csv' ? n - 1 : n);
}

function chunks(content: string): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < content.length; i += CHUNK_CHARS) yield content.slice(i, i + CHUNK_CHARS);
    })(),
  );
}

async function toUploadJob(db: Db, job: JobRow, clientId: string): Promise<ListUploadJob> {
  const params = (job.params ?? {}) as { listId?: string };
  // While it runs, the rows committed so far (the job row's progress is written at most once a second).
  const done = job.status === 'running' ? ((await uploadDone(db, Number(job.id))) ?? job.done) : job.done;
  const result = (job.result ?? null) as { version?: number } | null;
  let list: AccountList | null = null;
  if (job.status === 'succeeded' && params.listId) list = await getList(db, clientId, params.listId).catch(() => null);
  return {
    id: String(job.id),
    status: job.status as ListUploadJob['status'],
    listId: params.listId ?? '',
    version: result?.version ?? null,
    phase: job.phase,
    done,
    total: job.total,
    error: job.error,
    list,
    startedAt: job.started_at.toISOString(),
    finishedAt: job.finished_at ? job.finished_at.toISOString() : null,
  };
}

/** Keeps the upload and records its job, running but not yet taken by any run. */
export async function queueListUpload(
  db: Db,
  clientId: string,
  existing: { id: string; name: string } | undefined,
  name: string,
  upload: { format: 'csv' | 'jsonl'; content: string },
): Promise<JobRow> {
  const listId = existing?.id ?? `lst_${randomBytes(8).toString('hex')}`;
  return db.transaction(async (tx) => {
    const row = await insertListUploadJob(tx, {
      params: { listId, name, format: upload.format, bytes: Buffer.byteLength(upload.content) },
      startedBy: clientId,
      total: estimateRows(upload.format, upload.content),
    });
    await insertUpload(tx, { jobId: Number(row.id), clientId, listId, newList: existing === undefined, name, format: upload.format, content: upload.content });
    return row;
  });
}

/**
 * Keeps the upload and starts its job: the answer (202) names the job; the list (a new one's
 * id is given now) gets its next version when the job succeeds.
 */
async function startListUpload(
  db: Db,
  clientId: string,
  existing: { id: string; name: string } | undefined,
  name: string,
  upload: { format: 'csv' | 'jsonl'; content: string },
  settings: ListJobSettings,
): Promise<ListUploadJob> {
  const job = await queueListUpload(db, clientId, existing, name, upload);
  runInBackground(db, (signal) => runListUpload(db, Number(job.id), { ...settings, signal }));
  return toUploadJob(db, job, clientId);
}

async function clientJob(db: Db, clientId: string, jobId: string): Promise<JobRow> {
  const job = /^\d{1,18}$/.test(jobId) ? await findJob(db, jobId) : undefined;
  if (!job || job.kind !== 'list_upload' || job.started_by !== clientId) throw new NotFoundError(`jobId: no list upload '${jobId}' of this client`);
  return job;
}

export async function getListUpload(db: Db, clientId: string, jobId: string): Promise<ListUploadJob> {
  return toUploadJob(db, await clientJob(db, clientId, jobId), clientId);
}

/** Cancels a running upload: the job fails as cancelled and its upload and staged rows are deleted. A finished job → 409. */
export async function cancelListUpload(db: Db, clientId: string, jobId: string): Promise<ListUploadJob> {
  await clientJob(db, clientId, jobId);
  await db.transaction(async (tx) => {
    const [job] = await tx.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1::bigint FOR UPDATE', [jobId]);
    if (job?.status !== 'running') throw new ConflictError(`jobId: the upload ${jobId} has already ${job?.status ?? 'ended'}; nothing to cancel`);
    await deleteUpload(tx, Number(jobId));
    await finishJob(tx, Number(jobId), { status: 'failed', error: 'cancelled: nothing was stored' });
  });
  return getListUpload(db, clientId, jobId);
}

interface RunOptions extends ListJobSettings {
  signal?: AbortSignal;
  /** Called after each committed batch (tests stop a run mid-way with it). */
  onBatch?: (p: { done: number; total: number }) => void;
}

/**
 * Runs (or resumes) one upload: reads it from the start, checking every row (a resumed run
 * re-checks the rows already staged so duplicates are still caught, without matching them
 * again), matches and stages the rest batch by batch, then publishes. Stops between batches
 * when `signal` aborts, leaving the job to be resumed.
 */
export async function runListUpload(db: Db, jobId: number, options: RunOptions): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const upload = await findUpload(db, jobId);
  if (!upload) return; // cancelled before it started
  const progress = progressWriter(db, jobId);
  const fail = async (error: string) => {
    await progress.flush();
    await db.transaction(async (tx) => {
      await deleteUpload(tx, jobId);
      await finishJob(tx, jobId, { status: 'failed', error });
    });
  };
  try {
    const client = await findClient(db, upload.clientId);
    if (!client) return await fail(`the client '${upload.clientId}' no longer exists`);
    const outcome = await stageAll(db, upload, client.plan, options, progress.report);
    if (outcome.kind === 'stopped') {
      await progress.flush();
      if (outcome.release) await releaseJob(db, jobId);
      return;
    }
    if (outcome.kind === 'failed') return await fail(outcome.error);
    progress.report({ phase: 'publishing', done: outcome.rows, total: outcome.rows });
    await progress.flush();
    await db.transaction(async (tx) => {
      const [job] = await tx.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1::bigint FOR UPDATE', [jobId]);
      if (job?.status !== 'running') return; // cancelled meanwhile
      if (upload.newList && !(await findList(tx, upload.clientId, upload.listId))) await insertList(tx, upload.listId, upload.clientId, upload.name);
      const head = await lockList(tx, upload.clientId, upload.listId);
      if (!head) throw new Error(`the list '${upload.listId}' was deleted while its upload ran`);
      const version = head.version + 1;
      const rows = await publishStaged(tx, upload, version);
      await finishJob(tx, jobId, { status: 'succeeded', result: { listId: upload.listId, version, rows } });
    });
  } catch (err) {
    await fail(err instanceof Error ? err.message : String(err)).catch(() => {});
  }
}

type StageOutcome = { kind: 'staged'; rows: number } | { kind: 'failed'; error: string } | { kind: 'stopped'; release: boolean };

async function stageAll(
  db: Db,
  upload: UploadRow,
  plan: { id: string; maxListRows: number },
  options: RunOptions,
  report: (p: { phase: string; done: number; total: number }) => void,
): Promise<StageOutcome> {
  const total = estimateRows(upload.format, upload.content);
  const errors: RecordError[] = [];
  const seen = new Map<string, number>();
  let rows = 0;
  let done = upload.rowsDone;
  let batch: ParsedRow[] = [];
  let batchLast = upload.lastLine;
  const flush = async (): Promise<StageOutcome | undefined> => {
    const matched = await matchRows(db, batch);
    const staged = await db.transaction((tx) => stageBatch(tx, upload.jobId, matched, batchLast));
    if (!staged) return { kind: 'stopped', release: false }; // cancelled
    done += batch.length;
    batch = [];
    report({ phase: 'matching', done, total: Math.max(total, done) });
    options.onBatch?.({ done, total });
    if (options.signal?.aborted) return { kind: 'stopped', release: true };
    return undefined;
  };
  report({ phase: 'matching', done, total });
  for await (const records of readRecords(chunks(upload.content), upload.format, { present: new Set<string>() })) {
    for (const e of records) {
      if ('error' in e) {
        errors.push(e.error);
        continue;
      }
      const row = checkRecord(e.line, e.values, errors);
      if (!row) continue;
      const first = seen.get(row.key);
      if (first !== undefined) {
        errors.push({ line: e.line, field: '(row)', message: `the same account as line ${first} (key '${row.key}')` });
        continue;
      }
      seen.set(row.key, e.line);
      if (++rows > plan.maxListRows)
        return {
          kind: 'failed',
          error: `The list has more than ${plan.maxListRows} rows, the most one list may hold on plan '${plan.id}' (maxListRows = ${plan.maxListRows}); nothing stored`,
        };
      if (errors.length > 0 || e.line <= upload.lastLine) continue; // staged by an earlier run, or no use matching
      batch.push(row);
      batchLast = e.line;
      if (batch.length >= options.batchRows) {
        const stop = await flush();
        if (stop) return stop;
      }
    }
    if (errors.length >= MAX_REPORTED) break;
  }
  if (errors.length > 0) return { kind: 'failed', error: rowsError(errors).message };
  if (batch.length > 0 || done === 0) {
    const stop = await flush();
    if (stop?.kind === 'stopped' && !stop.release) return stop;
  }
  return { kind: 'staged', rows };
}

/**
 * Resumes the uploads no process works on (released at a stop, or abandoned by a process
 * that died): called when a server starts, and by tests.
 */
export async function resumeListUploads(db: Db, settings: ListJobSettings & { staleMs?: number }): Promise<number[]> {
  const ids = await claimListUploads(db, settings.staleMs ?? UPLOAD_STALE_MS);
  for (const id of ids) runInBackground(db, (signal) => runListUpload(db, id, { ...settings, signal }));
  return ids;
}

/** Whether an upload runs as a job: asked for (async), or more rows than the deployment's threshold. */
function runsAsJob(
  input: { content?: string | undefined; format?: 'csv' | 'jsonl' | undefined; async?: boolean | undefined },
  settings: ListJobSettings,
): boolean {
  if (input.content === undefined || input.format === undefined) {
    if (input.async) throw new BadRequestError('async: only an upload of content (CSV or JSON Lines) runs as a job; inline rows are matched at once');
    return false;
  }
  return input.async === true || estimateRows(input.format, input.content) > settings.asyncRows;
}

/**
 * An upload through REST or the CLI: matched at once (the list), or — asked for, or more rows than the
 * deployment's threshold — kept and run as a background job (the job).
 */
export async function uploadListOrStart(
  db: Db,
  clientId: string,
  listId: string | undefined,
  input: ListUploadInput & { queryName?: string | undefined; async?: boolean | undefined },
  settings: ListJobSettings,
): Promise<{ list: AccountList } | { job: ListUploadJob }> {
  if (!runsAsJob(input, settings)) return { list: await uploadList(db, clientId, listId, input) };
  const { existing, name } = await uploadTarget(db, clientId, listId, input);
  if (input.rows !== undefined) throw new BadRequestError('body: give exactly one of content (with format) and rows');
  return { job: await startListUpload(db, clientId, existing, name, { format: input.format!, content: input.content! }, settings) };
}
