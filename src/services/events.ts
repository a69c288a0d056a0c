// Change events as the doors show them: the pull feed after a cursor, a company's history,
// and the publisher that numbers new events and wakes the live streams.
import { EventEmitter } from 'node:events';
import type { Db, Tx } from '../db/db.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { EventRecord, EventsInput, EventsPage, HistoryInput, StreamInput } from '../schemas/events.ts';
import { NotFoundError, RateLimitedError } from '../errors.ts';
import { findMonitor } from '../store/monitors.ts';
import { companyEvents, eventsAfter, highestSeq, latestEvents, publishEvents, type EventFilter, type EventRow, type Published } from '../store/events.ts';
import { serviceCursorKey, signEventCursor, verifyEventCursor } from './cursors.ts';
import { requireCompany } from './resolve.ts';

/** The API record of a stored event. */
export function toEventRecord(r: EventRow): EventRecord {
  const s = r.subject;
  const record: EventRecord = {
    id: r.id,
    type: r.type,
    company: { domain: r.companyDomain, name: r.companyName },
    occurredAt: r.occurredAt.toISOString(),
    occurredBetween: { earliest: r.earliest.toISOString(), latest: r.latest.toISOString() },
    detectedAt: r.detectedAt.toISOString(),
    confidence: Math.round(r.confidence * 1000) / 1000,
    evidence: { hashes: r.evidence, url: null },
  };
  if (typeof s.productId === 'string') {
    record.product = { id: s.productId, name: r.productName };
    record.evidence.url = `/api/companies/${encodeURIComponent(r.companyDomain)}/products/${encodeURIComponent(s.productId)}/evidence`;
  }
  if (typeof s.jobPosts30d === 'number' && typeof s.jobPosts180d === 'number') record.jobPosts = { last30Days: s.jobPosts30d, last180Days: s.jobPosts180d };
  if (typeof s.fromVersion === 'string') record.fromVersion = s.fromVersion;
  if (typeof s.toVersion === 'string') record.toVersion = s.toVersion;
  if (typeof s.field === 'string') {
    record.field = s.field as EventRecord['field'];
    record.from = (s.from as string | null | undefined) ?? null;
    record.to = (s.to as string | null | undefined) ?? null;
  }
  if (typeof s.feedItemId === 'string') record.feedItem = { id: s.feedItemId, title: String(s.title ?? ''), category: String(s.category ?? 'NEWS') };
  if (typeof s.monitorId === 'string') record.monitor = { id: s.monitorId, name: typeof s.monitorName === 'string' ? s.monitorName : null };
  return record;
}

/** The filter of a feed or stream call: the company resolved (404 when unknown). */
async function filterOf(db: Db, clientId: string, input: Pick<EventsInput, 'types' | 'companyDomain' | 'monitorId'>): Promise<EventFilter> {
  const company = input.companyDomain ? await requireCompany(db, input.companyDomain) : undefined;
  if (input.monitorId && !(await findMonitor(db, clientId, input.monitorId)))
    throw new NotFoundError(`monitorId: no monitor '${input.monitorId}' of this client`);
  return { clientId, types: input.types, companyId: company?.id, monitorId: input.monitorId };
}

