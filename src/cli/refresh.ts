// `stacklens refresh [--full]`: the intelligence refresh job (progress bar on a TTY).
import { InvalidArgumentError, type Command } from 'commander';
import cliProgress from 'cli-progress';
import { withContext } from './context.ts';
import { refreshAll, refreshChanged, type RefreshProgress } from '../ingest/refresh.ts';
import { RefreshQueue, partitionedRunStatus } from '../services/refresh-workers.ts';
import { BadRequestError } from '../errors.ts';

const MAX_PARTITIONS = 10_000;

function partitionCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_PARTITIONS) throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_PARTITIONS}`);
  return n;
}

/** A progress reporter: a bar per phase on a TTY, one line per phase elsewhere. */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): { onProgress: (p: RefreshProgress) => void; stop(): void } {
  let bar: cliProgress.SingleBar | undefined;
  let phase = '';
  const labels: Record<string, string> = { load: 'Loading companies and evidence', cohorts: 'Computing cohorts', cousage: 'Co-usage statistics' };
  return {
    onProgress(p) {
      if (p.phase !== phase) {
        bar?.stop();
        bar = undefined;
        phase = p.phase;
        if (stream.isTTY && p.phase === 'cohorts') {
          bar = new cliProgress.SingleBar(
            { stream, format: `${labels[p.phase]} [{bar}] {value}/{total} {percentage}% eta {eta_formatted}` },
            cliProgress.Presets.shades_classic,
          );
          bar.start(p.total, p.done);
        } else stream.write(`${labels[p.phase]}...\n`);
      }
      bar?.update(p.done);
    },
    stop() {
      bar?.stop();
    },
  };
}

export function registerRefreshCommands(program: Command): void {
  program
    .command('refresh')
    .description('Recompute cohorts, competitors and co-usage statistics (only changed companies unless --full)')
    .option('--full', 'recompute every company')
    .option(
      '--partitions <n>',
      'with --full: split the run into N partitions that `stacklens worker` processes take from the job queue (this command queues them and waits)',
      partitionCount,
    )
    .option('--no-wait', 'with --partitions: queue the partitions and exit (follow them with GET /api/admin/refresh-runs/{runId})')
    .action(async (opts: { full?: boolean; partitions?: number; wait: boolean }) => {
      await withContext(async ({ db, config }) => {
        const started = Date.now();
        if (opts.partitions !== undefined) {
          const parts = opts.partitions;
          if (!opts.full) throw new BadRequestError('--partitions: only with --full (an incremental refresh runs in one process)');
          const queue = new RefreshQueue(db, config.jobsSchema);
          try {
            const runId = await queue.enqueueFullRefresh(parts);
            console.log(`Refresh full (run ${runId}): ${parts} partitions queued for \`stacklens worker\` processes.`);
            if (!opts.wait) return;
            let shown = -1;
            for (;;) {
              const status = (await partitionedRunStatus(db, runId))!;
              const done = status.partitions.filter((p) => p.state === 'done').length;
              if (done !== shown)
                console.error(`${done} of ${parts} partitions done (${status.partitions.filter((p) => p.state === 'running').length} running)`);
              shown = done;
              if (status.computedAt) break;
              await new Promise((resolve) => setTimeout(resolve, 1000));
            }
            console.log(`Refresh full (run ${runId}) finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
          } finally {
            await queue.stop();
          }
          return;
        }
        const reporter = progressReporter();
        const result = await (opts.full ? refreshAll : refreshChanged)(db, { onProgress: reporter.onProgress });
        reporter.stop();
        console.log(
          `Refresh ${result.kind} (run ${result.runId}): ${result.refreshed} of ${result.companies} companies, ${result.cohortRows} cohort rows, ` +
            `as of ${result.asOf}, ${((Date.now() - started) / 1000).toFixed(1)} s (load ${result.timingsMs.load} ms, cohorts ${result.timingsMs.cohorts} ms, co-usage ${result.timingsMs.cousage} ms).`,
        );
      });
    });

  program
    .command('worker')
    .description(
      'Take partitions of full refreshes from the job queue and compute them, until stopped (Ctrl-C); run as many as you like, on any machine that reaches the database',
    )
    .action(async () => {
      await withContext(async ({ db, config }) => {
        const queue = new RefreshQueue(db, config.jobsSchema);
        await queue.work((e) => {
          const what = e.state === 'failed' ? `failed (${(e.error as Error)?.message ?? e.error}); the queue retries it` : e.state;
          console.error(`run ${e.runId} partition ${e.part}: ${what}`);
        });
        console.error(`stacklens worker ${queue.workerName}: waiting for refresh partitions (Ctrl-C stops after the partition in hand)`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await queue.stop();
      });
    });
}
