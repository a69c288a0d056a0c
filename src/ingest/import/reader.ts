// Streams the records of an import file with their line numbers: CSV through csv-parse
// (header row, RFC 4180 quoting, multi-line cells), JSONL through readline (one JSON object
// per line). Constant memory: records are yielded one at a time under backpressure.
// Values are cleaned for validation: CSV cells trimmed, empty cells and JSON nulls dropped.
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { ImportFormat, RowError } from './types.ts';

/** A record, or a line that could not be read (`header`: the CSV header itself). */
export type ReadEvent = { line: number; values: Record<string, unknown> } | { error: RowError; header?: boolean };

export interface ReadOptions {
  /** Validates the CSV header; errors stop the reading. */
  checkHeader?: (columns: string[]) => RowError[];
  /** Filled with every field name the file mentions (CSV header, JSONL keys). */
  present: Set<string>;
}

export function readRecords(input: Readable, format: ImportFormat, options: ReadOptions): AsyncGenerator<ReadEvent> {
  return format === 'csv' ? readCsv(input, options) : readJsonl(input, options);
}

async function* readCsv(input: Readable, options: ReadOptions): AsyncGenerator<ReadEvent> {
  const skipped: RowError[] = [];
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true });
  parser.on('skip', (err: Error & { lines?: number }) => {
    skipped.push({ line: err.lines ?? 0, field: '(row)', message: `unreadable CSV: ${err.message}` });
  });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | undefined;
  let prevLines = 0;
  let prevEmpty = 0;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
    while (skipped.length > 0) yield { error: skipped.shift()! };
    // info.lines is where the record ends; it starts after the previous record and any
    // empty lines skipped since (a quoted cell may span lines).
    const line = prevLines + 1 + (info.empty_lines - prevEmpty);
    prevLines = info.lines;
    prevEmpty = info.empty_lines;
    if (!header) {
      header = record.map((h) => h.trim());
      for (const h of header) options.present.add(h);
      const errors = headerErrors(header, line).concat(options.checkHeader?.(header).map((e) => ({ ...e, line })) ?? []);
      if (errors.length > 0) {
        for (const error of errors) yield { error, header: true };
        input.unpipe(parser);
        parser.destroy();
        input.destroy();
        return;
      }
      continue;
    }
    if (record.length !== header.length) {
      yield { error: { line, field: '(row)', message: `has ${record.length} fields, the header has ${header.length}` } };
      continue;
    }
    const values: Record<string, unknown> = {};
    for (let i = 0; i < header.length; i++) {
      const v = record[i]!.trim();
      if (v !== '') values[header[i]!] = v;
    }
    yield { line, values };
  }
  while (skipped.length > 0) yield { error: skipped.shift()! };
  if (!header) yield { error: { line: 1, field: '(header)', message: 'the file is empty: a CSV import needs a header row' }, header: true };
}

function headerErrors(header: string[], line: number): RowError[] {
  const seen = new Set<string>();
  const errors: RowError[] = [];
  for (const h of header) {
    if (h === '') errors.push({ line, field: '(header)', message: 'a column has no name' });
    else if (seen.has(h)) errors.push({ line, field: h, message: 'column appears twice in the header' });
    seen.add(h);
  }
  return errors;
}

async function* readJsonl(input: Readable, options: ReadOptions): AsyncGenerator<ReadEvent> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { error: { line, field: '(row)', message: `invalid JSON: ${(err as Error).message}` } };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { error: { line, field: '(row)', message: 'each line must be one JSON object' } };
      continue;
    }
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      options.present.add(k);
      if (v !== null && v !== '') values[k] = v;
    }
    yield { line, values };
  }
}
