// SQL of the change events (migration 035): writing derived events unpublished, publishing
// them in commit order, and reading them back by cursor (seq) or by company.
import { companiesByIds } from './companies.ts';
import type { Queryable, Transactional, Tx } from '../db/db.ts';
import type { EventType } from '../schemas/events.ts';
import type { technologyChanges } from '../technographics/changes.ts';
import type { hiringChanges } from '../technographics/hiring.ts';

/** An event as its deriver writes it (technology events from the visit log, monitor events). */
interface NewEvent {
  id: string;
  type: EventType;
  companyId: string;
  /** Monitor events: the monitor's client; absent: an event about the world. */
  clientId?: string | null;
  subject: Readonly<Record<string, unknown>>;
  occurredAt: Date;
  earliest: Date;
  latest: Date;
  detectedAt: Date;
  confidence: number;
  evidence: readonly string[];
}

/** A published event with what a reader shows of its company. */
export interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  companyDomain: string;
  companyName: string | null;
  clientId: string | null;
  subject: Record<string, unknown>;
  occurredAt: Date;
  earliest: Date;
  latest: Date;
  detectedAt: Date;
  confidence: number;
  evidence: string[];
  productName: string | null;
}

/** The rows of a company's technology events (technographics/changes.ts): the product and versions go in the subject. */
export function technologyEventRows(events: ReturnType<typeof technologyChanges>): NewEvent[] {
  return events.map(({ productId, fromVersion, toVersion, ...e }) => ({
    ...e,
    subject: { productId, ...(fromVersion === undefined ? {} : { fromVersion }), ...(toVersion === undefined ? {} : { toVersion }) },
  }));
}

/** The rows of a company's hiring events (technographics/hiring.ts): the product and the post counts go in the subject. */
export function hiringEventRows(events: ReturnType<typeof hiringChanges>): NewEvent[] {
  return events.map(({ productId, jobPosts30d, jobPosts180d, ...e }) => ({ ...e, subject: { productId, jobPosts30d, jobPosts180d } }));
}

/** Writes events unpublished; one derived again (same id) is kept once. Returns how many were new. */
export async function insertEvents(tx: Tx, events: readonly NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await tx.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO events (id, type, company_id, client_id, subject, occurred_at, earliest, latest, detected_at, confidence, evidence)
       SELECT id, type, company_id, client_id, subject::jsonb, occurred_at, earliest, latest, detected_at, confidence, string_to_array(evidence, ',')
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[],
                     $9::timestamptz[], $10::real[], $11::text[])
           AS e(id, type, company_id, client_id, subject, occurred_at, earliest, latest, detected_at, confidence, evidence)
       ON CONFLICT (id) DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    [
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.companyId),
      events.map((e) => e.clientId ?? null),
      events.map((e) => JSON.stringify(e.subject)),
      events.map((e) => e.occurredAt.toISOString()),
      events.map((e) => e.earliest.toISOString()),
      events.map((e) => e.latest.toISOString()),
      events.map((e) => e.detectedAt.toISOString()),
      events.map((e) => e.confidence),
      events.map((e) => e.evidence.join(',')),
    ],
  );
  return rows[0]?.n ?? 0;
}

/** The advisory lock that makes publishing one writer at a time, across processes. */
const PUBLISH_LOCK = 0x5eed_e7e7;

/** Events numbered per publishing transaction (the rest wait for the next one). */
const PUBLISH_BATCH = 20_000;

export interface Published {
  /** Events numbered. */
  count: number;
  /** The highest seq after publishing (0: no event yet). */
  lastSeq: number;
  /** The companies of the numbered events about the world (not monitor entries), each once. */
  companyIds: string[];
  /** The clients of the numbered monitor entries and exits, each once. */
  clientIds: string[];
}

/**
 * Numbers unpublished events (oldest written first) after the highest seq, holding a
 * transaction-level advisory lock until commit: the next publisher numbers after this one's
 * numbers and commits after it, so seq follows commit order and a cursor never passes an
 * event that becomes visible later.
 */
