// Bounds on how long a streamed export (CSV, JSON Lines) may hold its bulkhead slot: an
// export slot is held until the reader has taken the last byte, so a reader that takes the
// file slowly holds it for as long as it likes, and two such readers hold every export slot
// of the service. A reply is cut (its connection closed, so the client sees an incomplete
// chunked reply, never a silently short file) when, over a window of
// EXPORT_RATE_WINDOW_SECONDS, fewer than EXPORT_MIN_BYTES_PER_SECOND moved while the reply
// waited on the reader (a slow database, where the reply waits on us, is not the reader's
// fault), or when it has run EXPORT_MAX_SECONDS. The audit entry says why (noteExportCut).
import type { FastifyReply } from 'fastify';
import { noteExportCut, type ExportCut } from '../services/exports.ts';
import { exportsCut } from '../telemetry/metrics.ts';

/** Watches the reply of the export `rows` (what audited() returned) until its response closes. */
export function boundExportReader(reply: FastifyReply, rows: object): void {
  const { minBytesPerSecond, rateWindowMs, maxDurationMs } = reply.server.config.exports;
  const res = reply.raw;
  const socket = reply.request.raw.socket;
  if (!socket || (minBytesPerSecond === 0 && maxDurationMs === 0)) return;
  const cut = (reason: ExportCut) => {
    noteExportCut(rows, reason);
    exportsCut.inc({ reason: reason.reason });
    reply.log.warn({ cut: reason.reason, detail: reason.detail, clientId: reply.request.clientId }, 'export cut');
    stop();
    socket.destroy();
  };
  // Bytes handed to the socket; with keep-alive one socket carries one response at a time.
  let mark = socket.bytesWritten;
  const window =
    minBytesPerSecond > 0
      ? setInterval(() => {
          const moved = socket.bytesWritten - mark;
          mark = socket.bytesWritten;
          const least = (minBytesPerSecond * rateWindowMs) / 1000;
          if (moved < least && res.writableNeedDrain) {
            cut({
              reason: 'slow_reader',
              detail: `the reader took ${moved} bytes in ${rateWindowMs / 1000} s, under EXPORT_MIN_BYTES_PER_SECOND (${minBytesPerSecond} bytes/s)`,
            });
          }
        }, rateWindowMs).unref()
      : undefined;
  const longest =
    maxDurationMs > 0
      ? setTimeout(() => cut({ reason: 'max_duration', detail: `the export ran ${maxDurationMs / 1000} s, EXPORT_MAX_SECONDS` }), maxDurationMs).unref()
      : undefined;
  const stop = () => {
    clearInterval(window);
    clearTimeout(longest);
  };
  res.once('close', stop);
}
