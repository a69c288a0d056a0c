// SQL of webhooks (migration 037): endpoints of a client, and deliveries of events to them.
import type { Queryable, Tx } from '../db/db.ts';
import type { EventType } from '../schemas/events.ts';

export interface SigningSecret {
  secret: string;
  /** When a previous secret stops signing (ISO time); null for the current one. */
  expiresAt: string | null;
}

export interface EndpointRow {
  id: string;
  clientId: string;
  url: string;
  description: string | null;
  monitorId: string | null;
  eventTypes: EventType[];
  secrets: SigningSecret[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
}

type RawEndpoint = {
  id: string;
  client_id: string;
  url: string;
  description: string | null;
  monitor_id: string | null;
  event_types: EventType[];
  secrets: SigningSecret[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  consecutive_failures: number;
  created_at: Date;
  updated_at: Date;
};

function toEndpoint(r: RawEndpoint): EndpointRow {
  return {
    id: r.id,
    clientId: r.client_id,
    url: r.url,
    description: r.description,
    monitorId: r.monitor_id,
    eventTypes: r.event_types,
    secrets: r.secrets,
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since ? new Date(r.failing_since) : null,
    consecutiveFailures: r.consecutive_failures,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

interface EndpointFields {
  url: string;
  description: string | null;
  monitorId: string | null;
  eventTypes: readonly EventType[];
}

export async function insertEndpoint(tx: Tx, id: string, clientId: string, f: EndpointFields, secret: string): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_endpoints (id, client_id, url, description, monitor_id, event_types, secrets) VALUES ($1, $2, $3, $4, $5, $6::text[], $7::jsonb)`,
    [id, clientId, f.url, f.description, f.monitorId, f.eventTypes, JSON.stringify([{ secret, expiresAt: null }])],
  );
}

export async function updateEndpointRow(db: Queryable, id: string, f: EndpointFields, enable: boolean | undefined): Promise<void> {
  await db.query(
    `UPDATE webhook_endpoints SET url = $2, description = $3, monitor_id = $4, event_types = $5::text[], updated_at = now(),
       enabled = coalesce($6, enabled),
       disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason WHEN $6 THEN NULL ELSE 'disabled by the client' END,
       failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
       consecutive_failures = CASE WHEN $6 THEN 0 ELSE consecutive_failures END
     WHERE id = $1`,
    [id, f.url, f.description, f.monitorId, f.eventTypes, enable ?? null],
  );
}

export async function setSecrets(db: Queryable, id: string, secrets: readonly SigningSecret[]): Promise<void> {
  await db.query(`UPDATE webhook_endpoints SET secrets = $2::jsonb, updated_at = now() WHERE id = $1`, [id, JSON.stringify(secrets)]);
}

export async function findEndpoint(db: Queryable, clientId: string, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db.query<RawEndpoint>(`SELECT * FROM webhook_endpoints WHERE id = $1 AND client_id = $2`, [id, clientId]);
  return row ? toEndpoint(row) : undefined;
}

export async function listEndpointRows(db: Queryable, clientId: string, offset: number, limit: number): Promise<{ total: number; rows: EndpointRow[] }> {
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE client_id = $1`, [clientId]);
  const rows = await db.query<RawEndpoint>(`SELECT * FROM webhook_endpoints WHERE client_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
    clientId,
    limit,
    offset,
  ]);
  return { total: count?.n ?? 0, rows: rows.map(toEndpoint) };
}

export async function countEndpoints(db: Queryable, clientId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE client_id = $1`, [clientId]);
  return row?.n ?? 0;
}

export async function deleteEndpointRow(db: Queryable, clientId: string, id: string): Promise<boolean> {
  return (await db.query(`DELETE FROM webhook_endpoints WHERE id = $1 AND client_id = $2 RETURNING 1`, [id, clientId])).length > 0;
}

/** What the filter of an endpoint lets through, as SQL on `e` (events) and `w` (webhook_endpoints). */
const ENDPOINT_WANTS = `e.type = ANY(w.event_types)
  AND (e.client_id IS NULL OR e.client_id = w.client_id)
  AND (w.monitor_id IS NULL
       OR (e.client_id = w.client_id AND e.subject->>'monitorId' = w.monitor_id)
       OR (e.client_id IS NULL AND EXISTS (SELECT 1 FROM monitor_members mm WHERE mm.monitor_id = w.monitor_id AND mm.company_id = e.company_id)))`;

/** The deliveries of the events numbered in (fromSeq, toSeq] to every enabled endpoint that wants them. */
export async function fanOut(tx: Tx, fromSeq: number, toSeq: number): Promise<{ endpointId: string; eventId: string }[]> {
  const rows = await tx.query<{ endpoint_id: string; event_id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, status)
     SELECT w.id, e.id, 'pending' FROM events e JOIN webhook_endpoints w ON w.enabled AND ${ENDPOINT_WANTS}
      WHERE e.seq > $1 AND e.seq <= $2
     ON CONFLICT DO NOTHING RETURNING endpoint_id, event_id`,
    [fromSeq, toSeq],
  );
  return rows.map((r) => ({ endpointId: r.endpoint_id, eventId: r.event_id }));
}

/**
 * Deliveries to try again (replay): the events given by id, or those published in a time range,
 * that the endpoint wants; each is set pending again (a new delivery where there was none).
 */
export async function replayDeliveries(
  tx: Tx,
  endpointId: string,
  which: { eventIds: readonly string[] } | { from: Date; to: Date },
): Promise<{ endpointId: string; eventId: string }[]> {
  const params: unknown[] = [endpointId];
  const selector =
    'eventIds' in which
      ? `e.id = ANY($${params.push(which.eventIds)}::text[])`
      : `e.detected_at >= $${params.push(which.from.toISOString())} AND e.detected_at < $${params.push(which.to.toISOString())}`;
  const rows = await tx.query<{ event_id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, status)
     SELECT w.id, e.id, 'pending' FROM events e JOIN webhook_endpoints w ON w.id = $1 AND ${ENDPOINT_WANTS}
      WHERE e.seq IS NOT NULL AND ${selector}
     ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', last_error = NULL
     RETURNING event_id`,
    params,
  );
  return rows.map((r) => ({ endpointId, eventId: r.event_id }));
}

/** What one delivery sends: the endpoint's target and secrets, and the event. */
/** The endpoints of a batch of deliveries (those still there), by endpoint id. */
export async function deliveryEndpoints(db: Queryable, deliveries: readonly { endpointId: string; eventId: string }[]): Promise<Map<string, EndpointRow>> {
  const rows = await db.query<RawEndpoint>(
    `SELECT DISTINCT w.* FROM unnest($1::text[], $2::text[]) AS j(endpoint_id, event_id)
       JOIN webhook_deliveries d ON d.endpoint_id = j.endpoint_id AND d.event_id = j.event_id
       JOIN webhook_endpoints w ON w.id = d.endpoint_id`,
    [deliveries.map((d) => d.endpointId), deliveries.map((d) => d.eventId)],
  );
  return new Map(rows.map((r) => [r.id, toEndpoint(r)]));
}

/** Records the successful attempts of a batch at once; each endpoint's failure count starts again. */
export async function recordDelivered(db: Queryable, delivered: readonly { endpointId: string; eventId: string; status: number }[]): Promise<void> {
  if (delivered.length === 0) return;
  await db.query(
    `WITH j AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[]) AS j(endpoint_id, event_id, status)),
          d AS (UPDATE webhook_deliveries w SET status = 'delivered', attempts = attempts + 1, last_attempt_at = now(), last_status = j.status,
                       last_error = NULL, delivered_at = now()
                  FROM j WHERE w.endpoint_id = j.endpoint_id AND w.event_id = j.event_id)
     UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL
      WHERE id IN (SELECT endpoint_id FROM j) AND (consecutive_failures <> 0 OR failing_since IS NOT NULL)`,
    [delivered.map((d) => d.endpointId), delivered.map((d) => d.eventId), delivered.map((d) => d.status)],
  );
}

/** Records a failed attempt; the endpoint's failure count grows. `final`: retries are exhausted, the delivery is dead. */
export async function recordFailure(
  db: Queryable,
  endpointId: string,
  eventId: string,
  failure: { status: number | null; error: string; final: boolean },
): Promise<void> {
  await db.query(
    `WITH d AS (UPDATE webhook_deliveries SET status = CASE WHEN $5 THEN 'dead' ELSE 'pending' END, attempts = attempts + 1,
                  last_attempt_at = now(), last_status = $3, last_error = $4 WHERE endpoint_id = $1 AND event_id = $2)
     UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, now()) WHERE id = $1`,
    [endpointId, eventId, failure.status, failure.error.slice(0, 500), failure.final],
  );
}

/** Disables an endpoint that has failed every delivery since `before`; true when it did. */
export async function disableIfFailingSince(db: Queryable, endpointId: string, before: Date, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now()
      WHERE id = $1 AND enabled AND failing_since IS NOT NULL AND failing_since <= $2 RETURNING 1`,
    [endpointId, before.toISOString(), reason],
  );
  return rows.length > 0;
}

/** Marks a delivery skipped (its endpoint was disabled or deleted before it went out). */
export async function skipDelivery(db: Queryable, endpointId: string, eventId: string): Promise<void> {
  await db.query(`UPDATE webhook_deliveries SET status = 'skipped' WHERE endpoint_id = $1 AND event_id = $2 AND status = 'pending'`, [endpointId, eventId]);
}

interface DeliveryRow {
  eventId: string;
  eventType: EventType;
  status: string;
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export async function listDeliveryRows(
  db: Queryable,
  endpointId: string,
  status: string | undefined,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: DeliveryRow[] }> {
  const params: unknown[] = [endpointId];
  const where = `d.endpoint_id = $1${status ? ` AND d.status = $${params.push(status)}` : ''}`;
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries d WHERE ${where}`, params);
  const rows = await db.query<{
    event_id: string;
    type: EventType;
    status: string;
    attempts: number;
    last_attempt_at: Date | null;
    last_status: number | null;
    last_error: string | null;
    delivered_at: Date | null;
    created_at: Date;
  }>(
    `SELECT d.event_id, e.type, d.status, d.attempts, d.last_attempt_at, d.last_status, d.last_error, d.delivered_at, d.created_at
       FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE ${where}
      ORDER BY d.created_at DESC, d.event_id LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`,
    params,
  );
  return {
    total: count?.n ?? 0,
    rows: rows.map((r) => ({
      eventId: r.event_id,
      eventType: r.type,
      status: r.status,
      attempts: r.attempts,
      lastAttemptAt: r.last_attempt_at ? new Date(r.last_attempt_at) : null,
      lastStatus: r.last_status,
      lastError: r.last_error,
      deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
      createdAt: new Date(r.created_at),
    })),
  };
}

