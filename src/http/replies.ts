// Streamed export replies: CSV attachments and JSON Lines, written row by row, each
// watched by the export reader's bounds (export-bounds.ts).
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { csvStream, safeFileName, type CsvColumn } from '../csv.ts';
import { boundExportReader } from './export-bounds.ts';

export function sendCsv<T>(reply: FastifyReply, fileName: string, rows: AsyncIterable<T> | Iterable<T>, columns: CsvColumn<T>[]) {
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${safeFileName(fileName)}"`)
    .header('cache-control', 'no-store');
  boundExportReader(reply, rows);
  return reply.send(csvStream(rows, columns));
}

/** JSON Lines: one JSON document per line, streamed. */
export function sendJsonLines<T>(reply: FastifyReply, rows: AsyncIterable<T>) {
  reply.header('content-type', 'application/jsonl; charset=utf-8');
  boundExportReader(reply, rows);
  return reply.send(
    Readable.from(
      (async function* () {
        for await (const row of rows) yield `${JSON.stringify(row)}\n`;
      })(),
    ),
  );
}
