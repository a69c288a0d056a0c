// What a subscription to a monitor's events needs below the MCP door: which of a client's
// monitors have events after a seq (the monitor feed's own rule, one statement for all of
// them), and, for a process that publishes nothing itself (`stacklens mcp` on stdio), a
// watcher that announces the published seq as the app's EventPublisher does.
import { EventEmitter } from 'node:events';
import type { Queryable } from '../db/db.ts';
import { highestSeq, monitorsWithEvents, type Published } from '../store/events.ts';

/** What announces newly published events: the app's EventPublisher, or a PublishWatcher. */
export interface PublishedEvents {
  on(event: 'published', listener: (published: Published) => void): unknown;
  off(event: 'published', listener: (published: Published) => void): unknown;
}

/** The highest published seq (0 when none): where a new subscription starts. */
export function publishedSeq(db: Queryable): Promise<number> {
  return highestSeq(db);
}

/** The client's monitors among `monitorIds` with a published event in (afterSeq, uptoSeq]. */
export function monitorsWithNewEvents(db: Queryable, clientId: string, monitorIds: readonly string[], afterSeq: number, uptoSeq: number): Promise<string[]> {
  return monitorsWithEvents(db, clientId, monitorIds, afterSeq, uptoSeq);
}

/** How often a watcher reads the published seq while someone listens. */
const WATCH_EVERY_MS = 2_000;

/**
 * Reads the highest published seq on a timer, only while a listener is attached, and
 * announces a higher one as `published` with `count: 0` (what was numbered is not known here,
 * so a listener checks everything after what it saw).
 */
export class PublishWatcher extends EventEmitter<{ published: [Published] }> {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private lastSeq = 0;

  constructor(
    private readonly db: Queryable,
    private readonly onError: (err: unknown) => void,
    private readonly everyMs = WATCH_EVERY_MS,
  ) {
    super();
    this.setMaxListeners(0);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.everyMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at the published seq (the timer's turn; tests call it directly). */
  async check(): Promise<void> {
    if (this.checking || this.listenerCount('published') === 0) return;
    this.checking = true;
    try {
      const seq = await highestSeq(this.db);
      if (seq > this.lastSeq) {
        this.lastSeq = seq;
        this.emit('published', { count: 0, lastSeq: seq, companyIds: [], clientIds: [] });
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.checking = false;
    }
  }
}
