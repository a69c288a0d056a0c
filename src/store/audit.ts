// SQL for the audit log.
import type { Db } from './db.ts';

export async function insertAuditEntry(
  db: Db,
  e: { clientId: string; onBehalfOf: string; action: string; params: Record<string, unknown>; resultCount: number | null },
): Promise<void> {
  await db.kysely
    .insertInto('audit_log')
    .values({ client_id: e.clientId, on_behalf_of: e.onBehalfOf, action: e.action, params: JSON.stringify(e.params), result_count: e.resultCount })
    .execute();
}
