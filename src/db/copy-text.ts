// COPY's text format: one row a line, columns separated by tabs, `\N` for null, backslash,
// tab and line breaks escaped. The bulk writers encode rows in it (the file import's staging
// table, the demo world's tables): PostgreSQL reads it for about a third of the CPU of an
// INSERT from unnest'ed array parameters, and node encodes it for less than pg's array
// serialization.

export type PgType = 'text' | 'int' | 'bigint' | 'real' | 'bool' | 'timestamptz' | 'date' | 'jsonb' | 'text[]';

const ARRAY_SPECIAL = /[\\"]/;

/** A PostgreSQL array literal: unnest cannot take an array of arrays, so list columns
 *  travel as one literal per row and are cast back on the server. */
export function arrayLiteral(items: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < items.length; i++) {
    const s = items[i]!;
    out += `${i === 0 ? '' : ','}"${ARRAY_SPECIAL.test(s) ? s.replace(/[\\"]/g, '\\$&') : s}"`;
  }
  return `${out}}`;
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: backslash, tab and line breaks escaped. */
function copyText(s: string): string {
  return COPY_SPECIAL.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : s;
}

/** One column's encoder; null and undefined are COPY's `\N`. */
export function copyEncoder(type: PgType): (v: unknown) => string {
  switch (type) {
    case 'int':
    case 'bigint':
    case 'real':
      return (v) => (v == null ? '\\N' : String(v));
    case 'bool':
      return (v) => (v == null ? '\\N' : v ? 't' : 'f');
    case 'timestamptz':
      // ISO 8601 text (the validator's, or Date's): nothing to escape.
      return (v) => (v == null ? '\\N' : v instanceof Date ? v.toISOString() : String(v));
    case 'date':
      return (v) => (v == null ? '\\N' : v instanceof Date ? v.toISOString().slice(0, 10) : String(v));
    case 'jsonb':
      return (v) => (v == null ? '\\N' : copyText(JSON.stringify(v)));
    case 'text[]':
      return (v) => (v == null ? '\\N' : copyText(arrayLiteral(v as string[])));
    default:
      return (v) => (v == null ? '\\N' : copyText(String(v)));
  }
}

/** The rows of one table being encoded for `COPY table (columns) FROM STDIN`. */
export class CopyRows<Name extends string = string> {
  private readonly encoders: Array<(v: unknown) => string>;
  private text = '';
  private count = 0;

  constructor(
    readonly table: string,
    readonly columns: ReadonlyArray<readonly [Name, PgType]>,
  ) {
    this.encoders = columns.map(([, type]) => copyEncoder(type));
  }

  /** One row: a value per column, in the columns' order. */
  add(values: readonly unknown[]): void {
    let line = this.encoders[0]!(values[0]);
    for (let c = 1; c < this.encoders.length; c++) line += `\t${this.encoders[c]!(values[c])}`;
    this.text += `${line}\n`;
    this.count++;
  }

  get rows(): number {
    return this.count;
  }

  /** What a transaction's copyFrom takes; plain data, so it crosses threads as it is. */
  encoded(): CopyData {
    return { sql: `COPY ${this.table} (${this.columns.map(([name]) => name).join(', ')}) FROM STDIN`, text: this.text, rows: this.count };
  }
}

export interface CopyData {
  sql: string;
  text: string;
  rows: number;
}
