// Audit trail: exports, AI calls, purchases and every admin action — who (the acting client,
// or the command line), for whom, what, how many, and with what outcome. The Admin API reads
// it back with filters and keyset paging.
import type { Db } from '../db/db.ts';
import { findAuditEntries, insertAuditEntry, type AuditOutcomeValue } from '../store/audit.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../errors.ts';
import type { AuditEntryOut, AuditQuery } from '../schemas/admin-activity.ts';

interface AuditEntry {
  clientId: string | null;
  onBehalfOf: string | null;
  action: string;
  params: Record<string, unknown>;
  resultCount: number | null;
  outcome?: AuditOutcomeValue;
}

export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, entry);
}

/**
 * Who performs an admin action: an admin client over the API (a person signed in to the
 * console: the console's client, and the person), or the operator at the command line.
 */
export type AdminActor = Pick<Principal, 'clientId' | 'person'> | 'cli';

export const CLI_ACTOR: AdminActor = 'cli';

function actorFields(actor: AdminActor): { clientId: string | null; actor: string; onBehalfOf: string | null } {
  if (actor === 'cli') return { clientId: null, actor: 'cli', onBehalfOf: null };
  // A console person is recorded as the on-behalf user of their admin actions.
  return { clientId: actor.clientId, actor: actor.person ? actor.person.email : actor.clientId, onBehalfOf: actor.person?.email ?? null };
}

/**
 * Runs an admin action and audits it under its actor: success (with what `describe` tells of
 * the result, never a secret), or failure with the refusal's message (a rule broken: 4xx).
 * An unexpected error (5xx) is not audited as a refusal: the action may have happened.
 */
export async function adminAction<T>(
  db: Db,
  actor: AdminActor,
  action: string,
  params: Record<string, unknown>,
  run: () => Promise<T>,
  describe: (result: T) => Record<string, unknown> = () => ({}),
): Promise<T> {
  const { clientId, actor: by, onBehalfOf } = actorFields(actor);
  let result: T;
  try {
    result = await run();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      await audit(db, { clientId, onBehalfOf, action, params: { ...params, actor: by, error: err.message }, resultCount: null, outcome: 'failure' });
    }
    throw err;
  }
  await audit(db, { clientId, onBehalfOf, action, params: { ...params, ...describe(result), actor: by }, resultCount: null, outcome: 'success' });
  return result;
}

/** A call refused for want of a role: audited (outcome denied) under the caller. */
export async function auditDenied(db: Db, principal: Principal, operationId: string, role: string): Promise<void> {
  await audit(db, {
    clientId: principal.clientId,
    onBehalfOf: principal.person?.email ?? null,
    action: 'admin.denied',
    params: { operation: operationId, requiredRole: role, role: principal.role ?? null },
    resultCount: null,
    outcome: 'denied',
  });
}

/** One page of the audit log, newest first, and the cursor of the next (older) page. */
export async function listAudit(db: Db, q: AuditQuery): Promise<{ entries: AuditEntryOut[]; nextCursor: string | null }> {
  const rows = await findAuditEntries(
    db,
    { clientId: q.clientId, action: q.action, outcome: q.outcome, from: q.from, to: q.to, beforeId: q.cursor },
    q.size + 1,
  );
  const page = rows.slice(0, q.size);
  return {
    entries: page.map((r) => ({
      id: Number(r.id),
      at: r.at.toISOString(),
      actor: r.client_id,
      onBehalfOf: r.on_behalf_of,
      action: r.action,
      outcome: r.outcome as AuditOutcomeValue,
      params: (r.params ?? {}) as Record<string, unknown>,
      resultCount: r.result_count,
    })),
    nextCursor: rows.length > q.size ? String(page[page.length - 1]!.id) : null,
  };
}
