// importFile: one file of one kind into the database, all or nothing. Streams the records,
// validates each (the kind's rules: kinds/define.ts), stages the valid ones in batches,
// checks references and in-file duplicates set-based, then writes new and changed rows;
// any rejected line → ROLLBACK and a list of every bad line with its field and reason.
// Shared by the CLI, tests and bench/ (bench/import-installs.ts measures it).
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { BadRequestError } from '../../errors.ts';
import { beginStatements, type Db } from '../../db/db.ts';
import { ImportStage, STAGE_SPECS, type StageBatch } from '../../store/import/index.ts';
import { KINDS } from './kinds/index.ts';
import { readRecords } from '../../records.ts';
import { importObserver } from '../../telemetry/metrics.ts';
import { IMPORT_FORMATS, IMPORT_KINDS, type ImportFormat, type ImportKind, type ImportProgress, type ImportSummary, type RowError } from './types.ts';

export * from './types.ts';

export interface ImportOptions {
  /** csv | jsonl; default from the file extension (.csv, .jsonl, .ndjson). */
  format?: ImportFormat;
  /** Errors listed in the summary (all are counted). Default 1000. */
  maxErrors?: number;
  /** Rows per staging batch. Default 5000. */
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
}

function isImportKind(kind: string): kind is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(kind);
}

function formatFromPath(file: string): ImportFormat | undefined {
  const ext = path.extname(file).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : undefined;
}

/** Imports `source` (a file path or a readable byte stream) as rows of `kind`. */
export async function importFile(db: Db, kind: ImportKind, source: string | Readable, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  if (!isImportKind(kind)) throw new BadRequestError(`kind: '${kind}' is not one of ${IMPORT_KINDS.join(', ')}`);
  const format = options.format ?? (typeof source === 'string' ? formatFromPath(source) : undefined);
  if (!format || !(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new BadRequestError('format: give --format csv|jsonl (or name the file .csv / .jsonl)');
  }
  const maxErrors = options.maxErrors ?? 1000;
  const batchSize = options.batchSize ?? 5000;
  const def = KINDS[kind];
  let totalBytes: number | undefined;
  let input: Readable;
  if (typeof source === 'string') {
    const stat = await fs.promises.stat(source).catch(() => undefined);
    if (!stat?.isFile()) throw new BadRequestError(`file: ${source} does not exist or is not a file`);
    totalBytes = stat.size;
    input = fs.createReadStream(source, { highWaterMark: 256 * 1024 });
  } else {
    input = source;
  }
  // Counts bytes for the progress bar; buffers (under backpressure) until the reader pulls.
  let bytesRead = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytesRead += chunk.length;
      done(null, chunk);
    },
  });
  input.on('error', (err) => counter.destroy(err));
  input.pipe(counter);

  const errors: RowError[] = [];
  let errorCount = 0;
  let rejected = 0;
  let rowsRead = 0;
  let timings: ImportSummary['timings'];
  const addErrors = (list: RowError[]) => {
    errorCount += list.length;
    for (const e of list) if (errors.length < maxErrors) errors.push(e);
  };
  let observed: ReturnType<typeof importObserver> | undefined; // /metrics, from the first statement on
  const progress = (phase: ImportProgress['phase']) => {
    const report = { phase, rowsRead, bytesRead, totalBytes };
    observed?.progress(report);
    options.onProgress?.(report);
  };
  const summary = (committed: boolean, counts = { inserted: 0, updated: 0, deleted: 0 }): ImportSummary => {
    const elapsedMs = performance.now() - started;
    const valid = rowsRead - rejected;
    return {
      kind,
      format,
      committed,
      rowsRead,
      ...counts,
      unchanged: committed ? Math.max(0, valid - counts.inserted - counts.updated) : 0,
      rejected,
      errors,
      errorCount,
      elapsedMs,
      rowsPerSecond: rowsRead / Math.max(elapsedMs / 1000, 1e-3),
      timings,
    };
  };

  // The one transaction outside Db.transaction: COPY FROM STDIN needs the driver's own
  // client, and a rejected file ends in ROLLBACK without an error.
  const client = await db.pool.connect();
  const stage = new ImportStage(client, STAGE_SPECS[kind], db.engine);
  observed = importObserver(kind);
  try {
    // READ COMMITTED whatever the server default: the checks must see every row committed
    // before they lock the referenced tables (ImportStage.foreignKeysVerified).
    for (const text of beginStatements({ isolation: 'read committed' }, db.citus)) await client.query(text);
    await stage.create();
    const columns = stage.columnNames;
    const present = new Set<string>();
    const newBatch = (): StageBatch => ({ lines: [], values: columns.map(() => []) });
    let batch = newBatch();
    // One batch is written while the next is parsed (PostgreSQL works on its own core).
    let pending: Promise<void> = Promise.resolve();
    const flush = async () => {
      await pending;
      const full = batch;
      batch = newBatch();
      pending = stage.insert(full);
      pending.catch(() => {}); // awaited at the next flush; avoids an unhandled rejection meanwhile
      progress('reading');
    };
    const records = readRecords(counter, format, { present, checkHeader: (header) => headerErrors(def.fields, def.required, header) });
    for await (const events of records) {
      for (const event of events) {
        if ('error' in event) {
          if (!event.header) rowsRead++;
          // Several header problems are still one rejected line.
          if (!event.header || !errors.some((e) => e.line === event.error.line)) rejected++;
          addErrors([event.error]);
          continue;
        }
        rowsRead++;
        const checked = def.validate(event.values);
        if (!checked.ok) {
          rejected++;
          addErrors(checked.issues.map((i) => ({ line: event.line, ...i })));
          continue;
        }
        batch.lines.push(event.line);
        for (let c = 0; c < columns.length; c++) batch.values[c]!.push(checked.row[columns[c]!] ?? null);
        if (batch.lines.length >= batchSize) await flush();
      }
    }
    await flush();
    await pending;
    await stage.finish();

    const readMs = performance.now() - started;
    progress('checking');
    const checked = await stage.check(maxErrors);
    if (checked.rejected > 0 || rejected > 0) {
      rejected += checked.rejected;
      errorCount += checked.errorCount;
      errors.push(...checked.errors);
      errors.sort((a, b) => a.line - b.line || a.field.localeCompare(b.field));
      errors.length = Math.min(errors.length, maxErrors);
      await client.query('ROLLBACK');
      progress('done');
      observed.end('rejected');
      return summary(false);
    }
    const checkMs = performance.now() - started - readMs;
    progress('writing');
    const counts = await stage.write(present);
    await client.query('COMMIT');
    timings = { readMs, checkMs, writeMs: performance.now() - started - readMs - checkMs };
    progress('done');
    observed.end('committed');
    return summary(true, counts);
  } catch (err) {
    observed.end('failed');
    await stage.abort(err as Error);
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
    input.destroy();
    counter.destroy();
  }
}

function headerErrors(fields: readonly string[], required: readonly string[], header: string[]): RowError[] {
  const errors: RowError[] = [];
  for (const h of header) {
    if (h !== '' && !fields.includes(h)) errors.push({ line: 1, field: h, message: `unknown column (expected: ${fields.join(', ')})` });
  }
  for (const r of required) {
    if (!header.includes(r)) errors.push({ line: 1, field: r, message: 'required column is missing from the header' });
  }
  return errors;
}
