// SQL of the CRM write-back: connections, the values last written per CRM field, the sync log,
// and the company records a sync sends (firmographics and the technologies in use).
import type { Queryable } from '../db/db.ts';

export type CrmKind = 'hubspot' | 'salesforce';

export interface CrmConnectionRow {
  clientId: string;
  crm: CrmKind;
  baseUrl: string;
  /** The API token sealed (services/crm/token-seal.ts): never the token itself. */
  tokenSealed: string;
  tokenHint: string;
  externalIdField: string | null;
  /** Write fields a person owns in the CRM too (the connection's default; a sync may say otherwise). */
  overwrite: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Creates or replaces a client's connection to one CRM; answers the stored row. */
export async function upsertConnection(db: Queryable, c: Omit<CrmConnectionRow, 'createdAt' | 'updatedAt'>): Promise<CrmConnectionRow> {
  const [row] = await db.query<RawConnection>(
    `INSERT INTO crm_connections (client_id, crm, base_url, token_sealed, token_hint, external_id_field, overwrite) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (client_id, crm) DO UPDATE SET base_url = EXCLUDED.base_url, token_sealed = EXCLUDED.token_sealed, token_hint = EXCLUDED.token_hint,
       external_id_field = EXCLUDED.external_id_field, overwrite = EXCLUDED.overwrite, updated_at = now()
     RETURNING ${CONNECTION_COLUMNS}`,
    [c.clientId, c.crm, c.baseUrl, c.tokenSealed, c.tokenHint, c.externalIdField, c.overwrite],
  );
  return toConnection(row!);
}

interface RawConnection {
  client_id: string;
  crm: CrmKind;
  base_url: string;
  token_sealed: string;
  token_hint: string;
  external_id_field: string | null;
  overwrite: boolean;
  created_at: Date;
  updated_at: Date;
}
const CONNECTION_COLUMNS = 'client_id, crm, base_url, token_sealed, token_hint, external_id_field, overwrite, created_at, updated_at';
const toConnection = (r: RawConnection): CrmConnectionRow => ({
  clientId: r.client_id,
  crm: r.crm,
  baseUrl: r.base_url,
  tokenSealed: r.token_sealed,
  tokenHint: r.token_hint,
  externalIdField: r.external_id_field,
  overwrite: r.overwrite,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function findConnection(db: Queryable, clientId: string, crm: CrmKind): Promise<CrmConnectionRow | undefined> {
  const [row] = await db.query<RawConnection>(`SELECT ${CONNECTION_COLUMNS} FROM crm_connections WHERE client_id = $1 AND crm = $2`, [clientId, crm]);
  return row && toConnection(row);
}

export async function listConnections(db: Queryable, clientId: string): Promise<CrmConnectionRow[]> {
  const rows = await db.query<RawConnection>(`SELECT ${CONNECTION_COLUMNS} FROM crm_connections WHERE client_id = $1 ORDER BY crm`, [clientId]);
  return rows.map(toConnection);
}

/** Deletes a client's connection (with its field state); false when it had none. */
export async function deleteConnection(db: Queryable, clientId: string, crm: CrmKind): Promise<boolean> {
  const rows = await db.query(`DELETE FROM crm_connections WHERE client_id = $1 AND crm = $2 RETURNING crm`, [clientId, crm]);
  return rows.length > 0;
}

/** What we last wrote, by company id then field. */
export async function lastWritten(db: Queryable, clientId: string, crm: CrmKind, companyIds: string[]): Promise<Map<string, Map<string, string>>> {
  const rows = await db.query<{ company_id: string; field: string; value: string }>(
    `SELECT company_id, field, value FROM crm_field_state WHERE client_id = $1 AND crm = $2 AND company_id = ANY($3::text[])`,
    [clientId, crm, companyIds],
  );
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let m = out.get(r.company_id);
    if (!m) out.set(r.company_id, (m = new Map()));
    m.set(r.field, r.value);
  }
  return out;
}

/** Records the values written, one row per (company, field), set-based. */
export async function recordWritten(
  db: Queryable,
  clientId: string,
  crm: CrmKind,
  written: Array<{ companyId: string; field: string; value: string }>,
): Promise<void> {
  if (written.length === 0) return;
  await db.query(
    `INSERT INTO crm_field_state (client_id, crm, company_id, field, value)
     SELECT $1, $2, w.company_id, w.field, w.value FROM unnest($3::text[], $4::text[], $5::text[]) AS w(company_id, field, value)
     ON CONFLICT (client_id, crm, company_id, field) DO UPDATE SET value = EXCLUDED.value, written_at = now()`,
    [clientId, crm, written.map((w) => w.companyId), written.map((w) => w.field), written.map((w) => w.value)],
  );
}

export interface SyncRunRow {
  id: string;
  crm: CrmKind;
  listId: string | null;
  dryRun: boolean;
  overwrite: boolean;
  status: 'running' | 'done' | 'failed';
  counts: { created: number; updated: number; unchanged: number; skipped: number; failed: number };
  records: unknown[];
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export async function insertSyncRun(
  db: Queryable,
  id: string,
  clientId: string,
  crm: CrmKind,
  run: { dryRun: boolean; overwrite: boolean; listId?: string | null },
): Promise<void> {
  await db.query(`INSERT INTO crm_sync_runs (id, client_id, crm, dry_run, overwrite, status, list_id) VALUES ($1, $2, $3, $4, $5, 'running', $6)`, [
    id,
    clientId,
    crm,
    run.dryRun,
    run.overwrite,
    run.listId ?? null,
  ]);
}

export async function finishSyncRun(
  db: Queryable,
  id: string,
  outcome: { status: 'done' | 'failed'; counts: SyncRunRow['counts']; records: unknown[]; error: string | null },
): Promise<void> {
  const c = outcome.counts;
  await db.query(
    `UPDATE crm_sync_runs SET status = $2, created = $3, updated = $4, unchanged = $5, skipped = $6, failed = $7,
       records = $8::jsonb, error = $9, finished_at = now() WHERE id = $1`,
    [id, outcome.status, c.created, c.updated, c.unchanged, c.skipped, c.failed, JSON.stringify(outcome.records), outcome.error],
  );
}

interface RawRun {
  id: string;
  crm: CrmKind;
  list_id: string | null;
  dry_run: boolean;
  overwrite: boolean;
  status: SyncRunRow['status'];
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  records: unknown[];
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}
const RUN_COLUMNS = `id, crm, list_id, dry_run, overwrite, status, created, updated, unchanged, skipped, failed, records, error, started_at, finished_at`;
const toRun = (r: RawRun): SyncRunRow => ({
  id: r.id,
  crm: r.crm,
  listId: r.list_id,
  dryRun: r.dry_run,
  overwrite: r.overwrite,
  status: r.status,
  counts: { created: r.created, updated: r.updated, unchanged: r.unchanged, skipped: r.skipped, failed: r.failed },
  records: r.records,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** A client's run (another client's is not found). */
export async function findSyncRun(db: Queryable, clientId: string, id: string): Promise<SyncRunRow | undefined> {
  const [row] = await db.query<RawRun>(`SELECT ${RUN_COLUMNS} FROM crm_sync_runs WHERE id = $1 AND client_id = $2`, [id, clientId]);
  return row && toRun(row);
}

/** A client's runs, newest first, without their per-record detail. */
export async function listSyncRuns(db: Queryable, clientId: string, offset: number, limit: number): Promise<{ total: number; rows: SyncRunRow[] }> {
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM crm_sync_runs WHERE client_id = $1`, [clientId]);
  const rows = await db.query<RawRun>(
    `SELECT ${RUN_COLUMNS.replace('records', `'[]'::jsonb AS records`)} FROM crm_sync_runs WHERE client_id = $1 ORDER BY started_at DESC, id LIMIT $2 OFFSET $3`,
    [clientId, limit, offset],
  );
  return { total: count?.n ?? 0, rows: rows.map(toRun) };
}

/** The company fields a CRM record is made of (the input of exports and syncs). */
export interface CrmAccountRow {
  id: string;
  domain: string;
  name: string | null;
  country: string | null;
  industry: string | null;
  employeeCount: number | null;
  employeeBand: string | null;
  revenueUsd: number | null;
  revenueBand: string | null;
  /** Technologies in use, most evidence first; confidence when the caller has it (enrichment). */
  technologies: Array<{ name: string; confidence: number | null }>;
}

/** The companies of these domains (already normalized), with their technologies by evidence count; unknown domains are absent. */
export function crmAccountsByDomains(db: Queryable, domains: string[]): Promise<CrmAccountRow[]> {
  return crmAccounts(db, 'lower(c.domain) = ANY($1::text[])', domains);
}

/** The companies of these ids; unknown ids are absent. */
export function crmAccountsByIds(db: Queryable, ids: string[]): Promise<CrmAccountRow[]> {
  return crmAccounts(db, 'c.id = ANY($1::text[])', ids);
}

async function crmAccounts(db: Queryable, where: string, keys: string[]): Promise<CrmAccountRow[]> {
  const rows = await db.query<{
    id: string;
    domain: string;
    name: string | null;
    country: string | null;
    industry: string | null;
    employee_count: number | null;
    employee_band: string | null;
    revenue_usd: string | null;
    revenue_band: string | null;
    technologies: string[] | null;
  }>(
    `SELECT c.id, c.domain, c.name, c.country, i.name AS industry, c.employee_count, c.employee_band, c.revenue_usd, c.revenue_band,
       (SELECT array_agg(p.name ORDER BY s.hit_count DESC, p.name) FROM installs s JOIN products p ON p.id = s.product_id WHERE s.company_id = c.id) AS technologies
     FROM companies c LEFT JOIN industries i ON i.id = c.industry_id
     WHERE ${where} ORDER BY c.domain`,
    [keys],
  );
  return rows.map((r) => ({
    id: r.id,
    domain: r.domain,
    name: r.name,
    country: r.country?.trim() ?? null,
    industry: r.industry,
    employeeCount: r.employee_count,
    employeeBand: r.employee_band,
    revenueUsd: r.revenue_usd === null ? null : Number(r.revenue_usd),
    revenueBand: r.revenue_band,
    technologies: (r.technologies ?? []).map((name) => ({ name, confidence: null })),
  }));
}
