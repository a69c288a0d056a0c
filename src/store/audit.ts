// SQL for the audit log.
import type { Db } from './db.ts';

export async function insertAuditEntry(
  db: Db,
  e: { clientId: string; onBehalfOf: string | null; action: string; params: Record<string, unknown>; resultCount: number | null },
): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (client_id, on_behalf_of, action, params, result_count) VALUES ($1::text, $2::text, $3::text, $4::jsonb, $5::int)`,
    [e.clientId, e.onBehalfOf, e.action, JSON.stringify(e.params), e.resultCount],
  );
}
