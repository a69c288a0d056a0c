// Saving detections: `stacklens detect ... --save` and `stacklens observe [FILE]`
// append site records (the `detect --json` lines) to the observation log in batches, derive
// the installs of the companies they name, and run the incremental refresh, so cohorts and
// usage shares follow. Without a file, `observe` re-derives every observed company: the way
// technologies unseen for DETECT_STALE_AFTER_DAYS drop out of use (run it on a schedule).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { openContext, type CliContext } from './context.ts';
import { nowDate } from '../clock.ts';
import { AppError } from '../errors.ts';
import { refreshChanged } from '../ingest/refresh.ts';
import { deriveInstalls, parseSiteResult, recordDetections, type RecordResult } from '../services/observations.ts';
import type { SiteResult } from '../schemas/detect.ts';
import { INPUTS, type DetectExtension } from './detect.ts';
import type { DetectSink } from './detect-output.ts';

/** Sites recorded per transaction. */
const SITES_PER_BATCH = 500;

interface SaveOptions {
  /** The input kind, kept with each observation (artifacts, crawl, har, warc, jobs, file). */
  source: string;
  createCompanies?: boolean;
  refresh?: boolean;
}

interface SaveSummary {
  runId: string;
  sites: number;
  observations: number;
  added: number;
  companiesCreated: number;
  productsCreated: number;
  skippedSites: number;
  unmapped: Set<string>;
  installsChanged: number;
  installsExpired: number;
  refreshed: number | null;
}

interface RunSaver {
  add(site: SiteResult): Promise<void>;
  /** Records what is left, derives installs, refreshes, closes the database; returns the summary. */
  finish(): Promise<SaveSummary>;
  /** Closes the database without deriving (after a failure). */
  abort(): Promise<void>;
}

/** Opens the database and returns a saver that records site records in batches. */
async function openRunSaver(options: SaveOptions): Promise<RunSaver> {
  const ctx: CliContext = await openContext();
  const runId = `run_${nowDate().toISOString().replace(/[-:]/g, '').slice(0, 15)}_${randomBytes(3).toString('hex')}`;
  const summary: SaveSummary = {
    runId,
    sites: 0,
    observations: 0,
    added: 0,
    companiesCreated: 0,
    productsCreated: 0,
    skippedSites: 0,
    unmapped: new Set(),
    installsChanged: 0,
    installsExpired: 0,
    refreshed: null,
  };
  const companies = new Set<string>();
  let pending: SiteResult[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const r: RecordResult = await recordDetections(ctx.db, pending, { source: options.source, runId, createCompanies: options.createCompanies });
    pending = [];
    summary.sites += r.sites;
    summary.observations += r.observations;
    summary.added += r.added;
    summary.companiesCreated += r.companiesCreated;
    summary.productsCreated += r.productsCreated;
    summary.skippedSites += r.skippedSites;
    for (const n of r.unmappedTechnologies) summary.unmapped.add(n);
    for (const id of r.companyIds) companies.add(id);
  };
  return {
    async add(site) {
      pending.push(site);
      if (pending.length >= SITES_PER_BATCH) await flush();
    },
    async finish() {
      try {
        await flush();
        const derived = await deriveInstalls(ctx.db, { companyIds: [...companies], staleAfterDays: ctx.config.detect.staleAfterDays });
        summary.installsChanged = derived.upserted;
        summary.installsExpired = derived.expired;
        if (options.refresh !== false) summary.refreshed = (await refreshChanged(ctx.db)).refreshed;
        return summary;
      } finally {
        await ctx.db.close();
      }
    },
    abort: () => ctx.db.close(),
  };
}

/** The `detect --save` sink: records each site as it is detected; on close, derives, refreshes and prints the summary. */
async function openSaveSink(source: string): Promise<DetectSink> {
  const saver = await openRunSaver({ source });
  return {
    // Dated by the capture when the input carries one (WARC-Date, HAR startedDateTime).
    write: (record, site) => saver.add(site?.capturedAt ? { ...record, seenAt: site.capturedAt } : record),
    close: async () => {
      process.stderr.write(formatSaveSummary(await saver.finish()));
    },
  };
}

