// SQL of monitors (migration 036): the saved searches of a client, their members, and the
// queue of companies whose facts changed since the monitors were last evaluated.
import type { Queryable, Tx } from '../db/db.ts';
import { Params } from '../db/sql.ts';
import type { EventType } from '../schemas/events.ts';
import { matchingCompaniesSql, type CompanySearchCriteria } from './companies.ts';

export interface MonitorRow {
  id: string;
  clientId: string;
  name: string;
  /** The company-search request, or null for a list of domains. */
  search: Record<string, unknown> | null;
  /** The listed companies' ids, or null for a search. */
  companyIds: string[] | null;
  eventTypes: EventType[];
  createdAt: Date;
  updatedAt: Date;
  /** Companies in it now. */
  members: number;
  /** The listed companies' domains (a list monitor), in the order of companyIds. */
  domains: string[] | null;
}

type RawMonitor = {
  id: string;
  client_id: string;
  name: string;
  search: Record<string, unknown> | null;
  company_ids: string[] | null;
  event_types: EventType[];
  created_at: Date;
  updated_at: Date;
  members: number;
};

const MONITOR_COLUMNS = `m.id, m.client_id, m.name, m.search, m.company_ids, m.event_types, m.created_at, m.updated_at,
  (SELECT count(*)::int FROM monitor_members mm WHERE mm.monitor_id = m.id) AS members`;

/**
 * The monitors with their listed companies' domains, read in a second statement by id: monitors
 * are local to the coordinator and companies are sharded on Citus, whose planner refuses a
 * subquery per monitor row that joins the two. A deleted company has no domain to show.
 */
async function toMonitorRows(db: Queryable, raws: RawMonitor[]): Promise<MonitorRow[]> {
  const ids = [...new Set(raws.flatMap((r) => r.company_ids ?? []))];
  const domains = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await db.query<{ id: string; domain: string }>('SELECT id, domain FROM companies WHERE id = ANY($1::text[])', [ids]);
    for (const r of rows) domains.set(r.id, r.domain);
  }
  return raws.map((r) => toMonitorRow(r, r.company_ids ? r.company_ids.flatMap((id) => domains.get(id) ?? []) : null));
}

function toMonitorRow(r: RawMonitor, domains: string[] | null): MonitorRow {
  return {
    id: r.id,
    clientId: r.client_id,
    name: r.name,
    search: r.search,
    companyIds: r.company_ids,
    eventTypes: r.event_types,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    members: r.members,
    domains,
  };
}

export interface MonitorFields {
  name: string;
  search: Record<string, unknown> | null;
  companyIds: string[] | null;
  eventTypes: readonly EventType[];
}

export async function insertMonitor(tx: Tx, id: string, clientId: string, f: MonitorFields): Promise<void> {
  await tx.query(`INSERT INTO monitors (id, client_id, name, search, company_ids, event_types) VALUES ($1, $2, $3, $4::jsonb, $5::text[], $6::text[])`, [
    id,
    clientId,
    f.name,
    f.search === null ? null : JSON.stringify(f.search),
    f.companyIds,
    f.eventTypes,
  ]);
}

export async function updateMonitorRow(tx: Tx, id: string, f: MonitorFields): Promise<void> {
  await tx.query(`UPDATE monitors SET name = $2, search = $3::jsonb, company_ids = $4::text[], event_types = $5::text[], updated_at = now() WHERE id = $1`, [
    id,
    f.name,
    f.search === null ? null : JSON.stringify(f.search),
    f.companyIds,
    f.eventTypes,
  ]);
}

/** Deletes a client's monitor (its members go with it); false when it has none by that id. */
export async function deleteMonitorRow(db: Queryable, clientId: string, id: string): Promise<boolean> {
  const rows = await db.query(`DELETE FROM monitors WHERE id = $1 AND client_id = $2 RETURNING 1`, [id, clientId]);
  return rows.length > 0;
}

