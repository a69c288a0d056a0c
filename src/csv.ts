// Encodes rows as RFC 4180 CSV, streamed with constant memory (used by the REST exports and
// the MCP tools alike). Cells that a spreadsheet would run as a formula (=, +, -, @, tab,
// CR) get a leading apostrophe.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined | Date;
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralizeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return neutralizeCell(String(value));
}

/** A file name safe for Content-Disposition: letters, digits, dot, dash, underscore. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100);
  return cleaned || 'export.csv';
}

/** CSV text of rows (header first), as a stream of lines. */
export function csvStream<T>(rows: AsyncIterable<T> | Iterable<T>, columns: CsvColumn<T>[]): Readable {
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((c) => cell(c.value(row)));
    })(),
  );
  const stringifier = stringify({ header: true, columns: columns.map((c) => c.header), quoted_match: /[",\r\n]/, record_delimiter: 'windows' });
  source.on('error', (err) => stringifier.destroy(err));
  // pipe() does not pass destruction upstream: when the client goes away and the reply
  // destroys the stringifier, stop the row source too (its generators run their finally).
  stringifier.on('close', () => source.destroy());
  return source.pipe(stringifier);
}
