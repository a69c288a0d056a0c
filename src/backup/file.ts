// The backup file: gzip'd lines. A header, then per table a `#table` line, one JSON text per
// row (row_to_json, primary-key order) and an `#end` line with the count and SHA-256 of its
// row lines, then the sequences and a closing `#manifest` repeating every table's count and
// checksum. A file cut short has no manifest; a changed row changes its table's checksum.
// Written to FILE.partial (created exclusively, never through a link) and renamed when
// complete, so FILE is never a half-written backup.
import fs from 'node:fs';
import readline from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { SequenceValue } from '../store/backup.ts';

export const BACKUP_FORMAT = 'stacklens-backup';
export const BACKUP_VERSION = 1;

interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  engine: string;
  /** The migrations the backed-up database had applied: the schema its rows fit. */
  migrations: number[];
  /** Load order. */
  tables: string[];
}

export interface TableSum {
  rows: number;
  sha256: string;
}

export interface Manifest {
  tables: Record<string, TableSum>;
  sequences: Record<string, SequenceValue>;
}

export class BackupFileError extends Error {}

/**
 * Creates FILE.partial as a new file of our own (0600): exclusive create, and no symbolic link
 * followed. An existing path is refused, never reused or removed: a link planted there (in a
 * shared folder) would otherwise have us truncate and write its target, and a regular file
 * there is another backup to the same FILE still running, or one that was killed; removing it
 * would break the running one, so the operator decides.
 */
function openPartial(partial: string): number {
  try {
    return fs.openSync(partial, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP') {
      throw new BackupFileError(
        `${partial} already exists: another backup to this file is running, or one was interrupted. If none is running, remove ${partial} and try again.`,
      );
    }
    throw new BackupFileError(`${partial} cannot be created: ${(err as Error).message}`);
  }
}

/** Writes a backup file line by line under backpressure. */
export class BackupWriter {
  private readonly gzip = createGzip({ level: 6 });
  private readonly out: fs.WriteStream;
  private readonly partial: string;
  private table: { name: string; rows: number; hash: Hash } | undefined;
  private readonly sums: Record<string, TableSum> = {};

  constructor(private readonly file: string) {
    this.partial = `${file}.partial`;
    this.out = fs.createWriteStream(this.partial, { fd: openPartial(this.partial) });
    this.gzip.pipe(this.out);
  }

  private async line(text: string): Promise<void> {
    if (!this.gzip.write(`${text}\n`)) await once(this.gzip, 'drain');
  }

  header(h: BackupHeader): Promise<void> {
    return this.line(`#${BACKUP_FORMAT} ${JSON.stringify(h)}`);
  }

  async startTable(name: string, columns: string[]): Promise<void> {
    this.table = { name, rows: 0, hash: createHash('sha256') };
    await this.line(`#table ${JSON.stringify({ name, columns })}`);
  }

  async rows(rows: string[]): Promise<void> {
    const t = this.table!;
    for (const r of rows) {
      t.hash.update(`${r}\n`);
      t.rows++;
    }
    await this.line(rows.join('\n'));
  }

  async endTable(): Promise<TableSum> {
    const t = this.table!;
    const sum = { rows: t.rows, sha256: t.hash.digest('hex') };
    this.sums[t.name] = sum;
    this.table = undefined;
    await this.line(`#end ${JSON.stringify({ table: t.name, ...sum })}`);
    return sum;
  }

  /** Writes the manifest and makes FILE appear. */
  async finish(sequences: Record<string, SequenceValue>): Promise<Manifest> {
    const manifest: Manifest = { tables: this.sums, sequences };
    await this.line(`#manifest ${JSON.stringify(manifest)}`);
    this.gzip.end();
    await finished(this.out);
    fs.renameSync(this.partial, this.file);
    return manifest;
  }

  async abort(): Promise<void> {
    this.gzip.destroy();
    this.out.destroy();
    fs.rmSync(this.partial, { force: true });
  }
}

/** What reading a backup file yields, in file order. */
type BackupEvent =
  | { type: 'header'; header: BackupHeader }
  | { type: 'table'; name: string; columns: string[] }
  | { type: 'rows'; rows: string[] }
  | { type: 'end'; table: string; sum: TableSum }
  | { type: 'manifest'; manifest: Manifest };

/**
 * Reads a backup file, checking as it goes: the header first, every table's rows against its
 * `#end` line, and the manifest against the `#end` lines. Throws BackupFileError naming what
 * does not match; yields rows in pages of `pageSize`.
 */
