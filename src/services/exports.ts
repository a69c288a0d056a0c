// Audited exports, every one of them (CSV and JSON Lines): counts the rows actually streamed
// and writes the audit entry when the stream ends (completely, or early when the client goes
// away or the server cuts it at shutdown), so the audit log tells how much data left the
// service, not how much was asked for. The entry's params carry `completed`: true when the
// stream reached its end. Exports whose audit entry is still being written are tracked, so a
// shutdown closes the database only after the last one (`exportsSettled`).
import type { Db } from '../store/db.ts';
import { despiteDisconnect } from '../store/query-limits.ts';
import { audit } from './audit.ts';
import { observeExport } from '../telemetry/metrics.ts';

/** Who an export is done by (the API client) and for (the X-On-Behalf-Of-User user; null for an unattributed stream). */
export interface Actor {
  clientId: string;
  onBehalfOf: string | null;
}

const running = new Set<Promise<void>>();

export async function* audited<T>(
  db: Db,
  rows: AsyncIterable<T>,
  entry: { actor: Actor; action: string; params: Record<string, unknown> },
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
          params: { ...entry.params, completed },
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