/** A client's monitor (another client's is not found), locked for update inside a transaction when asked. */
export async function findMonitor(db: Queryable, clientId: string, id: string): Promise<MonitorRow | undefined> {
  const [row] = await db.query<RawMonitor>(`SELECT ${MONITOR_COLUMNS} FROM monitors m WHERE m.id = $1 AND m.client_id = $2`, [id, clientId]);
  return row ? (await toMonitorRows(db, [row]))[0] : undefined;
}

export async function listMonitorRows(db: Queryable, clientId: string, offset: number, limit: number): Promise<{ total: number; rows: MonitorRow[] }> {
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitors WHERE client_id = $1`, [clientId]);
  const rows = await db.query<RawMonitor>(`SELECT ${MONITOR_COLUMNS} FROM monitors m WHERE m.client_id = $1 ORDER BY m.created_at, m.id LIMIT $2 OFFSET $3`, [
    clientId,
    limit,
    offset,
  ]);
  return { total: count?.n ?? 0, rows: await toMonitorRows(db, rows) };
}

export async function countMonitors(db: Queryable, clientId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitors WHERE client_id = $1`, [clientId]);
  return row?.n ?? 0;
}

/** Every search monitor (the list monitors' members never change). */
export async function searchMonitors(db: Queryable): Promise<MonitorRow[]> {
  const rows = await db.query<RawMonitor>(`SELECT ${MONITOR_COLUMNS} FROM monitors m WHERE m.search IS NOT NULL ORDER BY m.id`);
  return toMonitorRows(db, rows);
}

/** Sets a monitor's members to what its search (or list) matches now: the baseline, without events. */
export async function resetMembers(tx: Tx, monitorId: string, members: { criteria: CompanySearchCriteria } | { companyIds: string[] }): Promise<number> {
  await tx.query(`DELETE FROM monitor_members WHERE monitor_id = $1`, [monitorId]);
  const p = new Params();
  const monitor = p.add(monitorId);
  const source = 'criteria' in members ? matchingCompaniesSql(members.criteria, p) : `SELECT unnest(${p.add(members.companyIds, 'text[]')}) AS id`;
  const rows = await tx.query<{ n: number }>(
    `WITH ins AS (INSERT INTO monitor_members (monitor_id, company_id) SELECT ${monitor}, id FROM (${source}) AS s ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    p.values,
  );
  return rows[0]?.n ?? 0;
}

/** Re-evaluates a search monitor for the given companies only: who entered, who left. */
export async function reevaluateMembers(
  tx: Tx,
  monitorId: string,
  criteria: CompanySearchCriteria,
  companyIds: readonly string[],
): Promise<{ entered: string[]; left: string[] }> {
  const p = new Params();
  const monitor = p.add(monitorId);
  const changed = p.add(companyIds, 'text[]');
  const rows = await tx.query<{ kind: 'entered' | 'left'; company_id: string }>(
    `WITH m AS MATERIALIZED (${matchingCompaniesSql(criteria, p, changed)}),
          ins AS (INSERT INTO monitor_members (monitor_id, company_id) SELECT ${monitor}, id FROM m ON CONFLICT DO NOTHING RETURNING company_id),
          del AS (DELETE FROM monitor_members mm WHERE mm.monitor_id = ${monitor} AND mm.company_id = ANY(${changed})
                    AND NOT EXISTS (SELECT 1 FROM m WHERE m.id = mm.company_id) RETURNING company_id)
     SELECT 'entered' AS kind, company_id FROM ins UNION ALL SELECT 'left', company_id FROM del`,
    p.values,
  );
  return {
    entered: rows.filter((r) => r.kind === 'entered').map((r) => r.company_id),
    left: rows.filter((r) => r.kind === 'left').map((r) => r.company_id),
  };
}

/** Takes up to `limit` companies off the queue of changed companies. */
export async function takePendingCompanies(tx: Tx, limit: number): Promise<string[]> {
  const rows = await tx.query<{ company_id: string }>(
    `DELETE FROM monitor_pending WHERE company_id IN (SELECT company_id FROM monitor_pending ORDER BY company_id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING company_id`,
    [limit],
  );
  return rows.map((r) => r.company_id);
}
