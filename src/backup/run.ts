// Backup and restore of the whole database, on both engines, while the server serves.
//
// Backup: one REPEATABLE READ, READ ONLY transaction reads every table, so the file is one
// consistent snapshot however long it takes; on PostgreSQL the server's other connections
// go on meanwhile. On PGlite there is one session: a command working through the running
// server (embedded-socket.ts) asks it for a copy of the data folder (`COPY stacklens_snapshot`,
// which holds the database only for the file copy), opens that copy in memory and dumps it
// there, so the server is not held for the length of the dump.
//
// Restore: the file is verified first (checksums, manifest), the target must be empty (or
// --force), the schema is brought to the backup's migrations, then every table is emptied and
// loaded, sequences set, and every table read back and compared with the manifest, all in
// one transaction: a failure anywhere leaves the target as it was. Later migrations then
// apply as on any upgrade.
import { to as copyTo } from 'pg-copy-streams';
import type { Db, Queryable } from '../db/db.ts';
import { openDb } from '../db/db.ts';
import { listMigrations, migrate } from '../db/migrate.ts';
import {
  appliedVersions,
  forEachRowPage,
  insertRows,
  listTables,
  readSequences,
  setDumpSettings,
  setUserTriggers,
  tablesWithRows,
  truncateTables,
  writeSequences,
  type TableInfo,
} from '../store/backup.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, BackupFileError, BackupWriter, readBackup, verifyBackupFile, type Manifest } from './file.ts';
import { createHash } from 'node:crypto';

export interface BackupProgress {
  phase: 'snapshot' | 'tables' | 'verify' | 'migrate';
  table?: string;
  /** Rows of the current table so far. */
  rows: number;
  /** Tables done and in all. */
  done: number;
  total: number;
}

interface BackupOptions {
  onProgress?: (p: BackupProgress) => void;
}

interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  manifest: Manifest;
}

/** Tables the migrations themselves fill: rows there do not make a target "not empty". */
const MIGRATION_FILLED = ['schema_migrations', 'plans', 'access_version', 'reference_version'];

/** Writes a consistent backup of `db` to `file`. */
export async function backupDatabase(db: Db, file: string, options: BackupOptions = {}): Promise<BackupSummary> {
  if (db.visiting) {
    options.onProgress?.({ phase: 'snapshot', rows: 0, done: 0, total: 1 });
    const snapshot = await embeddedSnapshot(db);
    const copy = await openDb({ snapshot });
    try {
      return await dump(copy, file, options);
    } finally {
      await copy.close();
    }
  }
  return dump(db, file, options);
}

