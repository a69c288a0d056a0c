// Filling the staging table: `COPY ... FROM STDIN` on a PostgreSQL server (one COPY per file,
// batches written under backpressure while the next ones are parsed), `unnest` batches on
// PGlite, which holds a COPY's data in memory until its end (pglite-copy.ts) while an import
// file may be larger than memory.
// COPY was measured at about a third of the server CPU of the unnest INSERT (no array
// parameters to parse), and its text encoding costs node less than pg's array serialization.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { arrayLiteral, copyEncoder, type PgType } from '../../db/copy-text.ts';

export type { PgType };

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
  date: 'date[]',
  jsonb: 'text[]',
  'text[]': 'text[]',
};

export function unnestLoader(client: pg.PoolClient, names: readonly string[], types: readonly PgType[]): StageLoader {
  const params = ['$1::int[]', ...types.map((t, i) => `$${i + 2}::${PARAM_TYPE[t]}`)].join(', ');
  const select = names.map((n, i) => (types[i] === 'jsonb' || types[i] === 'text[]' ? `u.${n}::${types[i]}` : `u.${n}`));
  const sql =
    `INSERT INTO import_stage (line, ${names.join(', ')}) ` + `SELECT u.line, ${select.join(', ')} FROM unnest(${params}) AS u(line, ${names.join(', ')})`;
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
