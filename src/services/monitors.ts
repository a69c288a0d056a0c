// Monitors (saved searches): CRUD for the calling client, and the incremental evaluation the
// event publisher runs for the companies that changed (monitor.entered / monitor.left).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { nowDate } from '../clock.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { CompanySearchInput } from '../schemas/companies.ts';
import type { EventType } from '../schemas/events.ts';
import { DEFAULT_MONITOR_EVENT_TYPES, type CreateMonitorInput, type MonitorRecord, type UpdateMonitorInput } from '../schemas/monitors.ts';
import { eventId } from '../technographics/changes.ts';
import { insertEvents } from '../store/events.ts';
import {
  countMonitors,
  deleteMonitorRow,
  findMonitor,
  insertMonitor,
  listMonitorRows,
  reevaluateMembers,
  resetMembers,
  searchMonitors,
  takePendingCompanies,
  updateMonitorRow,
  type MonitorFields,
  type MonitorRow,
} from '../store/monitors.ts';
import { toCriteria } from './companies.ts';
import { lockClient } from '../store/access.ts';
import type { CompanySearchCriteria } from '../store/companies.ts';
import { requireCompanies } from './resolve.ts';
import { checkHolding } from './plan-limits.ts';

function toRecord(m: MonitorRow): MonitorRecord {
  return {
    id: m.id,
    name: m.name,
    search: m.search,
    domains: m.domains,
    eventTypes: m.eventTypes,
    members: m.members,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** What a monitor watches, checked: its search resolved (404/400 naming the filter field) or its domains (404 for unknown). */
async function membersOf(db: Db, what: { search?: CompanySearchInput | undefined; domains?: string[] | undefined }) {
  if ((what.search === undefined) === (what.domains === undefined)) throw new BadRequestError('body: give exactly one of search and domains');
  if (what.search !== undefined) {
    const search = what.search as Record<string, unknown>;
    return { search, companyIds: null, members: { criteria: await toCriteria(db, what.search, nowDate()) } };
  }
  const companies = await requireCompanies(db, [...new Set(what.domains)], 'domains');
  const companyIds = companies.map((c) => c.id);
  return { search: null, companyIds, members: { companyIds } };
}

/** Creates a monitor; the client holds at most its plan's `maxMonitors`, and never more than `ceiling` (MAX_MONITORS_PER_CLIENT). */
export async function createMonitor(db: Db, clientId: string, input: CreateMonitorInput, ceiling: number): Promise<MonitorRecord> {
  const watched = await membersOf(db, input);
  const id = `mon_${randomBytes(8).toString('hex')}`;
  const fields: MonitorFields = {
    name: input.name,
    search: watched.search,
    companyIds: watched.companyIds,
    eventTypes: input.eventTypes ?? [...DEFAULT_MONITOR_EVENT_TYPES],
  };
  await db.transaction(async (tx) => {
    // Counted under a lock on the client's row: two creations at once cannot both pass the limit.
    const plan = await lockClient(tx, clientId);
    if (!plan) throw new NotFoundError(`no client '${clientId}'`);
    const held = await countMonitors(tx, clientId);
    checkHolding('monitors', held, { planId: plan.planId, planMax: plan.maxMonitors, ceiling, ceilingName: 'MAX_MONITORS_PER_CLIENT' });
    await insertMonitor(tx, id, clientId, fields);
    await resetMembers(tx, id, watched.members);
  });
  return getMonitor(db, clientId, id);
}

export async function getMonitor(db: Db, clientId: string, id: string): Promise<MonitorRecord> {
  const m = await findMonitor(db, clientId, id);
  if (!m) throw new NotFoundError(`monitorId: no monitor '${id}' of this client`);
  return toRecord(m);
}

export async function listMonitors(db: Db, clientId: string, input: { page: number; size: number }): Promise<Page<MonitorRecord>> {
  const { total, rows } = await listMonitorRows(db, clientId, input.page * input.size, input.size);
  return toPage(rows.map(toRecord), total, input.size);
}

export async function updateMonitor(db: Db, clientId: string, id: string, input: UpdateMonitorInput): Promise<MonitorRecord> {
  const current = await findMonitor(db, clientId, id);
  if (!current) throw new NotFoundError(`monitorId: no monitor '${id}' of this client`);
  const rewatch = input.search !== undefined || input.domains !== undefined;
  const watched = rewatch ? await membersOf(db, input) : undefined;
  await db.transaction(async (tx) => {
    await updateMonitorRow(tx, id, {
      name: input.name ?? current.name,
      search: watched ? watched.search : current.search,
      companyIds: watched ? watched.companyIds : current.companyIds,
      eventTypes: input.eventTypes ?? current.eventTypes,
    });
    if (watched) await resetMembers(tx, id, watched.members);
  });
  return getMonitor(db, clientId, id);
}

export async function deleteMonitor(db: Db, clientId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await deleteMonitorRow(db, clientId, id))) throw new NotFoundError(`monitorId: no monitor '${id}' of this client`);
  return { id, deleted: true };
}

/** Companies re-evaluated per transaction. */
const EVALUATE_BATCH = 5_000;

/**
 * Re-evaluates the search monitors for the companies that changed: those the queue names
 * (imports, derived installs, new companies) and `alsoChanged` (the companies of events just
 * published). Writes monitor.entered / monitor.left events (unpublished) and returns how many.
 * A monitor whose search no longer resolves (a product deleted since) is skipped, not failed.
 */
export async function evaluateMonitors(db: Db, alsoChanged: readonly string[], onSkipped: (monitorId: string, err: unknown) => void): Promise<number> {
  // Each search resolved once, before the transactions (on the embedded engine a statement
  // outside the transaction would wait for its one connection).
  const monitors: { monitor: MonitorRow; criteria: CompanySearchCriteria }[] = [];
  for (const monitor of await searchMonitors(db)) {
    try {
      monitors.push({ monitor, criteria: await toCriteria(db, monitor.search as CompanySearchInput, nowDate()) });
    } catch (err) {
      onSkipped(monitor.id, err);
    }
  }
  const extra = [...alsoChanged];
  let written = 0;
  for (;;) {
    const evaluated = await db.transaction(async (tx) => {
      const taken = await takePendingCompanies(tx, EVALUATE_BATCH);
      const companies = [...new Set([...taken, ...extra.splice(0, EVALUATE_BATCH)])];
      const detectedAt = nowDate();
      for (const { monitor, criteria } of companies.length > 0 ? monitors : []) {
        const { entered, left } = await reevaluateMembers(tx, monitor.id, criteria, companies);
        const event = (type: EventType, companyId: string) => ({
          id: eventId(companyId, type, monitor.id, detectedAt.toISOString()),
          type,
          companyId,
          clientId: monitor.clientId,
          subject: { monitorId: monitor.id, monitorName: monitor.name },
          occurredAt: detectedAt,
          earliest: detectedAt,
          latest: detectedAt,
          detectedAt,
          confidence: 1,
          evidence: [],
        });
        written += await insertEvents(tx, [...entered.map((c) => event('monitor.entered', c)), ...left.map((c) => event('monitor.left', c))]);
      }
      return companies.length;
    });
    if (evaluated === 0) return written;
  }
}
