// A full refresh spread over worker processes: the run is split into partitions (ingest/
// refresh.ts), one job per partition in the job queue the webhook deliveries use (pg-boss, in
// the database), and any number of `stacklens worker` processes, on one machine or many, take
// them. A job's lease is the queue's expiry: a worker that dies leaves its job to expire, and
// the queue hands it to another worker, which recomputes the partition whole.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import PgBoss from 'pg-boss';
import { bossDb } from './job-queue.ts';
import { NotFoundError } from '../errors.ts';
import type { Db, Queryable } from '../db/db.ts';
import { refreshPartition, startPartitionedRefresh } from '../ingest/refresh.ts';
import { refreshPartitions, refreshRun, type RefreshPartition } from '../store/intelligence.ts';

const QUEUE = 'refresh-partition';

interface PartitionJob {
  runId: number;
  part: number;
}

interface RefreshQueueTuning {
  /** Seconds a worker may hold a partition before the queue hands it to another (its lease). */
  leaseSeconds?: number;
  /** How often an idle worker asks for a partition. */
  pollingIntervalSeconds?: number;
  /** How often the queue looks for expired jobs (pg-boss maintenance). */
  maintenanceIntervalSeconds?: number;
}

/** One hour: a partition of a million-company world computes in minutes on one core. */
const DEFAULT_LEASE_SECONDS = 3600;

export class RefreshQueue {
  private readonly boss: PgBoss;
  private started: Promise<void> | undefined;
  /** This process's name in the partitions' `worker` column. */
  readonly workerName = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  constructor(
    private readonly db: Db,
    jobsSchema: string,
    private readonly tuning: RefreshQueueTuning = {},
  ) {
    this.boss = new PgBoss({
      db: bossDb(db),
      schema: jobsSchema,
      schedule: false,
      ...(tuning.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds } : {}),
    } as PgBoss.ConstructorOptions);
    this.boss.on('error', () => {}); // a failed poll is retried by the next one; a failed job is failed in the queue
  }

  /** Creates the queue (first time); idempotent. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      const queue = { retryLimit: 5, retryDelay: 1, expireInSeconds: this.tuning.leaseSeconds ?? DEFAULT_LEASE_SECONDS };
      await this.boss.createQueue(QUEUE, { name: QUEUE, ...queue });
      await this.boss.updateQueue(QUEUE, { name: QUEUE, ...queue });
    })();
    this.started.catch(() => (this.started = undefined));
    return this.started;
  }

  /** Records a full run of `parts` partitions and queues one job per partition; returns the run id. */
  async enqueueFullRefresh(parts: number, options: { asOf?: Date } = {}): Promise<number> {
    await this.start();
    const runId = await startPartitionedRefresh(this.db, parts, options);
    await this.boss.insert(Array.from({ length: parts }, (_, part) => ({ name: QUEUE, data: { runId, part } satisfies PartitionJob })));
    return runId;
  }

  /**
   * Takes partitions until stopped: one at a time (a partition keeps a core busy), each
   * computed by this process. `onPartition` hears of each one taken and finished.
   */
  async work(onPartition: (event: { runId: number; part: number; state: 'taken' | 'done' | 'failed'; error?: unknown }) => void = () => {}): Promise<void> {
    await this.start();
    await this.boss.work<PartitionJob>(QUEUE, { batchSize: 1, pollingIntervalSeconds: this.tuning.pollingIntervalSeconds ?? 2 }, async ([job]) => {
      const { runId, part } = job!.data;
      onPartition({ runId, part, state: 'taken' });
      try {
        await refreshPartition(this.db, runId, part, this.workerName);
        onPartition({ runId, part, state: 'done' });
      } catch (err) {
        onPartition({ runId, part, state: 'failed', error: err });
        throw err; // the queue retries it (retryLimit)
      }
    });
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, close: false } as PgBoss.StopOptions);
    this.started = undefined;
  }
}

type PartitionStatus = Omit<RefreshPartition, 'runId' | 'startedAt' | 'finishedAt'> & { startedAt: string | null; finishedAt: string | null };

/** GET /admin/refresh-runs/{runId}: the run and its partitions; 404 for an unknown run. */
export async function refreshRunStatus(db: Queryable, runId: number): Promise<NonNullable<Awaited<ReturnType<typeof partitionedRunStatus>>>> {
  const status = await partitionedRunStatus(db, runId);
  if (!status) throw new NotFoundError(`runId: no refresh run ${runId}`);
  return status;
}

/** A partitioned run as the admin API and the CLI show it: the run and each partition's state. */
export async function partitionedRunStatus(
  db: Queryable,
  runId: number,
): Promise<{ runId: number; startedAt: string; computedAt: string | null; partitions: PartitionStatus[] } | null> {
  const run = await refreshRun(db, runId);
  if (!run) return null;
  const partitions = (await refreshPartitions(db, runId)).map(({ runId: _run, startedAt, finishedAt, ...p }) => ({
    ...p,
    startedAt: startedAt?.toISOString() ?? null,
    finishedAt: finishedAt?.toISOString() ?? null,
  }));
  return { runId, startedAt: run.startedAt.toISOString(), computedAt: run.computedAt?.toISOString() ?? null, partitions };
}
