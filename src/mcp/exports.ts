// Export links: an export asked for through a tool is not written into the tool result
// (a CSV of thousands of rows is no answer for a model) but stored as a link, read with
// resources/read as stacklens://exports/{id}. The link is bound to the client that made it
// (another client's read finds nothing, as if the id did not exist), lives for
// EXPORT_LINK_TTL_MS, and is kept in the database, so any instance can serve the read. A
// read runs the export then, under the actor of the call that made the link, and is
// audited as the REST export is (rows actually sent).
import { createHash, randomBytes } from 'node:crypto';
import { deleteExpiredExports, findExport, insertExport } from '../store/mcp-exports.ts';
import type { Db } from '../db/db.ts';
import { NotFoundError } from '../errors.ts';
import { now } from '../clock.ts';
import type { CallContext } from './registry.ts';

export const EXPORT_LINK_TTL_MS = 60 * 60 * 1000;
export const EXPORT_URI_PREFIX = 'stacklens://exports/';

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

export interface ExportLink {
  uri: string;
  expiresAt: string;
}

/** Stores the export `action` with its (validated) params for the calling client; returns its link. */
export async function createExportLink(ctx: CallContext, action: string, params: Record<string, unknown>): Promise<ExportLink> {
  const id = randomBytes(18).toString('base64url');
  const t = now();
  const expiresAt = new Date(t + EXPORT_LINK_TTL_MS);
  await insertExport(ctx.db, {
    idHash: hashOf(id),
    clientId: ctx.principal.clientId,
    onBehalfOf: ctx.onBehalfOf ?? null,
    action,
    params,
    now: new Date(t),
    expiresAt,
  });
  return { uri: `${EXPORT_URI_PREFIX}${id}`, expiresAt: expiresAt.toISOString() };
}

/** The calling client's live export of that id (404 for an unknown, expired or another client's id). */
export async function exportOfLink(ctx: Pick<CallContext, 'db' | 'principal'>, id: string, action: string) {
  const row = id.length <= 64 ? await findExport(ctx.db, hashOf(id), ctx.principal.clientId, new Date(now())) : undefined;
  if (!row || row.action !== action)
    throw new NotFoundError(
      `Resource '${EXPORT_URI_PREFIX}${id.slice(0, 64)}' not found: export links live ${EXPORT_LINK_TTL_MS / 60_000} minutes and are readable by the client that made them; call the tool again for a new one`,
    );
  return row;
}

/** Deletes expired links (every client's; a client's own are also deleted when it makes a new one). */
export function sweepExportLinks(db: Db): Promise<number> {
  return deleteExpiredExports(db, new Date(now()));
}
