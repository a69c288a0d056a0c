// Filling the staging table: `COPY ... FROM STDIN` on a PostgreSQL server (one COPY per file,
// batches written under backpressure while the next ones are parsed), `unnest` batches on
// PGlite, whose node-postgres adapter cannot carry the COPY sub-protocol.
// COPY was measured at about a third of the server CPU of the unnest INSERT (no array
// parameters to parse), and its text encoding costs node less than pg's array serialization.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';

export type PgType = 'text' | 'int' | 'bigint' | 'real' | 'bool' | 'timestamptz' | 'jsonb' | 'text[]';

/** One batch in columnar form: `lines[i]` and `values[c][i]` describe row i. */
export interface StageBatch {
  lines: number[];
  values: unknown[][];
}

/** Writes batches into `import_stage`; `finish` before the next statement on the client. */
export interface StageLoader {
  add(batch: StageBatch): Promise<void>;
  finish(): Promise<void>;
  /** After a failure: leaves the client usable for ROLLBACK. */
  abort(err: Error): Promise<void>;
}

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
function copyEncoder(type: PgType): (v: unknown) => string {
  switch (type) {
    case 'int':
    case 'bigint':
    case 'real':
      return (v) => (v == null ? '\\N' : String(v));
    case 'bool':
      return (v) => (v == null ? '\\N' : v ? 't' : 'f');
    case 'timestamptz':
      // ISO 8601 text from the validator (fields.ts timestamp): nothing to escape.
      return (v) => (v == null ? '\\N' : v instanceof Date ? v.toISOString() : String(v));
    case 'jsonb':
      return (v) => (v == null ? '\\N' : copyText(JSON.stringify(v)));
    case 'text[]':
      return (v) => (v == null ? '\\N' : copyText(arrayLiteral(v as string[])));
    default:
      return (v) => (v == null ? '\\N' : copyText(String(v)));
  }
}

export function copyLoader(client: pg.PoolClient, names: readonly string[], types: readonly PgType[]): StageLoader {
  const encoders = types.map(copyEncoder);
  let stream: CopyStreamQuery | undefined;
  let failure: Error | undefined;
  const open = (): CopyStreamQuery => {
    // A buffer of a few batches lets parsing run ahead while the server ingests.
    const s = client.query(copyFrom(`COPY import_stage (line, ${names.join(', ')}) FROM STDIN`, { highWaterMark: 4 * 2 ** 20 }));
    s.on('error', (err: Error) => (failure ??= err));
    return s;
  };
  return {
    async add(batch) {
      if (batch.lines.length === 0) return;
      if (failure) throw failure;
      stream ??= open();
      let chunk = '';
      for (let r = 0; r < batch.lines.length; r++) {
        chunk += batch.lines[r];
        for (let c = 0; c < encoders.length; c++) chunk += `\t${encoders[c]!(batch.values[c]![r])}`;
        chunk += '\n';
      }
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    async finish() {
      if (failure) throw failure;
      if (!stream) return;
      stream.end();
      await finished(stream);
    },
    async abort(err) {
      if (!stream || stream.destroyed) return;
      // Sends CopyFail: the server ends the COPY, and the client takes the next query.
      stream.destroy(err);
      await finished(stream).catch(() => {});
    },
  };
}

const PARAM_TYPE: Record<PgType, string> = {
  text: 'text[]',
  int: 'int[]',
  bigint: 'bigint[]',
  real: 'real[]',
  bool: 'bool[]',
  timestamptz: 'timestamptz[]',
  jsonb: 'text[]',
  'text[]': 'text[]',
};

export function unnestLoader(client: pg.PoolClient, names: readonly string[], types: readonly PgType[]): StageLoader {
  const params = ['$1::int[]', ...types.map((t, i) => `$${i + 2}::${PARAM_TYPE[t]}`)].join(', ');
  const select = names.map((n, i) => (types[i] === 'jsonb' || types[i] === 'text[]' ? `u.${n}::${types[i]}` : `u.${n}`));
  const sql =
    `INSERT INTO import_stage (line, ${names.join(', ')}) ` +
    `SELECT u.line, ${select.join(', ')} FROM unnest(${params}) AS u(line, ${names.join(', ')})`;
  return {
    async add(batch) {
      if (batch.lines.length === 0) return;
      const values = batch.values.map((col, i) => {
        if (types[i] === 'text[]') return col.map((v) => (v == null ? null : arrayLiteral(v as string[])));
        if (types[i] === 'jsonb') return col.map((v) => (v == null ? null : JSON.stringify(v)));
        return col;
      });
      await client.query(sql, [batch.lines, ...values]);
    },
    async finish() {},
    async abort() {},
  };
}