export async function publishEvents(db: Transactional, onNumbered?: (tx: Tx, fromSeq: number, toSeq: number) => Promise<void>): Promise<Published> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PUBLISH_LOCK]);
    const rows = await tx.query<{ company_id: string; seq: string; client_id: string | null }>(
      `WITH base AS (SELECT coalesce(max(seq), 0) AS b FROM events),
            next AS (SELECT id, row_number() OVER (ORDER BY recorded_at, detected_at, id) AS n
                       FROM (SELECT id, recorded_at, detected_at FROM events WHERE seq IS NULL ORDER BY recorded_at, id LIMIT $1) AS u)
       UPDATE events e SET seq = base.b + next.n FROM next, base WHERE e.id = next.id
       RETURNING e.company_id, e.seq, e.client_id`,
      [PUBLISH_BATCH],
    );
    let lastSeq = 0;
    const companies = new Set<string>();
    const clients = new Set<string>();
    for (const r of rows) {
      if (r.client_id === null) companies.add(r.company_id);
      else clients.add(r.client_id);
      lastSeq = Math.max(lastSeq, Number(r.seq));
    }
    if (rows.length === 0) lastSeq = await highestSeq(tx);
    // In the same transaction: what follows from the numbered events (webhook deliveries) commits with them.
    else if (onNumbered) await onNumbered(tx, lastSeq - rows.length, lastSeq);
    return { count: rows.length, lastSeq, companyIds: [...companies].sort(), clientIds: [...clients].sort() };
  });
}

/** The highest published seq (0 when none). */
export async function highestSeq(db: Queryable): Promise<number> {
  const [row] = await db.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM events');
  return Number(row?.seq ?? 0);
}

const EVENT_COLUMNS = `e.seq, e.id, e.type, e.company_id, e.client_id, e.subject,
  e.occurred_at, e.earliest, e.latest, e.detected_at, e.confidence, e.evidence, p.name AS product_name`;
/**
 * The event's product when it names one. Its company is read by id afterwards (toEventRows):
 * events are local to the coordinator and companies sharded on Citus, which refuses their join
 * beside the monitor rule's subquery of local tables.
 */
const EVENT_JOINS = `events e LEFT JOIN products p ON p.id = e.subject->>'productId'`;

type RawEvent = {
  seq: string;
  id: string;
  type: EventType;
  company_id: string;
  client_id: string | null;
  subject: Record<string, unknown>;
  occurred_at: Date;
  earliest: Date;
  latest: Date;
  detected_at: Date;
  confidence: number;
  evidence: string[];
  product_name: string | null;
};

/** The events with their company's domain and name; an event whose company is gone is left out (its delete takes its events too). */
async function toEventRows(db: Queryable, raws: RawEvent[]): Promise<EventRow[]> {
  const companies = await companiesByIds(
    db,
    raws.map((r) => r.company_id),
  );
  return raws.flatMap((r) => {
    const c = companies.get(r.company_id);
    return c ? [toEventRow(r, c)] : [];
  });
}

function toEventRow(r: RawEvent, company: { domain: string; name: string | null }): EventRow {
  return {
    seq: Number(r.seq),
    id: r.id,
    type: r.type,
    companyDomain: company.domain,
    companyName: company.name,
    clientId: r.client_id,
    subject: r.subject,
    occurredAt: new Date(r.occurred_at),
    earliest: new Date(r.earliest),
    latest: new Date(r.latest),
    detectedAt: new Date(r.detected_at),
    confidence: r.confidence,
    evidence: r.evidence,
    productName: r.product_name,
  };
}

export interface EventFilter {
  /** The reader's client: it sees the world's events and its own monitors' events. */
  clientId: string;
  types?: readonly EventType[] | undefined;
  companyId?: string | undefined;
  monitorId?: string | undefined;
}

/**
 * A monitor's events, as SQL over `events e` (the reader's client is `$2`, the monitor the
 * expression `monitor`): its own entries and exits, and the world's events of the types it
 * wants about the companies in it now.
 */
const monitorEventsRule = (monitor: string) => `((e.client_id = $2 AND e.subject->>'monitorId' = ${monitor})
      OR (e.client_id IS NULL AND EXISTS (SELECT 1 FROM monitors mo JOIN monitor_members mm ON mm.monitor_id = mo.id
            WHERE mo.id = ${monitor} AND mo.client_id = $2 AND mm.company_id = e.company_id AND e.type = ANY(mo.event_types))))`;

