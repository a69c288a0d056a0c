// SQL of the CRM write-back: connections, the values last written per CRM field, the sync log,
// and the company records a sync sends (firmographics and the technologies in use).
import type { Queryable } from '../db/db.ts';

export type CrmKind = 'hubspot' | 'salesforce';

interface CrmConnectionRow {
  clientId: string;
  crm: CrmKind;
  baseUrl: string;
  token: string;
  externalIdField: string | null;
  updatedAt: Date;
}

/** Creates or replaces a client's connection to one CRM. */
export async function upsertConnection(db: Queryable, c: Omit<CrmConnectionRow, 'updatedAt'>): Promise<void> {
  await db.query(
    `INSERT INTO crm_connections (client_id, crm, base_url, token, external_id_field) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (client_id, crm) DO UPDATE SET base_url = EXCLUDED.base_url, token = EXCLUDED.token,
       external_id_field = EXCLUDED.external_id_field, updated_at = now()`,
    [c.clientId, c.crm, c.baseUrl, c.token, c.externalIdField],
  );
}

export async function findConnection(db: Queryable, clientId: string, crm: CrmKind): Promise<CrmConnectionRow | undefined> {
  const [row] = await db.query<{ base_url: string; token: string; external_id_field: string | null; updated_at: Date }>(
    `SELECT base_url, token, external_id_field, updated_at FROM crm_connections WHERE client_id = $1 AND crm = $2`,
    [clientId, crm],
  );
  return row && { clientId, crm, baseUrl: row.base_url, token: row.token, externalIdField: row.external_id_field, updatedAt: row.updated_at };
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
  dryRun: boolean;
  overwrite: boolean;
  status: 'running' | 'done' | 'failed';
  counts: { created: number; updated: number; unchanged: number; skipped: number; failed: number };
  records: unknown[];
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export async function insertSyncRun(db: Queryable, id: string, clientId: string, crm: CrmKind, dryRun: boolean, overwrite: boolean): Promise<void> {
  await db.query(`INSERT INTO crm_sync_runs (id, client_id, crm, dry_run, overwrite, status) VALUES ($1, $2, $3, $4, $5, 'running')`, [
    id,
    clientId,
    crm,
    dryRun,
    overwrite,
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
const RUN_COLUMNS = `id, crm, dry_run, overwrite, status, created, updated, unchanged, skipped, failed, records, error, started_at, finished_at`;
const toRun = (r: RawRun): SyncRunRow => ({
  id: r.id,
  crm: r.crm,
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
export async function crmAccountsByDomains(db: Queryable, domains: string[]): Promise<CrmAccountRow[]> {
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
     WHERE lower(c.domain) = ANY($1::text[]) ORDER BY c.domain`,
    [domains],
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
