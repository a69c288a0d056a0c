// A full refresh split into partitions that worker processes take from the job queue: the
// cohorts and co-usage are those of the one-process refresh whatever the number of workers,
// a partition whose worker died is taken over once its lease expires, and the run is finished
// (co-usage written, pending changes settled) exactly once, by its last partition.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb, openSecondPool, testJobsSchema } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/wait.ts';
import type { Db } from '../../src/db/db.ts';
import { partitionOf, refreshAll, refreshPartition, startPartitionedRefresh } from '../../src/ingest/refresh.ts';
import { RefreshQueue, partitionedRunStatus } from '../../src/services/refresh-workers.ts';
import { intelligenceWorld } from './world.ts';

let db: Db;
const jobsSchema = () => testJobsSchema(db) ?? 'pgboss';
before(async () => {
  db = await createTestDb();
  await insertWorld(db, intelligenceWorld());
});
after(() => db.close());

/** Everything a refresh writes, in one canonical order. */
async function refreshOutput(): Promise<{ cohorts: string[]; cousage: string[]; usage: string[]; stacks: string[] }> {
  const rows = async (sql: string) => (await db.queryArrays<unknown[]>(sql)).map((r) => JSON.stringify(r));
  return {
    cohorts: await rows(`SELECT company_id, kind, member_id, rank, round(score::numeric, 5) FROM cohorts WHERE kind <> 'defined' ORDER BY 1, 2, 4`),
    cousage: await rows('SELECT anchor_id, product_id, together FROM product_cousage ORDER BY 1, 2'),
    usage: await rows('SELECT * FROM product_usage_stats ORDER BY 1'),
    stacks: await rows('SELECT company_id, product_ids FROM company_stacks ORDER BY 1'),
  };
}

async function clearOutput(): Promise<void> {
  await db.query(`DELETE FROM cohorts WHERE kind <> 'defined'`);
  await db.query('DELETE FROM product_cousage');
  await db.query('DELETE FROM product_usage_stats');
  await db.query('DELETE FROM company_stacks');
}

test('partitions split the companies by a stable hash of their id: every company in exactly one', () => {
  const ids = Array.from({ length: 1000 }, (_, i) => `cmp_${i}`);
  const sizes = [0, 0, 0];
  for (const id of ids) sizes[partitionOf(id, 3)]!++;
  assert.equal(
    sizes.reduce((a, b) => a + b),
    1000,
  );
  for (const n of sizes) assert.ok(n > 250 && n < 420, `partition sizes ${sizes.join(', ')}`);
  assert.equal(partitionOf('cmp_acme', 7), partitionOf('cmp_acme', 7));
});

test('1 worker and 3 workers write the same cohorts, stacks and co-usage as the one-process refresh', async () => {
  const asOf = new Date((await db.query<{ t: Date }>('SELECT max(last_verified) AS t FROM installs'))[0]!.t);
  await refreshAll(db, { asOf });
  const single = await refreshOutput();
  assert.ok(single.cohorts.length > 1000, `${single.cohorts.length} cohort rows`);

  for (const workers of [1, 3]) {
    await clearOutput();
    const pools = await Promise.all(Array.from({ length: workers }, () => openSecondPool(db)));
    const queues = pools.map((p) => new RefreshQueue(p.db, jobsSchema(), { pollingIntervalSeconds: 0.5 }));
    try {
      const runId = await queues[0]!.enqueueFullRefresh(5, { asOf });
      const takenBy = new Map<number, string>();
      await Promise.all(queues.map((q) => q.work((e) => e.state === 'done' && takenBy.set(e.part, q.workerName))));
      await waitFor(async () => (await partitionedRunStatus(db, runId))?.computedAt != null, `run ${runId} finished`, 120_000);
      const status = (await partitionedRunStatus(db, runId))!;
      assert.deepEqual(
        status.partitions.map((p) => [p.part, p.state, p.done === p.total]),
        [0, 1, 2, 3, 4].map((part) => [part, 'done', true]),
      );
      assert.equal(
        status.partitions.reduce((n, p) => n + (p.total ?? 0), 0),
        87,
        'every company in one partition',
      );
      if (workers === 3) assert.ok(new Set(takenBy.values()).size >= 2, 'the partitions were shared between workers');
      assert.deepEqual(await refreshOutput(), single, `${workers} worker(s): the same output as one process`);
    } finally {
      for (const q of queues) await q.stop();
      for (const p of pools) if (p.separate) await p.db.close();
    }
  }
});

test('a partition whose worker died is taken over and computed whole; the run finishes once, by its last partition', async () => {
  await clearOutput();
  await db.query('INSERT INTO refresh_pending (company_id) SELECT id FROM companies ORDER BY id LIMIT 3');
  const runId = await startPartitionedRefresh(db, 2);
  // A worker takes partition 0 and dies before finishing: its row says running, attempt 1.
  await db.query(`UPDATE refresh_partitions SET state = 'running', worker = 'dead-worker', attempts = 1, done = 7, total = 40 WHERE run_id = $1 AND part = 0`, [
    runId,
  ]);
  assert.equal(await refreshPartition(db, runId, 1, 'worker-b'), true);
  let status = (await partitionedRunStatus(db, runId))!;
  assert.equal(status.computedAt, null, 'not finished while partition 0 is open');
  assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_pending'))[0]!.n, 3, 'pending changes stay until the run finishes');
  // The lease expired: the queue gives partition 0 to another worker.
  assert.equal(await refreshPartition(db, runId, 0, 'worker-c'), true);
  status = (await partitionedRunStatus(db, runId))!;
  assert.ok(status.computedAt, 'finished by its last partition');
  assert.deepEqual(
    status.partitions.map((p) => [p.part, p.state, p.worker, p.attempts]),
    [
      [0, 'done', 'worker-c', 2],
      [1, 'done', 'worker-b', 1],
    ],
  );
  assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_pending'))[0]!.n, 0, 'the changes read at the start are settled');
  assert.ok((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM product_cousage'))[0]!.n > 0, 'co-usage written');
  // A late duplicate of a finished partition does nothing.
  assert.equal(await refreshPartition(db, runId, 0, 'worker-d'), false);
});
