// `stacklens seed` generates the demo world into the configured database;
// `stacklens world digest` prints the fingerprint that proves two worlds identical.
import { InvalidArgumentError, type Command } from 'commander';
import cliProgress from 'cli-progress';
import { refreshInBulkLoad, type RefreshResult } from '../ingest/refresh.ts';
import type { Tx } from '../db/db.ts';
import { progressReporter as refreshProgressReporter } from './refresh.ts';
import { withContext } from './context.ts';
import { parseAsOf, seedWorld, todayUtc, WorldExistsError, type SeedProgress } from '../ingest/seed/index.ts';
import { isScaleName, type ScaleName } from '../ingest/seed/scale.ts';
import { worldDigest } from '../store/digest.ts';

interface SeedCliOptions {
  historyShare?: number;
  companies?: number;
  seed?: string;
  scale: ScaleName;
  asOf: string;
  replace: boolean;
  digest: boolean;
  refresh: boolean;
}

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 5_000_000) throw new InvalidArgumentError('expected an integer from 1 to 5,000,000');
  return n;
};
const scaleArg = (value: string) => {
  const v = value.toUpperCase();
  if (!isScaleName(v)) throw new InvalidArgumentError('expected S, M or L');
  return v;
};
const dateArg = (value: string) => {
  try {
    parseAsOf(value);
  } catch {
    throw new InvalidArgumentError('expected a date YYYY-MM-DD');
  }
  return value;
};

export function registerSeedCommands(program: Command): void {
  program
    .command('seed')
    .description('Generate the demo world (deterministic: same seed, size, scale and as-of date → identical data)')
    .option('--companies <n>', 'number of companies (default DEMO_COMPANIES)', positiveInt)
    .option('--seed <text>', 'random seed (default DEMO_SEED)')
    .option(
      '--scale <S|M|L>',
      'world density: S = sparser stacks, fewer people and news; M = default; L = denser (the catalog is the technology catalog at every scale)',
      scaleArg,
      'M',
    )
    .option('--as-of <YYYY-MM-DD>', 'the "today" every generated date is relative to (UTC)', dateArg, todayUtc())
    .option('--replace', 'empty the world tables first (also removes purchases of the old people)', false)
    .option('--history-share <share>', 'share of companies (0-1) with a visited two-year past: site visits and technology events (default 0.05)', Number)
    .option('--digest', 'print the world digest when done', false)
    .option('--no-refresh', 'skip computing cohorts and co-usage afterwards (run `stacklens refresh --full` later)')
    .action(async (opts: SeedCliOptions) => {
      await withContext(async ({ config, db }) => {
        const companies = opts.companies ?? config.demoCompanies;
        const seed = opts.seed ?? config.demoSeed;
        console.log(`Seeding ${companies} companies (seed '${seed}', scale ${opts.scale}, as of ${opts.asOf}) into ${db.engine}...`);
        const started = Date.now();
        const reporter = progressReporter();
        let refreshed: RefreshResult | undefined;
        try {
          // The refresh runs inside the world's bulk load (seed/index.ts says why).
          const afterLoad = async (tx: Tx, restoreWorldIndexes: () => Promise<void>) => {
            reporter.stop();
            const refreshReporter = refreshProgressReporter();
            refreshed = await refreshInBulkLoad(tx, restoreWorldIndexes, { onProgress: refreshReporter.onProgress });
            refreshReporter.stop();
          };
          const summary = await seedWorld(db, {
            companies,
            seed,
            scale: opts.scale,
            asOf: opts.asOf,
            replace: opts.replace,
            historyShare: opts.historyShare,
            onProgress: reporter.update,
            ...(opts.refresh ? { afterLoad } : {}),
          });
          reporter.stop();
          const s = summary;
          console.log(
            `Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${s.companies} companies, ${s.segments} hidden segments, ${s.categories} categories, ${s.vendors} vendors, ${s.products} products, ${s.installs} installs, ${s.people} people, ${s.contacts} contacts, ${s.feedItems} feed items, ${s.definedCohorts} defined cohorts.`,
          );
          if (s.purchasesRemoved > 0) console.log(`Removed ${s.purchasesRemoved} purchases of people of the previous world.`);
        } catch (err) {
          reporter.stop();
          if (err instanceof WorldExistsError) {
            console.error(err.message);
            process.exitCode = 2;
            return;
          }
          throw err;
        }
        if (refreshed) console.log(`Cohorts and co-usage computed: ${refreshed.cohortRows} cohort rows for ${refreshed.companies} companies.`);
        if (opts.digest) console.log(`World digest: ${(await worldDigest(db)).digest}`);
      });
    });

  const world = program.command('world').description('Inspect the data world');
  world
    .command('digest')
    .description('Fingerprint of every world table (rows in a stable order); equal digests mean identical data')
    .option('--json', 'print per-table row counts and hashes as JSON', false)
    .action(async (opts: { json: boolean }) => {
      await withContext(async ({ db }) => {
        const d = await worldDigest(db);
        console.log(opts.json ? JSON.stringify(d, null, 2) : d.digest);
      });
    });
}

/** cli-progress bars on a terminal, one plain line per phase step otherwise. */
function progressReporter(): { update: (p: SeedProgress) => void; stop: () => void } {
  if (process.stdout.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: ' {phase} [{bar}] {value}/{total} ({percentage}%) eta {eta_formatted}', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let phase = '';
    return {
      update: (p) => {
        if (p.phase !== phase) {
          if (phase) bar.stop();
          phase = p.phase;
          if (p.phase !== 'done') bar.start(p.total, p.done, { phase: p.phase.padEnd(9) });
        } else bar.update(p.done);
      },
      stop: () => bar.stop(),
    };
  }
  let lastLine = '';
  let lastTenth = -1;
  return {
    update: (p) => {
      const tenth = Math.floor((p.done / Math.max(1, p.total)) * 10);
      const line = `${p.phase}: ${p.done}/${p.total}`;
      if (p.phase !== 'done' && (tenth !== lastTenth || !lastLine.startsWith(p.phase)) && line !== lastLine) {
        console.log(line);
        lastLine = line;
        lastTenth = tenth;
      }
    },
    stop: () => {},
  };
}
