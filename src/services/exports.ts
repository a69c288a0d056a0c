// Audited exports, every one of them: counts the rows actually streamed and writes the audit
// entry when the stream ends (completely, or early when the client goes away), so the audit
// log tells how much data left the service, not how much was asked for. The entry's params
// carry `completed`: true when the stream reached its end.
import type { Db } from '../store/db.ts';
import { audit } from './audit.ts';

/** Who an export is done by (the API client) and for (the X-On-Behalf-Of-User user). */
export interface Actor {
  clientId: string;
  onBehalfOf: string;
}

export async function* audited<T>(
  db: Db,
  rows: AsyncIterable<T>,
  entry: { actor: Actor; action: string; params: Record<string, unknown> },
): AsyncGenerator<T> {
  let count = 0;
  let completed = false;
  try {
    for await (const row of rows) {
      count++; // counted when handed over: a consumer may stop at any yield
      yield row;
    }
    completed = true;
  } finally {
    await audit(db, {
      clientId: entry.actor.clientId,
      onBehalfOf: entry.actor.onBehalfOf,
      action: entry.action,
      params: { ...entry.params, completed },
      resultCount: count,
    });
  }
}
