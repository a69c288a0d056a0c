// `stacklens import <kind> <file>`: one CSV or JSONL file into the database, all or nothing.
// A progress bar on stderr when it is a terminal, a plain summary line otherwise; every
// rejected line listed as `file:line: field: reason`. Exit 0 written, 1 rejected, 2 unusable.
import { Argument, Option, type Command } from 'commander';
import cliProgress from 'cli-progress';
import { AppError } from '../errors.ts';
import { IMPORT_FORMATS, IMPORT_KINDS, type ImportFormat, type ImportKind, type ImportProgress, type ImportSummary } from '../ingest/import/index.ts';
import type { Db } from '../db/db.ts';
import { withContext } from './context.ts';
import { progressReporter } from './refresh.ts';
import { runImportJob } from '../services/jobs.ts';

interface ImportCliOptions {
  format?: ImportFormat;
  refresh: boolean;
  json?: boolean;
  maxErrors: number;
}

export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description('Import a CSV or JSONL file of one kind; a file with any bad row writes nothing (docs/import-formats.md)')
    .addArgument(new Argument('<kind>', 'what the file holds').choices(IMPORT_KINDS))
    .argument('<file>', 'a .csv or .jsonl (.ndjson) file, or - for standard input with --format')
    .addOption(new Option('--format <format>', 'input format (default: from the file extension)').choices(IMPORT_FORMATS))
    .option('--no-refresh', 'skip recomputing derived data (cohorts, competitors) after the import')
    .option('--json', 'print the summary as one JSON object on stdout')
    .option('--max-errors <n>', 'list at most n errors (all are counted)', (v) => Math.max(1, Number.parseInt(v, 10) || 1000), 1000)
    .action(async (kind: ImportKind, file: string, opts: ImportCliOptions) => {
      process.exitCode = await withContext(({ db }) => runImport(db, kind, file, opts));
    });
}

/**
 * Runs the import as a job (visible in the Admin API's jobs list while it runs), then, after
 * every committed import that changed rows and unless --no-refresh, THE call point for the
 * refresh of derived data (cohorts, competitors, co-usage statistics), as a phase of the same
 * job. Incremental: only the companies changed since the last run (a full run when none has
 * happened).
 */
async function runImport(db: Db, kind: ImportKind, file: string, opts: ImportCliOptions): Promise<number> {
  const progress = process.stderr.isTTY && !opts.json ? progressBar(kind) : undefined;
  const reporter = opts.refresh ? progressReporter() : undefined;
  let summary: ImportSummary;
  try {
    const source = file === '-' ? process.stdin : file;
    const outcome = await runImportJob(db, {
      kind,
      source,
      file,
      startedBy: 'cli',
      refresh: opts.refresh,
      options: { format: opts.format, maxErrors: opts.maxErrors, onProgress: progress?.update },
      onRefreshProgress: (p) => {
        progress?.stop();
        reporter?.onProgress(p);
      },
    });
    summary = outcome.summary;
    reporter?.stop();
    if (outcome.refresh) {
      console.error(
        `Refreshed derived data after the ${kind} import: ${outcome.refresh.refreshed} of ${outcome.refresh.companies} companies (${outcome.refresh.kind}).`,
      );
    }
  } catch (err) {
    progress?.stop();
    reporter?.stop();
    if (!(err instanceof AppError)) throw err;
    console.error(`stacklens import: ${err.message}`);
    return 2;
  }
  progress?.stop();

  const name = file === '-' ? '<stdin>' : file;
  for (const e of summary.errors) console.error(`${name}:${e.line}: ${e.field}: ${e.message}`);
  if (summary.errorCount > summary.errors.length) {
    console.error(`... and ${summary.errorCount - summary.errors.length} more errors (--max-errors to list more)`);
  }
  console.log(opts.json ? JSON.stringify(summary) : summaryLine(summary));
  return summary.committed ? 0 : 1;
}

function summaryLine(s: ImportSummary): string {
  const seconds = (s.elapsedMs / 1000).toFixed(1);
  const rate = Math.round(s.rowsPerSecond).toLocaleString('en-US');
  if (!s.committed) {
    return `${s.kind}: nothing written: ${s.rejected} of ${s.rowsRead} rows rejected (${s.errorCount} errors); ${s.rowsRead} rows read in ${seconds} s (${rate} rows/s)`;
  }
  const deleted = s.deleted > 0 ? `, ${s.deleted} deleted` : '';
  return `${s.kind}: ${s.rowsRead} rows read, ${s.inserted} inserted, ${s.updated} updated, ${s.unchanged} unchanged${deleted}, 0 rejected in ${seconds} s (${rate} rows/s)`;
}

function progressBar(kind: ImportKind): { update: (p: ImportProgress) => void; stop: () => void } {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${kind} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {phase}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let running = false;
  return {
    update(p) {
      const total = p.totalBytes ?? 0;
      const values = {
        rows: p.rowsRead.toLocaleString('en-US'),
        rate: Math.round(p.rowsRead / Math.max((performance.now() - started) / 1000, 1e-3)),
        phase: p.phase,
      };
      if (!running) {
        bar.start(Math.max(total, 1), 0, values);
        running = true;
      }
      bar.update(total > 0 ? Math.min(p.bytesRead, total) : 0, values);
    },
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}
