// SQL for background jobs (jobs table): start (one active job per kind), progress, finish.
import type { Db, Queryable, Tx } from '../db/db.ts';
import type { Row } from '../db/schema.ts';

export type JobRow = Row<'jobs'>;

const COLUMNS = 'id, kind, status, params, phase, done, total, result, error, started_by, started_at, heartbeat_at, finished_at';

/**
 * Inserts a running refresh job, or answers the refresh already running (undefined id
 * when started). A running job whose heartbeat is older than `staleMs` (its process died)
 * is marked failed first, so it cannot block its kind forever.
 */
export async function insertRunningJob(
  db: Db,
  job: { kind: 'refresh'; params: Record<string, unknown>; startedBy: string | null },
  staleMs: number,
): Promise<{ started?: JobRow; running?: JobRow }> {
  return db.transaction(async (tx) => {
    await tx.query(
      `UPDATE jobs SET status = 'failed', error = 'abandoned: its process stopped reporting progress', finished_at = now()
        WHERE kind = $1::text AND status = 'running' AND heartbeat_at < now() - make_interval(secs => $2::int)`,
      [job.kind, Math.ceil(staleMs / 1000)],
    );
    const started = await tx.query<JobRow>(
      `INSERT INTO jobs (kind, status, params, started_by) VALUES ($1::text, 'running', $2::jsonb, $3::text)
       ON CONFLICT (kind) WHERE status = 'running' AND kind = 'refresh' DO NOTHING RETURNING ${COLUMNS}`,
      [job.kind, JSON.stringify(job.params), job.startedBy],
    );
    if (started[0]) return { started: started[0] };
    const [running] = await tx.query<JobRow>(`SELECT ${COLUMNS} FROM jobs WHERE kind = $1::text AND status = 'running'`, [job.kind]);
    return { running };
  });
}

/**
 * Inserts a running job of a kind several of which may run at once (an import, a detection of
 * never-observed accounts). Jobs of the kind whose heartbeat is older than `staleMs` (their
 * process died mid-way) are marked failed first.
 */
export async function insertConcurrentJob(
  db: Db,
  job: { kind: 'import' | 'observe'; params: Record<string, unknown>; startedBy: string | null },
  staleMs: number,
): Promise<JobRow> {
  return db.transaction(async (tx) => {
    await tx.query(
      `UPDATE jobs SET status = 'failed', error = 'abandoned: its process stopped reporting progress', finished_at = now()
        WHERE kind = $2::text AND status = 'running' AND heartbeat_at < now() - make_interval(secs => $1::int)`,
      [Math.ceil(staleMs / 1000), job.kind],
    );
    const [row] = await tx.query<JobRow>(
      `INSERT INTO jobs (kind, status, params, started_by) VALUES ($3::text, 'running', $1::jsonb, $2::text) RETURNING ${COLUMNS}`,
      [JSON.stringify(job.params), job.startedBy, job.kind],
    );
    return row!;
  });
}

/** Inserts a running list upload (several may run at once), inside the caller's transaction. */
export async function insertListUploadJob(tx: Tx, job: { params: Record<string, unknown>; startedBy: string; total: number }): Promise<JobRow> {
  const [row] = await tx.query<JobRow>(
    `INSERT INTO jobs (kind, status, params, started_by, phase, total) VALUES ('list_upload', 'running', $1::jsonb, $2::text, 'queued', $3::int) RETURNING ${COLUMNS}`,
    [JSON.stringify(job.params), job.startedBy, job.total],
  );
  return row!;
}

/**
 * Claims the running list uploads no process works on: released by a process that stopped
 * (heartbeat set to the epoch) or whose heartbeat is older than `staleMs` (its process died).
 * The claim moves the heartbeat to now, so two processes never take the same job.
 */
export async function claimListUploads(db: Db, staleMs: number): Promise<number[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE jobs SET heartbeat_at = now() WHERE kind = 'list_upload' AND status = 'running' AND heartbeat_at < now() - make_interval(secs => $1::double precision)
     RETURNING id`,
    [staleMs / 1000],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Gives a running job back (its process stops): the next claim takes it at once. */
export async function releaseJob(db: Db, id: number): Promise<void> {
  await db.query(`UPDATE jobs SET heartbeat_at = 'epoch' WHERE id = $1::bigint AND status = 'running'`, [id]);
}

export async function updateJobProgress(db: Db, id: number, p: { phase: string; done: number; total: number }): Promise<void> {
  await db.query(`UPDATE jobs SET phase = $2::text, done = $3::int, total = $4::int, heartbeat_at = now() WHERE id = $1::bigint AND status = 'running'`, [
    id,
    p.phase,
    p.done,
    p.total,
  ]);
}

/** Says the job's process is alive, whether or not it made progress (a long phase reports none). */
export async function touchJob(db: Db, id: number): Promise<void> {
  await db.query(`UPDATE jobs SET heartbeat_at = now() WHERE id = $1::bigint AND status = 'running'`, [id]);
}

export async function finishJob(
  db: Queryable,
  id: number,
  outcome: { status: 'succeeded' | 'failed'; result?: Record<string, unknown>; error?: string },
): Promise<void> {
  await db.query(`UPDATE jobs SET status = $2::text, result = $3::jsonb, error = $4::text, finished_at = now(), heartbeat_at = now() WHERE id = $1::bigint`, [
    id,
    outcome.status,
    outcome.result ? JSON.stringify(outcome.result) : null,
    outcome.error ?? null,
  ]);
}

export async function findJob(db: Queryable, id: string): Promise<JobRow | undefined> {
  const [row] = await db.query<JobRow>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1::bigint`, [id]);
  return row;
}

export async function listJobs(db: Db, kind: string | undefined, offset: number, limit: number): Promise<{ rows: JobRow[]; total: number }> {
  const rows = await db.query<JobRow>(`SELECT ${COLUMNS} FROM jobs WHERE $1::text IS NULL OR kind = $1::text ORDER BY id DESC OFFSET $2::int LIMIT $3::int`, [
    kind ?? null,
    offset,
    limit,
  ]);
  const [count] = await db.query<{ n: string }>('SELECT count(*) AS n FROM jobs WHERE $1::text IS NULL OR kind = $1::text', [kind ?? null]);
  return { rows, total: Number(count!.n) };
}
