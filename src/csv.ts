// Encodes rows as RFC 4180 CSV, streamed with constant memory (used by the REST exports and
// the MCP tools alike). Cells that a spreadsheet would run as a formula (=, +, -, @, tab,
// CR) get a leading apostrophe.
import { Readable } from 'node:stream';

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
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return cleaned || 'export.csv';
}

// A field is quoted when it holds a quote, a comma, CR or LF; quotes inside are doubled.
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}

/** Lines are gathered into chunks of about this many characters before they are pushed. */
const CHUNK_CHARS = 64 * 1024;

/**
 * CSV text of rows (header first, CRLF line ends), streamed. Lines are joined into chunks
 * rather than pushed one row at a time, so the per-row cost is the encoding alone; the
 * stream pulls the next rows only when the reader wants more (backpressure), and
 * destroying it (the client went away) returns the row source, whose generators run
 * their finally.
 */
export function csvStream<T>(rows: AsyncIterable<T> | Iterable<T>, columns: CsvColumn<T>[]): Readable {
  const n = columns.length;
  const line = (row: T): string => {
    let out = '';
    for (let i = 0; i < n; i++) {
      if (i > 0) out += ',';
      out += field(cell(columns[i]!.value(row)));
    }
    return `${out}\r\n`;
  };
  return Readable.from(
    (async function* () {
      yield `${columns.map((c) => field(c.header)).join(',')}\r\n`;
      let chunk = '';
      for await (const row of rows) {
        chunk += line(row);
        if (chunk.length >= CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    })(),
    { objectMode: false },
  );
}
