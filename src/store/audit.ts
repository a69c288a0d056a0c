// SQL for the audit log: entries written by the services, read back by the Admin API.
import type { Db } from '../db/db.ts';
import type { Row } from '../db/schema.ts';

export type AuditOutcomeValue = 'success' | 'failure' | 'denied';

export async function insertAuditEntry(
  db: Db,
  e: {
    clientId: string | null;
    onBehalfOf: string | null;
    action: string;
    params: Record<string, unknown>;
    resultCount: number | null;
    outcome?: AuditOutcomeValue;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (client_id, on_behalf_of, action, params, result_count, outcome) VALUES ($1::text, $2::text, $3::text, $4::jsonb, $5::int, $6::text)`,
    [e.clientId, e.onBehalfOf, e.action, JSON.stringify(e.params), e.resultCount, e.outcome ?? 'success'],
  );
}

type AuditRow = Row<'audit_log'>;

interface AuditFilter {
  clientId?: string | undefined;
  action?: string | undefined;
  outcome?: AuditOutcomeValue | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Only entries older than this id (keyset paging, newest first). */
  beforeId?: string | undefined;
}

/** Up to `limit` entries matching every given filter, newest first (by id). */
export async function findAuditEntries(db: Db, f: AuditFilter, limit: number): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT id, at, client_id, on_behalf_of, action, params, result_count, outcome FROM audit_log
      WHERE ($1::text IS NULL OR client_id = $1::text)
        AND ($2::text IS NULL OR action = $2::text)
        AND ($3::text IS NULL OR outcome = $3::text)
        AND ($4::timestamptz IS NULL OR at >= $4::timestamptz)
        AND ($5::timestamptz IS NULL OR at < $5::timestamptz)
        AND ($6::bigint IS NULL OR id < $6::bigint)
      ORDER BY id DESC LIMIT $7::int`,
    [f.clientId ?? null, f.action ?? null, f.outcome ?? null, f.from ?? null, f.to ?? null, f.beforeId ?? null, limit],
  );
}
