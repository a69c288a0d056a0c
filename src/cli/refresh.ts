// `stacklens refresh [--full]` and `stacklens eval [--fit]`: the intelligence refresh job
// (progress bar on a TTY) and its evaluation against the demo world's hidden truth.
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { withContext } from './context.ts';
import { refreshAll, refreshChanged, type RefreshProgress } from '../ingest/refresh.ts';
import { evaluate, NoTruthError, type CalibrationReport } from '../ingest/evaluate.ts';
import { FEATURE_NAMES } from '../intelligence/confidence.ts';

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
          bar = new cliProgress.SingleBar({ stream, format: `${labels[p.phase]} [{bar}] {value}/{total} {percentage}% eta {eta_formatted}` }, cliProgress.Presets.shades_classic);
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

  program
    .command('eval')
    .description('Measure cohorts, competitors, in-use confidence and related products against the demo world truth')
    .option('--fit', 'also fit fresh confidence coefficients on this world and print them')
    .option('--sample <n>', 'companies sampled for the related-products measure', '300')
    .option('--threshold <share>', 'segment co-adoption share that makes a related product "truly co-adopted"', '0.3')
    .action(async (opts: { fit?: boolean; sample: string; threshold: string }) => {
      await withContext(async ({ db }) => {
        try {
          const r = await evaluate(db, { fit: opts.fit, relatedSample: Number(opts.sample), coAdoptionThreshold: Number(opts.threshold) });
          const f = (x: number) => x.toFixed(3);
          console.log(`Demo world: ${r.companies} companies in ${r.segments} hidden segments.\n`);
          console.log(`${'measure'.padEnd(46)}value    goal     companies/items`);
          const line = (name: string, v: number, goal: string, n: number | string) => console.log(`${name.padEnd(46)}${f(v).padEnd(9)}${goal.padEnd(9)}${n}`);
          line('cohort purity (Default peers in segment)', r.purity.mean, '>= 0.80', r.purity.companies);
          line('  random-peer baseline', r.purity.randomBaseline, '', '');
          line('competitor precision (industry + size)', r.competitorPrecision.mean, '>= 0.80', r.competitorPrecision.companies);
          line('products in use: ECE', r.calibration.ece, '<= 0.05', r.calibration.installs);
          line('products in use: accuracy of inUse', r.calibration.accuracy, '', r.calibration.installs);
          line(`related: top-5 truly co-adopted (>= ${r.related.threshold})`, r.related.precisionAt5, '', r.related.anchors);
          line('related: mean segment co-adoption of top 5', r.related.meanCoAdoption, '', r.related.anchors);
          printReliability(r.calibration);
          if (r.fitted) {
            console.log(`\nFitted coefficients (${FEATURE_NAMES.join(', ')}):\n  [${r.fitted.coefficients.join(', ')}]`);
            console.log(`  on this world: ECE ${f(r.fitted.calibration.ece)}, accuracy ${f(r.fitted.calibration.accuracy)}; paste into CONFIDENCE_COEFFICIENTS and check on another seed.`);
          }
        } catch (err) {
          if (!(err instanceof NoTruthError)) throw err;
          console.error(err.message);
          process.exitCode = 1;
        }
      });
    });
}

function printReliability(c: CalibrationReport): void {
  console.log('\nReliability (confidence bin: installs, mean confidence, observed in-use rate)');
  for (const b of c.table) {
    if (b.count === 0) continue;
    console.log(`  ${b.from.toFixed(1)}-${b.to.toFixed(1)}: ${String(b.count).padStart(8)}  ${b.meanConfidence.toFixed(3)}  ${b.observedRate.toFixed(3)}`);
  }
}
