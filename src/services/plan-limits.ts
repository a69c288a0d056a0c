// What a client's plan allows of the watch features: how many monitors and webhook endpoints it
// may hold (the smaller of the plan's number and the deployment's ceiling), and how many events
// it may receive per UTC day through the pull feed, live streams and webhooks together (spent
// in the database), how many companies it may enrich, market-sizing calls it may make and
// domains it may send to detection per UTC day (all in store/daily-allowance.ts).
import type { Db, Tx } from '../db/db.ts';
import { nowDate } from '../clock.ts';
import { ConflictError, RateLimitedError } from '../errors.ts';
import { peekDaily, spendDaily, type Allowance } from '../store/daily-allowance.ts';

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
  const a =
    want > 0 ? await db.transaction((tx) => spendDaily(tx, 'events', clientId, utcDay(at), want, true)) : await peekDaily(db, 'events', clientId, utcDay(at));
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
  return spendDaily(tx, 'events', clientId, utcDay(nowDate()), want, true);
}

/** A daily allowance spent all or nothing, and how its refusals name it. */
interface AllOrNothing {
  kind: 'enrich_rows' | 'facets' | 'detections';
  /** The plan field, named in refusals. */
  field: string;
  /** What a unit is, plural ("companies"); and what the call does with them ("enrich"). */
  units: string;
  verb: string;
  done: string;
  /** What a caller can do when one call alone asks for more than the whole allowance. */
  smaller: string;
}

const ENRICH_ROWS: AllOrNothing = {
  kind: 'enrich_rows',
  field: 'enrichRowsPerDay',
  units: 'companies',
  verb: 'enrich',
  done: 'enriched',
  smaller: 'send fewer domains per call',
};
const FACETS: AllOrNothing = { kind: 'facets', field: 'facetsPerDay', units: 'market-sizing calls', verb: 'make', done: 'made', smaller: '' };
const DETECTIONS: AllOrNothing = {
  kind: 'detections',
  field: 'detectionsPerDay',
  units: 'domains to detection',
  verb: 'send',
  done: 'sent',
  smaller: 'send fewer never-observed accounts per call',
};

/**
 * Spends what each ask wants of today's allowance of its kind, all or nothing across the asks,
 * in one transaction: more than a whole allowance in one call is a 409 (it can never pass), more
 * than what is left today a 429 with Retry-After at the next UTC day. Both name the plan field.
 */
async function takeDaily(db: Db, clientId: string, asks: { what: AllOrNothing; want: number }[]): Promise<void> {
  const wanted = asks.filter((a) => a.want > 0);
  if (wanted.length === 0) return;
  const at = nowDate();
  await db.transaction(async (tx) => {
    for (const { what, want } of wanted) {
      const a = await spendDaily(tx, what.kind, clientId, utcDay(at), want, false);
      if (a.granted !== want) throw refusal(what, want, a, at); // rolls back what the earlier asks spent
    }
  });
}

function refusal(what: AllOrNothing, want: number, a: Allowance, at: Date): ConflictError | RateLimitedError {
  const plan = `plan '${a.planId ?? '?'}'`;
  if (want > a.limit)
    return new ConflictError(
      `This call would ${what.verb} ${want} ${what.units}, more than the ${a.limit} its ${plan} allows per UTC day (${what.field}); ${what.smaller ? `${what.smaller} or ` : ''}move the client to a plan that allows more`,
    );
  const next = new Date(Date.parse(`${utcDay(at)}T00:00:00Z`) + 86_400_000).toISOString();
  return new RateLimitedError(
    `Daily allowance spent: this client has ${what.done} ${a.before} of the ${a.limit} ${what.units} its ${plan} allows per UTC day (${what.field}); ` +
      `this call would ${what.verb} ${want} more (${Math.max(0, a.limit - a.before)} left); more from ${next}`,
    secondsToNextUtcDay(at),
  );
}

/**
 * Spends `rows` of today's enrichment allowance (the plan's enrichRowsPerDay) and `detections`
 * of its detection allowance (detectionsPerDay), all or nothing (takeDaily's refusals).
 */
export function takeEnrichment(db: Db, clientId: string, rows: number, detections: number): Promise<void> {
  return takeDaily(db, clientId, [
    { what: ENRICH_ROWS, want: rows },
    { what: DETECTIONS, want: detections },
  ]);
}

/** Spends one of today's market-sizing calls (the plan's facetsPerDay; count mode included). */
export function takeFacetsCall(db: Db, clientId: string): Promise<void> {
  return takeDaily(db, clientId, [{ what: FACETS, want: 1 }]);
}