function formatSaveSummary(s: SaveSummary): string {
  const parts = [
    `saved run ${s.runId}: ${s.sites} site${s.sites === 1 ? '' : 's'}, ${s.added} new of ${s.observations} observations`,
    `${s.companiesCreated} companies and ${s.productsCreated} products added`,
    `installs: ${s.installsChanged} changed, ${s.installsExpired} expired`,
  ];
  if (s.refreshed !== null) parts.push(`refresh: ${s.refreshed} companies`);
  if (s.skippedSites) parts.push(`${s.skippedSites} sites skipped (unknown company or not a domain)`);
  let text = `${parts.join('; ')}\n`;
  if (s.unmapped.size) text += `not saved, no category of our taxonomy: ${[...s.unmapped].sort().join(', ')}\n`;
  return text;
}

interface ObserveCliOptions {
  createCompanies: boolean;
  refresh: boolean;
}

/** `stacklens detect --save`: every site's detections also go to the observation log. */
export const detectSaveExtension: DetectExtension = {
  options: (command) => {
    command.option(
      '--save',
      'also record the detections in the database (observation log), derive installs and refresh cohorts (docs/data.md "Bring your own data")',
    );
  },
  sinks: async (opts) => {
    if (!opts.save) return [];
    const input = INPUTS.find((k) => opts[k] !== undefined);
    return input ? [await openSaveSink(input === 'domain' || input === 'domains' ? 'crawl' : input)] : [];
  },
};

export function registerObserveCommand(program: Command): void {
  program
    .command('observe')
    .argument('[file]', 'JSON Lines of `stacklens detect --json` (- for standard input)')
    .description(
      'Record detections in the observation log, derive the installs of their companies and refresh cohorts. ' +
        'Without a file: re-derive every observed company, so technologies unseen for DETECT_STALE_AFTER_DAYS drop out of use',
    )
    .option('--no-create-companies', 'skip sites whose domain is not a company yet (default: add a company with just the domain)')
    .option('--no-refresh', 'do not run the incremental refresh afterwards')
    .action(async (file: string | undefined, opts: ObserveCliOptions) => {
      process.exitCode = file === undefined ? await rederive(opts) : await observeFile(file, opts);
    });
}

async function rederive(opts: ObserveCliOptions): Promise<number> {
  const ctx = await openContext();
  try {
    const derived = await deriveInstalls(ctx.db, { staleAfterDays: ctx.config.detect.staleAfterDays });
    let line = `installs: ${derived.upserted} changed, ${derived.expired} expired (unseen for ${ctx.config.detect.staleAfterDays} days)`;
    if (opts.refresh) line += `; refresh: ${(await refreshChanged(ctx.db)).refreshed} companies`;
    console.log(line);
    return 0;
  } finally {
    await ctx.db.close();
  }
}

async function observeFile(file: string, opts: ObserveCliOptions): Promise<number> {
  const input = file === '-' ? process.stdin : createReadStream(file);
  try {
    if (input !== process.stdin) await new Promise<void>((resolve, reject) => input.once('open', () => resolve()).once('error', reject));
  } catch (err) {
    console.error(`file: cannot read '${file}': ${(err as Error).message}`);
    return 2;
  }
  const saver = await openRunSaver({ source: 'file', createCompanies: opts.createCompanies, refresh: opts.refresh });
  let lineNo = 0,
    bad = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNo++;
      if (!line.trim()) continue;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch (err) {
        bad++;
        console.error(`${file}:${lineNo}: not JSON: ${(err as Error).message}`);
        continue;
      }
      try {
        parseSiteResult(data, '');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        bad++;
        console.error(`${file}:${lineNo}: ${err.message}`);
        continue;
      }
      await saver.add(data as SiteResult);
    }
  } catch (err) {
    await saver.abort();
    if (err instanceof AppError) {
      console.error(`${file}: ${err.message}`);
      return 2;
    }
    throw err;
  }
  process.stderr.write(formatSaveSummary(await saver.finish()));
  return bad ? 1 : 0;
}
