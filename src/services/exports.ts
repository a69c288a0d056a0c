// Audited exports, every one of them (CSV and JSON Lines): counts the rows actually streamed
// and writes the audit entry when the stream ends (completely, or early when the client goes
// away or the server cuts it at shutdown), so the audit log tells how much data left the
// service, not how much was asked for. The entry's params carry `completed`: true when the
// stream reached its end, and `cut`/`cutDetail` when the server cut it (a reader too slow,
// an export past its longest duration: http/export-bounds.ts). Exports whose audit entry is
// still being written are tracked, so a shutdown closes the database only after the last one
// (`exportsSettled`).
import type { Db } from '../db/db.ts';
import { despiteDisconnect } from '../db/query-limits.ts';
import { audit } from './audit.ts';
import { observeExport } from '../telemetry/metrics.ts';

/** Who an export is done by (the API client) and for (the X-On-Behalf-Of-User user; null for an unattributed stream). */
export interface Actor {
  clientId: string;
  onBehalfOf: string | null;
}

const running = new Set<Promise<void>>();

/** Why the server cut an export (the door that streams it decides: export-bounds). */
export interface ExportCut {
  /** A stable code: slow_reader, max_duration. */
  reason: string;
  /** The bound and the figure that broke it, for a person reading the audit log. */
  detail: string;
}

/** The cut, once known, of each export generator audited() returned. */
const cuts = new WeakMap<object, { cut?: ExportCut }>();

/**
 * Records why the server is cutting this export (`rows`: what audited() returned), before it
 * closes the stream: the audit entry then carries `cut` and `cutDetail`. Rows of any other
 * origin are ignored.
 */
export function noteExportCut(rows: object, cut: ExportCut): void {
  const state = cuts.get(rows);
  if (state && !state.cut) state.cut = cut;
}

export function audited<T>(db: Db, rows: AsyncIterable<T>, entry: { actor: Actor; action: string; params: Record<string, unknown> }): AsyncGenerator<T> {
  const state: { cut?: ExportCut } = {};
  const generator = auditedRows(db, rows, entry, state);
  cuts.set(generator, state);
  return generator;
}

async function* auditedRows<T>(
  db: Db,
  rows: AsyncIterable<T>,
  entry: { actor: Actor; action: string; params: Record<string, unknown> },
  state: { cut?: ExportCut },
): AsyncGenerator<T> {
  let count = 0;
  let completed = false;
  let done!: () => void;
  const settled = new Promise<void>((resolve) => (done = resolve));
  running.add(settled);
  try {
    for await (const row of rows) {
      count++; // counted when handed over: a consumer may stop at any yield
      yield row;
    }
    completed = true;
  } finally {
    observeExport(entry.action, count, completed);
    try {
      // Also (above all) when the client went away: its disconnect must not cancel this write.
      await despiteDisconnect(() =>
        audit(db, {
          clientId: entry.actor.clientId,
          onBehalfOf: entry.actor.onBehalfOf,
          action: entry.action,
          params: { ...entry.params, completed, ...(state.cut ? { cut: state.cut.reason, cutDetail: state.cut.detail } : {}) },
          resultCount: count,
        }),
      );
    } finally {
      running.delete(settled);
      done();
    }
  }
}

/** Resolves when every export that has started has written its audit entry. */
export async function exportsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