/** The conditions of a filter on published events; `$1` is the seq bound, `$2` the client. */
function filterWhere(filter: EventFilter, params: unknown[], seq: string): string {
  const where = [seq, `(e.client_id IS NULL OR e.client_id = $2)`];
  if (filter.types?.length) where.push(`e.type = ANY($${params.push(filter.types)}::text[])`);
  if (filter.companyId) where.push(`e.company_id = $${params.push(filter.companyId)}`);
  if (filter.monitorId) where.push(monitorEventsRule(`$${params.push(filter.monitorId)}`));
  return where.join(' AND ');
}

/** Published events after `afterSeq`, in seq order, that the filter lets through. */
export async function eventsAfter(db: Queryable, filter: EventFilter, afterSeq: number, limit: number): Promise<EventRow[]> {
  const params: unknown[] = [afterSeq, filter.clientId, limit];
  const where = filterWhere(filter, params, `e.seq > $1`);
  const rows = await db.query<RawEvent>(`SELECT ${EVENT_COLUMNS} FROM ${EVENT_JOINS} WHERE ${where} ORDER BY e.seq LIMIT $3`, params);
  return toEventRows(db, rows);
}

/** The newest `limit` published events that the filter lets through, in seq order (oldest first). */
export async function latestEvents(db: Queryable, filter: EventFilter, limit: number): Promise<EventRow[]> {
  const params: unknown[] = [0, filter.clientId, limit];
  const where = filterWhere(filter, params, `e.seq > $1`);
  const rows = await db.query<RawEvent>(`SELECT ${EVENT_COLUMNS} FROM ${EVENT_JOINS} WHERE ${where} ORDER BY e.seq DESC LIMIT $3`, params);
  return (await toEventRows(db, rows)).reverse();
}

/**
 * Which of a client's monitors have a published event in (afterSeq, uptoSeq], by the rule of
 * eventsAfter's monitor filter: one statement for all of them.
 */
export async function monitorsWithEvents(db: Queryable, clientId: string, monitorIds: readonly string[], afterSeq: number, uptoSeq: number): Promise<string[]> {
  if (monitorIds.length === 0 || uptoSeq <= afterSeq) return [];
  const rows = await db.query<{ id: string }>(
    `SELECT w.id FROM unnest($3::text[]) AS w(id)
      WHERE EXISTS (SELECT 1 FROM events e WHERE e.seq > $1 AND e.seq <= $4 AND (e.client_id IS NULL OR e.client_id = $2) AND ${monitorEventsRule('w.id')})
      ORDER BY w.id`,
    [afterSeq, clientId, monitorIds, uptoSeq],
  );
  return rows.map((r) => r.id);
}

interface HistoryFilter {
  clientId: string;
  companyId: string;
  types?: readonly EventType[] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** A company's published events by when they happened, newest first, with the total. */
export async function companyEvents(db: Queryable, filter: HistoryFilter, offset: number, limit: number): Promise<{ total: number; rows: EventRow[] }> {
  const params: unknown[] = [filter.companyId, filter.clientId];
  const where = [`e.company_id = $1`, `e.seq IS NOT NULL`, `(e.client_id IS NULL OR e.client_id = $2)`];
  if (filter.types?.length) where.push(`e.type = ANY($${params.push(filter.types)}::text[])`);
  if (filter.from) where.push(`e.occurred_at >= $${params.push(filter.from.toISOString())}`);
  if (filter.to) where.push(`e.occurred_at < $${params.push(filter.to.toISOString())}`);
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events e WHERE ${where.join(' AND ')}`, params);
  const rows = await db.query<RawEvent>(
    `SELECT ${EVENT_COLUMNS} FROM ${EVENT_JOINS} WHERE ${where.join(' AND ')}
      ORDER BY e.occurred_at DESC, e.id LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`,
    params,
  );
  return { total: count?.n ?? 0, rows: await toEventRows(db, rows) };
}

/** Published events by id (those still there), by id. */
export async function eventsByIds(db: Queryable, ids: readonly string[]): Promise<Map<string, EventRow>> {
  const rows = await db.query<RawEvent>(`SELECT ${EVENT_COLUMNS} FROM ${EVENT_JOINS} WHERE e.id = ANY($1::text[]) AND e.seq IS NOT NULL`, [ids]);
  return new Map((await toEventRows(db, rows)).map((r) => [r.id, r]));
}
