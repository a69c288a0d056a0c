// What a client's plan allows of the watch features: how many monitors and webhook endpoints it
// may hold (the smaller of the plan's number and the deployment's ceiling), and how many events
// it may receive per UTC day through the pull feed, live streams and webhooks together (spent
// in the database: store/event-volume.ts), and how many companies it may enrich per UTC day
// (store/enrichment.ts).
import type { Db, Tx } from '../db/db.ts';
import { nowDate } from '../clock.ts';
import { ConflictError, RateLimitedError } from '../errors.ts';
import { peekAllowance, spendAllowance, type Allowance } from '../store/event-volume.ts';
import { spendEnrichRows } from '../store/enrichment.ts';

/** A client's holding limits as its plan reads under the client's lock (store/access.ts `lockClient`). */
interface Holding {
  planId: string;
  /** The plan's number. */
  planMax: number;
  /** The deployment's ceiling over every plan, and the setting that holds it. */
  ceiling: number;
  ceilingName: string;
}

/**
 * Refuses (409) one more monitor or webhook endpoint when the client holds as many as it may:
 * the smaller of its plan's number and the deployment's ceiling, named in the message.
 */
export function checkHolding(what: 'monitors' | 'webhooks', held: number, h: Holding): void {
  const planField = what === 'monitors' ? 'maxMonitors' : 'maxWebhooks';
  if (h.ceiling < h.planMax) {
    if (held >= h.ceiling)
      throw new ConflictError(
        `This client has ${held} ${what}, the most this deployment allows any client (${h.ceilingName} = ${h.ceiling}; plan '${h.planId}' allows ${h.planMax}); delete one first`,
      );
    return;
  }
  if (held >= h.planMax)
    throw new ConflictError(
      `This client has ${held} ${what}, the most its plan '${h.planId}' allows (${planField} = ${h.planMax}); delete one first or move the client to a plan that allows more`,
    );
}

/** The UTC day of a time, as the allowance counts it (YYYY-MM-DD). */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Whole seconds from `at` until the next UTC day begins (at least 1). */
export function secondsToNextUtcDay(at: Date): number {
  const next = Date.parse(`${utcDay(at)}T00:00:00Z`) + 86_400_000;
  return Math.max(1, Math.ceil((next - at.getTime()) / 1000));
}

/** The refusal of a client whose events of the day are spent: 429 with Retry-After at the next UTC day. */
function allowanceSpent(a: Allowance, at: Date): RateLimitedError {
  const next = new Date(Date.parse(`${utcDay(at)}T00:00:00Z`) + 86_400_000).toISOString();
  return new RateLimitedError(
    `Daily event allowance spent: this client has received ${a.used} of the ${a.limit} events its plan '${a.planId ?? '?'}' allows per UTC day ` +
      `(eventsPerDay; pull, streams and webhooks together); more from ${next}`,
    secondsToNextUtcDay(at),
  );
}

/**
 * Spends up to `want` events of today's allowance (its own transaction; `want` 0 only looks).
 * `spent` is the refusal to give once the allowance is used up, this call's grant included.
 */
export async function spendEvents(db: Db, clientId: string, want: number): Promise<{ granted: number; spent: RateLimitedError | undefined }> {
  const at = nowDate();
  const a = want > 0 ? await db.transaction((tx) => spendAllowance(tx, clientId, utcDay(at), want)) : await peekAllowance(db, clientId, utcDay(at));
  return { granted: a.granted, spent: a.used >= a.limit ? allowanceSpent(a, at) : undefined };
}

/** Like `spendEvents`, refusing with 429 when nothing is granted — also for `want` 0, so a poll of an empty feed says the allowance is spent. */
export async function takeEvents(db: Db, clientId: string, want: number): Promise<number> {
  const { granted, spent } = await spendEvents(db, clientId, want);
  if (granted === 0 && spent) throw spent;
  return granted;
}

/** Spends up to `want` events of today's allowance inside the caller's transaction (webhook deliveries); never refuses. */
export async function takeEventsIn(tx: Tx, clientId: string, want: number): Promise<Allowance> {
  return spendAllowance(tx, clientId, utcDay(nowDate()), want);
}

/**
 * Spends `rows` of today's enrichment allowance (the plan's enrichRowsPerDay), all or nothing,
 * in its own transaction: more than the whole allowance in one call is a 409 (it can never
 * pass), more than what is left today a 429 with Retry-After at the next UTC day.
 */
export async function takeEnrichRows(db: Db, clientId: string, rows: number): Promise<void> {
  if (rows === 0) return;
  const at = nowDate();
  const a = await db.transaction((tx) => spendEnrichRows(tx, clientId, utcDay(at), rows));
  if (a.granted) return;
  const plan = `plan '${a.planId ?? '?'}'`;
  if (rows > a.limit)
    throw new ConflictError(
      `This call would enrich ${rows} companies, more than the ${a.limit} its ${plan} allows per UTC day (enrichRowsPerDay); send fewer domains per call or move the client to a plan that allows more`,
    );
  const next = new Date(Date.parse(`${utcDay(at)}T00:00:00Z`) + 86_400_000).toISOString();
  throw new RateLimitedError(
    `Daily enrichment allowance: this client has enriched ${a.before} of the ${a.limit} companies its ${plan} allows per UTC day (enrichRowsPerDay); ` +
      `this call would enrich ${rows} more (${a.limit - a.before} left); more from ${next}`,
    secondsToNextUtcDay(at),
  );
}