export async function* readBackup(file: string, pageSize = 2000): AsyncGenerator<BackupEvent> {
  if (!fs.existsSync(file)) throw new BackupFileError(`${file}: no such file`);
  const lines = readline.createInterface({ input: fs.createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let header: BackupHeader | undefined;
  let table: { name: string; rows: number; hash: Hash } | undefined;
  const sums: Record<string, TableSum> = {};
  let page: string[] = [];
  let manifest: Manifest | undefined;
  try {
    for await (const line of lines) {
      if (manifest) throw new BackupFileError(`${file}: text after the manifest`);
      if (!header) {
        const prefix = `#${BACKUP_FORMAT} `;
        if (!line.startsWith(prefix)) throw new BackupFileError(`${file}: not a Stacklens backup (no header)`);
        header = JSON.parse(line.slice(prefix.length)) as BackupHeader;
        if (header.version !== BACKUP_VERSION)
          throw new BackupFileError(`${file}: backup format version ${header.version} is not supported (this Stacklens reads ${BACKUP_VERSION})`);
        yield { type: 'header', header };
      } else if (line.startsWith('{')) {
        if (!table) throw new BackupFileError(`${file}: a row outside a table`);
        table.hash.update(`${line}\n`);
        table.rows++;
        page.push(line);
        if (page.length >= pageSize) {
          yield { type: 'rows', rows: page };
          page = [];
        }
      } else if (line.startsWith('#table ')) {
        const t = JSON.parse(line.slice(7)) as { name: string; columns: string[] };
        table = { name: t.name, rows: 0, hash: createHash('sha256') };
        yield { type: 'table', name: t.name, columns: t.columns };
      } else if (line.startsWith('#end ')) {
        const end = JSON.parse(line.slice(5)) as { table: string } & TableSum;
        if (!table || end.table !== table.name) throw new BackupFileError(`${file}: an #end line for ${end.table} outside its table`);
        if (page.length > 0) yield { type: 'rows', rows: page };
        page = [];
        const sum = { rows: table.rows, sha256: table.hash.digest('hex') };
        if (sum.rows !== end.rows || sum.sha256 !== end.sha256) {
          throw new BackupFileError(
            `${file}: table ${table.name} does not match its checksum (${sum.rows} rows read, ${end.rows} recorded): the file was changed or damaged`,
          );
        }
        sums[table.name] = sum;
        table = undefined;
        yield { type: 'end', table: end.table, sum };
      } else if (line.startsWith('#manifest ')) {
        manifest = JSON.parse(line.slice(10)) as Manifest;
        for (const [name, sum] of Object.entries(manifest.tables)) {
          const seen = sums[name];
          if (!seen || seen.rows !== sum.rows || seen.sha256 !== sum.sha256)
            throw new BackupFileError(`${file}: the manifest's entry for ${name} does not match the table in the file`);
        }
        const missing = header.tables.filter((t) => !manifest!.tables[t] || !sums[t]);
        if (missing.length > 0 || Object.keys(sums).length !== Object.keys(manifest.tables).length) {
          throw new BackupFileError(`${file}: tables missing from the backup or its manifest: ${missing.join(', ') || 'extra tables'}`);
        }
        yield { type: 'manifest', manifest };
      } else if (line !== '') {
        throw new BackupFileError(`${file}: unexpected line ${JSON.stringify(line.slice(0, 40))}`);
      }
    }
  } catch (err) {
    if (err instanceof BackupFileError) throw err;
    if (err instanceof SyntaxError) throw new BackupFileError(`${file}: a damaged line (${err.message})`);
    throw new BackupFileError(`${file}: cannot be read (${(err as Error).message}); is it a complete Stacklens backup?`);
  } finally {
    lines.close();
  }
  if (!header) throw new BackupFileError(`${file}: empty file`);
  if (!manifest) throw new BackupFileError(`${file}: no manifest at the end: the backup is incomplete (cut short while written or copied)`);
}

/** Checks a whole backup file; returns its header and manifest. */
export async function verifyBackupFile(file: string): Promise<{ header: BackupHeader; manifest: Manifest }> {
  let header: BackupHeader | undefined;
  let manifest: Manifest | undefined;
  for await (const event of readBackup(file)) {
    if (event.type === 'header') header = event.header;
    else if (event.type === 'manifest') manifest = event.manifest;
  }
  return { header: header!, manifest: manifest! };
}