export async function listEvents(db: Db, clientId: string, input: EventsInput, cursorSecret: string | undefined): Promise<EventsPage> {
  const key = await serviceCursorKey(db, cursorSecret);
  const after = input.cursor ? verifyEventCursor(key, clientId, input.cursor) : 0;
  const filter = await filterOf(db, clientId, input);
  // One extra row says whether more are waiting.
  const rows = await eventsAfter(db, filter, after, input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.length > 0 ? page[page.length - 1]!.seq : after;
  return { events: page.map(toEventRecord), cursor: signEventCursor(key, clientId, last), hasMore: rows.length > input.limit };
}

/**
 * The newest events of the feed (oldest first), with the cursor after them; with a cursor,
 * the events after it, as listEvents gives them. What an MCP resource of a monitor reads.
 */
export async function recentEvents(db: Db, clientId: string, input: EventsInput, cursorSecret: string | undefined): Promise<EventsPage> {
  if (input.cursor) return listEvents(db, clientId, input, cursorSecret);
  const key = await serviceCursorKey(db, cursorSecret);
  const rows = await latestEvents(db, await filterOf(db, clientId, input), input.limit);
  return { events: rows.map(toEventRecord), cursor: signEventCursor(key, clientId, rows.at(-1)?.seq ?? 0), hasMore: false };
}

export async function companyHistory(db: Db, clientId: string, input: HistoryInput): Promise<Page<EventRecord>> {
  const company = await requireCompany(db, input.companyDomain);
  const to = input.to ? new Date(Date.parse(`${input.to}T00:00:00Z`) + 86_400_000) : undefined;
  const { total, rows } = await companyEvents(
    db,
    { clientId, companyId: company.id, types: input.types, from: input.from ? new Date(`${input.from}T00:00:00Z`) : undefined, to },
    input.page * input.size,
    input.size,
  );
  return toPage(rows.map(toEventRecord), total, input.size);
}

/** Events read per statement while a stream catches up. */
const STREAM_BATCH = 500;
/** An idle stream sends a comment this often, so proxies and clients keep it open. */
const HEARTBEAT_MS = 15_000;
/** Live streams one client may hold at once. */
const MAX_STREAMS_PER_CLIENT = 5;

const streamsByClient = new Map<string, number>();

/** A message of a live stream: an event with its cursor, or a heartbeat while nothing happens. */
type StreamMessage = { cursor: string; event: EventRecord } | { heartbeat: true };

/**
 * Opens a client's live stream: checks the input (a 400/404 here, before anything is sent) and
 * the client's share of streams (429), then gives the messages, from the position after the
 * Last-Event-ID (or cursor) or, without one, from the newest event on. Ends when `signal` aborts.
 */
export async function openEventStream(
  db: Db,
  publisher: EventPublisher,
  clientId: string,
  input: StreamInput,
  cursorSecret: string | undefined,
  signal: AbortSignal,
): Promise<AsyncGenerator<StreamMessage>> {
  const key = await serviceCursorKey(db, cursorSecret);
  const resumeFrom = input.lastEventId ?? input.cursor;
  let after = resumeFrom ? verifyEventCursor(key, clientId, resumeFrom, input.lastEventId ? 'Last-Event-ID' : 'cursor') : await highestSeq(db);
  const filter = await filterOf(db, clientId, input);
  const held = streamsByClient.get(clientId) ?? 0;
  if (held >= MAX_STREAMS_PER_CLIENT)
    throw new RateLimitedError(`Too many event streams: this client holds ${held}, the most at once; close one or poll GET /api/events`, 30);
  streamsByClient.set(clientId, held + 1);
  const release = () => {
    const n = (streamsByClient.get(clientId) ?? 1) - 1;
    if (n > 0) streamsByClient.set(clientId, n);
    else streamsByClient.delete(clientId);
  };
  return (async function* follow(): AsyncGenerator<StreamMessage> {
    try {
      while (!signal.aborted) {
        // Everything up to the publisher's last seq is committed: a short read may skip to it.
        const known = publisher.lastSeq;
        const rows = await eventsAfter(db, filter, after, STREAM_BATCH);
        for (const r of rows) {
          after = r.seq;
          yield { cursor: signEventCursor(key, clientId, r.seq), event: toEventRecord(r) };
        }
        if (rows.length === STREAM_BATCH) continue;
        after = Math.max(after, known);
        if (publisher.lastSeq > after) continue;
        if (!(await nextPublish(publisher, signal, HEARTBEAT_MS))) yield { heartbeat: true };
      }
    } finally {
      release();
    }
  })();
}

/** Resolves true when the publisher publishes, false after `ms` or when `signal` aborts. */
function nextPublish(publisher: EventPublisher, signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (published: boolean) => {
      clearTimeout(timer);
      publisher.off('published', onPublished);
      signal.removeEventListener('abort', onAbort);
      resolve(published);
    };
    const onPublished = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    publisher.on('published', onPublished);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How often the publisher looks for events other processes wrote (a CLI import, a detection run). */
const PUBLISH_EVERY_MS = 2_000;

/**
 * Publishes new events and tells the live streams: on a timer (writers in other processes)
 * and at once when a writer in this process says it wrote some (`nudge`). One publish at a
 * time per process; across processes the store's advisory lock orders them.
 */
export class EventPublisher extends EventEmitter<{ published: [Published]; close: [] }> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private prepared: Promise<void> | undefined;
  /** The highest seq this process has seen published. */
  lastSeq = 0;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    /** False while the database is not there to publish from (the first start's seeding). */
    private readonly canPublish: () => boolean = () => true,
    /** Runs after each publish with the companies of its world events; returns the events it wrote (the monitors'). */
    private readonly afterPublish: (companyIds: string[]) => Promise<number> = async () => 0,
    /** Runs in the publishing transaction with the range of seq it numbered (webhook fan-out). */
    private readonly onNumbered?: (tx: Tx, fromSeq: number, toSeq: number) => Promise<void>,
    /** Awaited before the first publish (the delivery queue's start). */
    private readonly beforeFirstPublish: () => Promise<void> = async () => {},
    private readonly everyMs = PUBLISH_EVERY_MS,
  ) {
    super();
    this.setMaxListeners(0);
  }

  /** Starts the timer; never fails (a database that is down is retried on the next turn). */
  start(): void {
    this.schedule();
  }

  /** Publishes now (or right after the publish under way). */
  nudge(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.publish().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.nudge();
      }
    });
    return this.running;
  }

  /** Ends the live streams (the server is closing): they stop before the connections are drained. */
  close(): void {
    this.emit('close');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.nudge().finally(() => this.schedule()), this.everyMs);
    this.timer.unref();
  }

  private async publish(): Promise<void> {
    if (!this.canPublish()) return;
    try {
      await (this.prepared ??= this.beforeFirstPublish().catch((err) => {
        this.prepared = undefined;
        throw err;
      }));
      // A large backlog (a seed, a big import) is published in batches, each its own transaction.
      // Each turn: number what was written, then re-evaluate the monitors for the companies
      // those events (and the queue of changed companies) name; their entries and exits are
      // numbered on the next turn.
      for (;;) {
        const published = await publishEvents(this.db, this.onNumbered);
        if (published.lastSeq > this.lastSeq) {
          this.lastSeq = published.lastSeq;
          this.emit('published', published);
        }
        const monitorEvents = await this.afterPublish(published.companyIds);
        if ((published.count === 0 && monitorEvents === 0) || this.stopped) break;
      }
    } catch (err) {
      this.onError(err);
    }
  }
}