async function dump(db: Db, file: string, options: BackupOptions): Promise<BackupSummary> {
  const progress = options.onProgress ?? (() => {});
  const writer = new BackupWriter(file);
  try {
    return await db.transaction(
      async (tx) => {
        await setDumpSettings(tx);
        const tables = await listTables(tx);
        await writer.header({
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          engine: db.engine,
          migrations: await appliedVersions(tx),
          tables: tables.map((t) => t.name),
        });
        let total = 0;
        for (const [i, table] of tables.entries()) {
          let rows = 0;
          progress({ phase: 'tables', table: table.name, rows, done: i, total: tables.length });
          await writer.startTable(table.name, table.columns);
          await forEachRowPage(tx, table, async (page) => {
            await writer.rows(page);
            rows += page.length;
            progress({ phase: 'tables', table: table.name, rows, done: i, total: tables.length });
          });
          await writer.endTable();
          total += rows;
        }
        const manifest = await writer.finish(await readSequences(tx));
        progress({ phase: 'tables', rows: 0, done: tables.length, total: tables.length });
        return { file, tables: tables.length, rows: total, manifest };
      },
      { isolation: 'repeatable read', readOnly: true },
    );
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

/** The owner's data folder as a tarball, through its socket (embedded-socket.ts). */
async function embeddedSnapshot(db: Db): Promise<Uint8Array> {
  const client = await db.pool.connect();
  try {
    const chunks: Buffer[] = [];
    const stream = client.query(copyTo('COPY stacklens_snapshot TO STDOUT'));
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    client.release();
  }
}

export class RestoreRefusedError extends Error {}

interface RestoreOptions extends BackupOptions {
  /** Replace the target's data even when it holds some. */
  force?: boolean;
}

interface RestoreSummary {
  tables: number;
  rows: number;
  /** Migrations applied after the restore (the backup was older than this Stacklens). */
  upgraded: string[];
}

/** Restores `file` into `db` (all or nothing), then applies the migrations newer than the backup. */
export async function restoreDatabase(db: Db, file: string, options: RestoreOptions = {}): Promise<RestoreSummary> {
  const progress = options.onProgress ?? (() => {});
  if (db.visiting) {
    throw new RestoreRefusedError(`a server (process ${db.visiting.ownerPid}) is running on this embedded database; stop it, then restore`);
  }
  progress({ phase: 'verify', rows: 0, done: 0, total: 1 });
  const { header, manifest } = await verifyBackupFile(file);

  const known = listMigrations();
  const unknown = header.migrations.filter((v) => !known.some((m) => m.version === v));
  if (unknown.length > 0)
    throw new RestoreRefusedError(`the backup was made by a newer Stacklens (migrations ${unknown.join(', ')} are unknown here); upgrade first`);
  const applied = await appliedVersions(db);
  const extra = applied.filter((v) => !header.migrations.includes(v));
  if (extra.length > 0) {
    throw new RestoreRefusedError(
      `the target database is newer than the backup (migrations ${extra.join(', ')}); restore into a new, empty database (a new DATA_DIR or schema), which is then upgraded`,
    );
  }
  progress({ phase: 'migrate', rows: 0, done: 0, total: 1 });
  await migrate(
    db,
    known.filter((m) => header.migrations.includes(m.version)),
  );

  const tables = await listTables(db);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const missing = header.tables.filter((t) => !byName.has(t));
  if (missing.length > 0) throw new BackupFileError(`${file}: tables ${missing.join(', ')} do not exist at the backup's migrations`);
  if (!options.force) {
    const used = await tablesWithRows(db, tables, MIGRATION_FILLED);
    if (used.length > 0) {
      throw new RestoreRefusedError(
        `the target database is not empty (${used
          .slice(0, 5)
          .map((u) => `${u.table}: ${u.rows} rows`)
          .join(', ')}${used.length > 5 ? ', ...' : ''}); use --force to replace its data`,
      );
    }
  }

  let rows = 0;
  await db.transaction(async (tx) => {
    await setDumpSettings(tx);
    // Triggers off first: the truncation's own triggers would write change rows (world_changes)
    // that the backup's rows then collide with.
    await setUserTriggers(tx, tables, false);
    await truncateTables(tx, tables);
    let table: TableInfo | undefined;
    let tableRows = 0;
    let done = 0;
    for await (const event of readBackup(file)) {
      if (event.type === 'table') {
        table = byName.get(event.name);
        tableRows = 0;
        progress({ phase: 'tables', table: event.name, rows: 0, done, total: header.tables.length });
      } else if (event.type === 'rows') {
        await insertRows(tx, table!, event.rows);
        tableRows += event.rows.length;
        rows += event.rows.length;
        progress({ phase: 'tables', table: table!.name, rows: tableRows, done, total: header.tables.length });
      } else if (event.type === 'end') {
        done++;
      }
    }
    await writeSequences(tx, manifest.sequences);
    await setUserTriggers(tx, tables, true);
    await verifyTables(
      tx,
      tables.filter((t) => manifest.tables[t.name]),
      manifest,
      progress,
    );
  });
  const upgraded = await migrate(db);
  return { tables: header.tables.length, rows, upgraded };
}

/** Reads every restored table back and compares its count and checksum with the manifest. */
async function verifyTables(tx: Queryable, tables: TableInfo[], manifest: Manifest, progress: (p: BackupProgress) => void): Promise<void> {
  for (const [i, table] of tables.entries()) {
    const hash = createHash('sha256');
    let rows = 0;
    progress({ phase: 'verify', table: table.name, rows, done: i, total: tables.length });
    await forEachRowPage(tx, table, (page) => {
      for (const r of page) hash.update(`${r}\n`);
      rows += page.length;
      progress({ phase: 'verify', table: table.name, rows, done: i, total: tables.length });
    });
    const want = manifest.tables[table.name]!;
    const sha256 = hash.digest('hex');
    if (rows !== want.rows || sha256 !== want.sha256) {
      throw new BackupFileError(
        `verification failed after loading ${table.name}: ${rows} rows (backup: ${want.rows}), checksum ${sha256 === want.sha256 ? 'equal' : 'different'}; nothing was restored`,
      );
    }
  }
}
