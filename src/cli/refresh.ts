// `stacklens refresh [--full]`: the intelligence refresh job (progress bar on a TTY).
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { withContext } from './context.ts';
import { refreshAll, refreshChanged, type RefreshProgress } from '../ingest/refresh.ts';

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
    .action(async (opts: { full?: boolean }) => {
      await withContext(async ({ db }) => {
        const reporter = progressReporter();
        const started = Date.now();
        const result = await (opts.full ? refreshAll : refreshChanged)(db, { onProgress: reporter.onProgress });
        reporter.stop();
        console.log(
          `Refresh ${result.kind} (run ${result.runId}): ${result.refreshed} of ${result.companies} companies, ${result.cohortRows} cohort rows, ` +
            `as of ${result.asOf}, ${((Date.now() - started) / 1000).toFixed(1)} s (load ${result.timingsMs.load} ms, cohorts ${result.timingsMs.cohorts} ms, co-usage ${result.timingsMs.cousage} ms).`,
        );
      });
    });
}