/**
 * Of a client's deliveries, those not yet counted against its daily event allowance, locked
 * until the transaction ends (two workers holding the same delivery cannot both count it),
 * oldest event first.
 */
export async function lockUncounted(
  tx: Tx,
  deliveries: readonly { endpointId: string; eventId: string }[],
): Promise<{ endpointId: string; eventId: string }[]> {
  const rows = await tx.query<{ endpoint_id: string; event_id: string }>(
    `SELECT d.endpoint_id, d.event_id FROM unnest($1::text[], $2::text[]) AS j(endpoint_id, event_id)
       JOIN webhook_deliveries d ON d.endpoint_id = j.endpoint_id AND d.event_id = j.event_id
       JOIN events e ON e.id = d.event_id
      WHERE NOT d.counted
      ORDER BY e.seq, d.endpoint_id
        FOR UPDATE OF d`,
    [deliveries.map((d) => d.endpointId), deliveries.map((d) => d.eventId)],
  );
  return rows.map((r) => ({ endpointId: r.endpoint_id, eventId: r.event_id }));
}

/** Marks deliveries counted (let through), or notes why the others wait (`heldReason`, shown as the delivery's last error until it goes out). */
export async function settleAllowance(
  tx: Tx,
  counted: readonly { endpointId: string; eventId: string }[],
  held: readonly { endpointId: string; eventId: string }[],
  heldReason: string,
): Promise<void> {
  const all = [...counted.map((d) => ({ ...d, counted: true })), ...held.map((d) => ({ ...d, counted: false }))];
  if (all.length === 0) return;
  await tx.query(
    `UPDATE webhook_deliveries d SET counted = j.counted, last_error = CASE WHEN j.counted THEN NULL ELSE $4::text END
       FROM unnest($1::text[], $2::text[], $3::boolean[]) AS j(endpoint_id, event_id, counted)
      WHERE d.endpoint_id = j.endpoint_id AND d.event_id = j.event_id`,
    [all.map((d) => d.endpointId), all.map((d) => d.eventId), all.map((d) => d.counted), heldReason],
  );
}
