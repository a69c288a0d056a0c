// Streams the records of a CSV or JSONL file (an import, a job-post file) with their line numbers: CSV through csv-parse
// (header row, RFC 4180 quoting, multi-line cells), JSONL split on newlines (one JSON object
// per line). Constant memory: records come in arrays of what is buffered (one await per
// array, not per record), pulled under backpressure. Values are cleaned for validation:
// CSV cells trimmed, empty cells and JSON nulls dropped.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse';

type RecordFormat = 'csv' | 'jsonl';

/** A record that could not be read, or read but refused. */
export interface RecordError {
  /** 1-based physical line of the file where the record starts (the header is line 1). */
  line: number;
  /** The input field (column / JSON key) at fault; `(row)` for the record as a whole. */
  field: string;
  message: string;
}

/** A record, or a line that could not be read (`header`: the CSV header itself). */
type ReadEvent = { line: number; values: Record<string, unknown> } | { error: RecordError; header?: boolean };

interface ReadOptions {
  /** Validates the CSV header; errors stop the reading. */
  checkHeader?: (columns: string[]) => RecordError[];
  /** Filled with every field name the file mentions (CSV header, JSONL keys). */
  present: Set<string>;
}

export function readRecords(input: Readable, format: RecordFormat, options: ReadOptions): AsyncGenerator<ReadEvent[]> {
  return format === 'csv' ? readCsv(input, options) : readJsonl(input, options);
}

interface CsvRecord {
  record: string[];
  info: { lines: number; empty_lines: number };
}

async function* readCsv(input: Readable, options: ReadOptions): AsyncGenerator<ReadEvent[]> {
  const skipped: RecordError[] = [];
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true });
  // Line numbers without `info: true`, which copies the whole info object per record (the
  // most expensive part of parsing): the parser's live counters are read as each record is
  // pushed, which is exactly when `info` would have been taken.
  const counters = (parser as unknown as { info: CsvRecord['info'] }).info;
  const push = parser.push.bind(parser);
  parser.push = (record: string[] | null) => push(record === null ? null : { record, info: { lines: counters.lines, empty_lines: counters.empty_lines } });
  parser.on('skip', (err: Error & { lines?: number }) => {
    skipped.push({ line: err.lines ?? 0, field: '(row)', message: `unreadable CSV: ${err.message}` });
  });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | undefined;
  let prevLines = 0;
  let prevEmpty = 0;
  for await (const chunk of drain<CsvRecord>(parser)) {
    const out: ReadEvent[] = skipped.splice(0).map((error) => ({ error }));
    for (const { record, info } of chunk) {
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
          yield errors.map((error) => ({ error, header: true }));
          input.unpipe(parser);
          parser.destroy();
          input.destroy();
          return;
        }
        continue;
      }
      if (record.length !== header.length) {
        out.push({ error: { line, field: '(row)', message: `has ${record.length} fields, the header has ${header.length}` } });
        continue;
      }
      const values: Record<string, unknown> = {};
      for (let i = 0; i < header.length; i++) {
        const v = record[i]!.trim();
        if (v !== '') values[header[i]!] = v;
      }
      out.push({ line, values });
    }
    if (out.length > 0) yield out;
  }
  const tail: ReadEvent[] = skipped.splice(0).map((error) => ({ error }));
  if (!header) tail.push({ error: { line: 1, field: '(header)', message: 'the file is empty: a CSV import needs a header row' }, header: true });
  if (tail.length > 0) yield tail;
}

function headerErrors(header: string[], line: number): RecordError[] {
  const seen = new Set<string>();
  const errors: RecordError[] = [];
  for (const h of header) {
    if (h === '') errors.push({ line, field: '(header)', message: 'a column has no name' });
    else if (seen.has(h)) errors.push({ line, field: h, message: 'column appears twice in the header' });
    seen.add(h);
  }
  return errors;
}

/** Objects of an object-mode stream in arrays of what is buffered. */
async function* drain<T>(stream: Readable): AsyncGenerator<T[]> {
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  stream.on('readable', signal);
  stream.on('end', () => ((ended = true), signal()));
  stream.on('close', () => ((ended = true), signal()));
  stream.on('error', (err) => ((failure = err), signal()));
  for (;;) {
    const items: T[] = [];
    let item: T | null;
    while (items.length < 2000 && (item = stream.read() as T | null) !== null) items.push(item);
    if (items.length > 0) {
      yield items;
      continue;
    }
    if (failure) throw failure;
    if (ended) return;
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

async function* readJsonl(input: Readable, options: ReadOptions): AsyncGenerator<ReadEvent[]> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  for await (const chunk of input) {
    const lines = (rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
    rest = lines.pop()!;
    const out: ReadEvent[] = [];
    for (const raw of lines) {
      const event = jsonLine(++line, raw, options);
      if (event) out.push(event);
    }
    if (out.length > 0) yield out;
  }
  rest += decoder.end();
  const last = rest === '' ? undefined : jsonLine(++line, rest, options);
  if (last) yield [last];
}

function jsonLine(line: number, raw: string, options: ReadOptions): ReadEvent | undefined {
  let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: { line, field: '(row)', message: `invalid JSON: ${(err as Error).message}` } };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: { line, field: '(row)', message: 'each line must be one JSON object' } };
  }
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    options.present.add(k);
    if (v !== null && v !== '') values[k] = v;
  }
  return { line, values };
}
