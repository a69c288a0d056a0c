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

/**
 * Server-Sent Events: each message `id:` (the cursor to resume after it), `event:` (the
 * type) and `data:` (the JSON on one line); a heartbeat is a comment line. Nothing is
 * buffered on the way (proxies are asked not to either).
 */
export function sendEventStream(
  reply: FastifyReply,
  messages: AsyncIterable<{ cursor: string; event: { type: string } } | { heartbeat: true } | { error: { status: number; error: string; message: string } }>,
) {
  reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    // When the stream ends (the server closing) its connection goes too, not back to keep-alive.
    .header('connection', 'close');
  return reply.send(
    Readable.from(
      (async function* () {
        // The first bytes at once: the client knows the stream is open before any event.
        yield ': stream open\n\n';
        for await (const m of messages) {
          // An error ends the stream; it has no id, so a client resumes after the last event it got.
          if ('error' in m) yield `event: error\ndata: ${JSON.stringify(m.error)}\n\n`;
          else yield 'heartbeat' in m ? ': heartbeat\n\n' : `id: ${m.cursor}\nevent: ${m.event.type}\ndata: ${JSON.stringify(m.event)}\n\n`;
        }
      })(),
    ),
  );
}
