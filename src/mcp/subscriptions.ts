// One MCP session's subscriptions to its monitors' events resources (resources/subscribe),
// for a server with a live notification channel (stdio, a long-lived in-process transport).
// When events are published, the subscribed monitors with new events get
// notifications/resources/updated with their URI. The work per publish is bounded: nothing
// when this client has no monitor entries among the numbered events and none of them is about
// the world; else one statement for all the session's monitors (monitor-updates.ts), and
// publishes that come while it runs are folded into one more check.
import type { Db } from '../db/db.ts';
import type { Published } from '../store/events.ts';
import { monitorsWithNewEvents, publishedSeq, type PublishedEvents } from '../services/monitor-updates.ts';

/** Subscriptions one session may hold (a client holds at most MAX_MONITORS_PER_CLIENT monitors, 100 by default). */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100;

export class MonitorSubscriptions {
  /** Subscribed monitors → the URI their notifications carry. */
  private readonly uris = new Map<string, string>();
  /** Published events up to this seq have been checked. */
  private after = 0;
  /** The newest publish not checked yet, while a check runs. */
  private waiting: Published | undefined;
  private checking = false;
  private closed = false;
  private listening = false;

  constructor(
    private readonly db: Db,
    private readonly clientId: string,
    private readonly events: PublishedEvents,
    private readonly notify: (uri: string) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Subscribes (again: nothing changes); false when the session holds the most it may. */
  async add(uri: string, monitorId: string): Promise<boolean> {
    if (this.uris.has(monitorId)) return true;
    if (this.uris.size >= MAX_SUBSCRIPTIONS_PER_SESSION) return false;
    this.uris.set(monitorId, uri);
    if (!this.listening) {
      this.listening = true;
      // Events published before the first subscription are not news to it.
      this.after = Math.max(this.after, await publishedSeq(this.db));
      if (this.listening && !this.closed) {
        this.events.off('published', this.onPublished); // two adds in a row attach it once
        this.events.on('published', this.onPublished);
      }
    }
    return true;
  }

  remove(monitorId: string): void {
    if (this.uris.delete(monitorId) && this.uris.size === 0) this.stopListening();
  }

  /** The session ended: no more checks or notifications. */
  close(): void {
    this.closed = true;
    this.uris.clear();
    this.stopListening();
  }

  private stopListening(): void {
    this.listening = false;
    this.events.off('published', this.onPublished);
  }

  private readonly onPublished = (published: Published): void => {
    if (!this.waiting || published.lastSeq > this.waiting.lastSeq) this.waiting = published;
    if (!this.checking) void this.drain();
  };

  private async drain(): Promise<void> {
    this.checking = true;
    try {
      while (this.waiting && !this.closed) {
        const published = this.waiting;
        this.waiting = undefined;
        await this.check(published);
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.checking = false;
    }
  }

  private async check(published: Published): Promise<void> {
    const from = this.after;
    const upto = published.lastSeq;
    if (upto <= from || this.uris.size === 0) return;
    this.after = upto;
    // When this publish numbered everything after what was checked (no publish folded in or
    // missed, and not a watcher's count of 0), what it says it numbered is all there is.
    const whole = upto - published.count <= from;
    if (whole && published.companyIds.length === 0 && !published.clientIds.includes(this.clientId)) return;
    for (const monitorId of await monitorsWithNewEvents(this.db, this.clientId, [...this.uris.keys()], from, upto)) {
      const uri = this.uris.get(monitorId);
      if (uri && !this.closed) await this.notify(uri).catch(this.onError);
    }
  }
}
