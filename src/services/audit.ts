// Audit trail of exports, AI calls and purchases: who, for whom, what, how many.
import type { Db } from '../store/db.ts';
import { insertAuditEntry } from '../store/audit.ts';

export interface AuditEntry {
  clientId: string;
  onBehalfOf: string | null;
  action: string;
  params: Record<string, unknown>;
  resultCount: number | null;
}

export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, entry);
}
