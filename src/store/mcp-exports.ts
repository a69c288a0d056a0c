// SQL for mcp_exports: the export links MCP tools answer with, shared by every instance on
// the database. Rows are keyed by the SHA-256 of the link's id and found only together
// with the client that made them; times come from the caller's clock (clock.ts).
import type { Db } from '../db/db.ts';

export interface McpExportRow {
  onBehalfOf: string | null;
  action: string;
  params: Record<string, unknown>;
  expiresAt: Date;
}

/** Stores an export link; the client's expired links are deleted on the way. */
export async function insertExport(
  db: Db,
  e: { idHash: string; clientId: string; onBehalfOf: string | null; action: string; params: Record<string, unknown>; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query('DELETE FROM mcp_exports WHERE client_id = $1 AND expires_at <= $2', [e.clientId, e.now]);
  await db.query(
    `INSERT INTO mcp_exports (id_hash, client_id, on_behalf_of, action, params, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
    [e.idHash, e.clientId, e.onBehalfOf, e.action, JSON.stringify(e.params), e.now, e.expiresAt],
  );
}

/** The client's live export of that id; another client's, or an expired one, is not found. */
export async function findExport(db: Db, idHash: string, clientId: string, now: Date): Promise<McpExportRow | undefined> {
  const [row] = await db.query<McpExportRow>(
    `SELECT on_behalf_of AS "onBehalfOf", action, params, expires_at AS "expiresAt"
       FROM mcp_exports WHERE id_hash = $1 AND client_id = $2 AND expires_at > $3`,
    [idHash, clientId, now],
  );
  return row;
}

/** Deletes every expired export link; returns how many. */
export async function deleteExpiredExports(db: Db, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM mcp_exports WHERE expires_at <= $1 RETURNING 1 AS gone', [now]);
  return rows.length;
}
