// `stacklens backup FILE` (or `--verify FILE`) and `stacklens restore FILE [--force]`: a
// consistent logical backup of every table on either engine, taken while the server serves
// (backup/run.ts), checked by row counts and checksums; progress on stderr.
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { backupDatabase, restoreDatabase, RestoreRefusedError, type BackupProgress } from '../backup/run.ts';
import { BackupFileError, verifyBackupFile } from '../backup/file.ts';

/** One stderr line per table, and one every few seconds while a large table is read. */
function backupReporter(verb: string, stream: NodeJS.WritableStream = process.stderr): (p: BackupProgress) => void {
  let current: string | undefined;
  let lastRows = 0;
  let lastLine = 0;
  const labels: Record<BackupProgress['phase'], string> = {
    snapshot: 'taking a snapshot of the embedded database',
    tables: verb,
    verify: 'verifying',
    migrate: 'preparing the schema',
  };
  let phase: BackupProgress['phase'] | undefined;
  const flush = () => {
    if (current !== undefined) stream.write(`  ${current}: ${lastRows.toLocaleString('en-US')} rows\n`);
  };
  return (p) => {
    if (p.phase !== phase || p.table !== current) {
      if (p.phase === phase) flush();
      if (p.phase !== phase) stream.write(`${labels[p.phase]}${p.total > 1 ? ` (${p.total} tables)` : ''}...\n`);
      phase = p.phase;
      current = p.table;
      lastLine = Date.now();
    } else if (Date.now() - lastLine > 5000) {
      stream.write(`  ${p.table}: ${p.rows.toLocaleString('en-US')} rows so far (${p.done}/${p.total} tables done)\n`);
      lastLine = Date.now();
    }
    lastRows = p.rows;
  };
}

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description('Write a consistent backup of the whole database to FILE (works while the server runs); --verify checks an existing backup file')
    .argument('<file>', 'backup file to write (or to check with --verify)')
    .option('--verify', 'check FILE (every table against its row count and checksum) instead of writing it')
    .action(async (file: string, opts: { verify?: boolean }) => {
      try {
        if (opts.verify) {
          const { header, manifest } = await verifyBackupFile(file);
          const rows = Object.values(manifest.tables).reduce((n, t) => n + t.rows, 0);
          console.log(
            `${file}: a complete backup of ${header.tables.length} tables and ${rows} rows (${header.engine}, ${header.createdAt}); every checksum matches.`,
          );
          return;
        }
        await withContext(
          async ({ db }) => {
            const started = Date.now();
            const s = await backupDatabase(db, file, { onProgress: backupReporter('backing up') });
            console.log(`Backed up ${s.tables} tables, ${s.rows} rows to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
          },
          { migrate: false },
        );
      } catch (err) {
        if (err instanceof BackupFileError) {
          console.error(`stacklens backup: ${err.message}`);
          process.exitCode = 1;
          return;
        }
        throw err;
      }
    });

  program
    .command('restore')
    .description('Restore a backup FILE into this database (all or nothing, verified); refuses a database that holds data unless --force')
    .argument('<file>', 'backup file written by `stacklens backup`')
    .option('--force', 'replace the data of a database that is not empty')
    .action(async (file: string, opts: { force?: boolean }) => {
      try {
        await withContext(
          async ({ db }) => {
            const started = Date.now();
            const s = await restoreDatabase(db, file, { force: opts.force, onProgress: backupReporter('restoring') });
            const upgraded = s.upgraded.length ? `; then applied ${s.upgraded.length} newer migrations` : '';
            console.log(
              `Restored ${s.tables} tables, ${s.rows} rows from ${file}, verified, in ${((Date.now() - started) / 1000).toFixed(1)} s${upgraded}. Restart a server that runs on this database.`,
            );
          },
          { migrate: false },
        );
      } catch (err) {
        if (err instanceof BackupFileError || err instanceof RestoreRefusedError) {
          console.error(`stacklens restore: ${err.message}`);
          process.exitCode = err instanceof RestoreRefusedError ? 2 : 1;
          return;
        }
        throw err;
      }
    });
}
