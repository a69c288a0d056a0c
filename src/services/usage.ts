// Usage per client, UTC day and operation: counted in memory on the request path (a map
// increment, no database write), written in batches every USAGE_FLUSH_MS by one statement,
// and on close. A crash loses at most the last interval's counts; several processes add to
// the same rows. Read by the Admin API (after writing this process's pending counts).
import type { Db } from '../db/db.ts';
import { addUsage, findUsage, type UsageCount } from '../store/usage.ts';
import { findDailyUse } from '../store/daily-allowance.ts';
import { outsideRequest } from '../db/query-limits.ts';
import { now } from '../clock.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { findClient } from '../store/access.ts';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, type Usage } from '../schemas/admin-activity.ts';

const USAGE_FLUSH_MS = 5_000;
/** Distinct client/day/operation keys held before a write is started early. */
const MAX_PENDING_KEYS = 5_000;

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const FIRST_DAY_MS = Date.parse('0001-01-01T00:00:00Z');

export class UsageRecorder {
  private pending = new Map<string, UsageCount>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Today's UTC day and when it ends, so a request formats no date. */
  private day = '';
  private dayEndsAt = 0;

  constructor(
    private readonly db: Db,
    private readonly flushMs = USAGE_FLUSH_MS,
  ) {}

  /** Counts one answered request (status ≥ 400 also as an error). */
  note(clientId: string, operation: string, status: number): void {
    const t = now();
    if (t >= this.dayEndsAt || t < this.dayEndsAt - DAY_MS) {
      this.day = dayOf(t);
      this.dayEndsAt = Date.parse(`${this.day}T00:00:00Z`) + DAY_MS;
    }
    const day = this.day;
    const key = `${clientId}\u0000${day}\u0000${operation}`;
    let count = this.pending.get(key);
    if (!count) this.pending.set(key, (count = { clientId, day, operation, requests: 0, errors: 0 }));
    count.requests++;
    if (status >= 400) count.errors++;
    if (this.pending.size >= MAX_PENDING_KEYS) void this.flush();
    else if (!this.timer) this.timer = outsideRequest(() => setTimeout(() => void this.flush(), this.flushMs).unref());
  }

  /** Writes what is pending (one statement); resolves when this and earlier writes are done. A failed write is logged by the caller's log, the counts dropped. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.writing.then(() =>
      outsideRequest(() => addUsage(this.db, batch)).catch(() => {
        /* usage is best effort: a lost batch must not fail requests */
      }),
    );
    return this.writing;
  }
}

/** A client's usage from `from` to `to` (UTC days, inclusive; default the last 30 days). */
export async function getUsage(db: Db, clientId: string, range: { from?: string | undefined; to?: string | undefined }): Promise<Usage> {
  const to = range.to ?? dayOf(now());
  // The default window stops at the first day the database can store (0001-01-01).
  const from = range.from ?? dayOf(Math.max(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_USAGE_DAYS - 1) * DAY_MS, FIRST_DAY_MS));
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw new BadRequestError('from: must not be after to');
  if (days > MAX_USAGE_DAYS) throw new BadRequestError(`from: the window is at most ${MAX_USAGE_DAYS} days (${days} asked)`);
  if (!(await findClient(db, clientId))) throw new NotFoundError(`clientId: no client '${clientId}'`);
  const rows = await findUsage(db, clientId, from, to);
  const events = (await findDailyUse(db, 'events', clientId, from, to)).map((d) => ({ day: d.day, events: d.used }));
  const byOp = new Map<string, { operation: string; requests: number; errors: number }>();
  for (const r of rows) {
    const o = byOp.get(r.operation) ?? { operation: r.operation, requests: 0, errors: 0 };
    o.requests += r.requests;
    o.errors += r.errors;
    byOp.set(r.operation, o);
  }
  return {
    clientId,
    from,
    to,
    totalRequests: rows.reduce((n, r) => n + r.requests, 0),
    totalErrors: rows.reduce((n, r) => n + r.errors, 0),
    byOperation: [...byOp.values()].sort((a, b) => b.requests - a.requests || a.operation.localeCompare(b.operation)),
    rows: rows.map(({ day, operation, requests, errors }) => ({ day, operation, requests, errors })),
    totalEvents: events.reduce((n, e) => n + e.events, 0),
    events,
  };
}
