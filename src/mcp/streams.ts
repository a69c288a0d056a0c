// The server-to-client stream of Streamable HTTP (GET /mcp with a session): what a session's
// resource subscriptions announce (notifications/resources/updated) reaches the client here.
//
// Where things live: a session's subscriptions and the messages of its stream are rows in
// the database (store/mcp-streams.ts), keyed by the session id's hash, so a subscription made
// through one instance is served by the stream open on another, and a client reconnecting
// with Last-Event-ID to any instance gets the messages it missed, in order, then live ones.
// Each message's SSE id is its row id. Kept: the newest STREAM_EVENTS_KEPT messages of a
// session, none older than the session TTL; resuming from an id no longer kept (or never
// given to this session) is a 400 that says so (the client opens the stream without
// Last-Event-ID and reads its resources again).
//
// Messages are made by whichever instance holds the session's stream, when events are
// published — by this process, or by another instance, seen by a watcher of the published seq
// (every 2 s, one statement per process while streams are open) — and once as the stream
// opens, for what was published while none was open: the
// subscriptions' checked seq is claimed in one statement, so no range is announced twice.
// One stream per session on an instance: a second GET is a 409, a GET resuming with
// Last-Event-ID replaces the one open. Streams get a comment every KEEP_ALIVE_MS, which also
// looks the session up (keeping it from expiring while its stream is open); they end when
// their session is deleted (here at once; deleted on another instance, evicted or expired: at
// the next keep-alive), when draining starts (drain.ts cuts them) and on close. An open
// stream does not count as a request in flight of its session (sessions.ts: at the client's
// cap a session with only a stream open may be ended for a new one).
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/db.ts';
import { monitorsWithNewEvents, publishedSeq, type PublishedEvents } from '../services/monitor-updates.ts';
import type { Published } from '../store/events.ts';
import { addSubscription, appendStreamEvents, claimSubscriptions, deleteSessionStream, removeSubscription, streamEventsAfter } from '../store/mcp-streams.ts';
import { MAX_SUBSCRIPTIONS_PER_SESSION } from './subscriptions.ts';
import { sessionIdHash } from './sessions.ts';

/** A comment line this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/** What the subscribe handlers of an HTTP session's server use (server.ts). */
export interface SessionSubscriptions {
  add(uri: string, monitorId: string): Promise<boolean>;
  remove(monitorId: string): Promise<void>;
}

export function sessionSubscriptions(db: Db, sessionId: string, clientId: string, afterSeq: () => Promise<number>): SessionSubscriptions {
  const sessionHash = sessionIdHash(sessionId);
  return {
    add: async (uri, monitorId) =>
      addSubscription(db, { sessionHash, clientId, monitorId, uri, afterSeq: await afterSeq(), max: MAX_SUBSCRIPTIONS_PER_SESSION }),
    remove: (monitorId) => removeSubscription(db, sessionHash, monitorId),
  };
}

interface OpenStream {
  reply: FastifyReply;
  sessionHash: string;
  clientId: string;
  /** The last message id written to it. */
  sentId: number;
  busy: boolean;
  again: boolean;
  keepAlive: NodeJS.Timeout;
}

export class SessionStreams {
  private readonly open = new Map<string, OpenStream>();

  constructor(
    private readonly db: Db,
    /** This process's publisher, and a watcher of the published seq for what other instances publish. */
    private readonly events: readonly PublishedEvents[],
    private readonly ttlMs: number,
    private readonly onError: (err: unknown) => void,
    /** Whether the session is still live (it was not deleted, evicted or expired, on any instance): asked at each keep-alive. */
    private readonly live: (sessionId: string) => Promise<boolean>,
  ) {}

  /** Whether this instance holds a stream of the session. */
  has(sessionId: string): boolean {
    return this.open.has(sessionIdHash(sessionId));
  }

  /**
   * Serves the stream on a hijacked reply whose headers are not sent yet: the messages after
   * `afterId` (those already checked to be this session's), then live ones until it closes.
   */
  async serve(reply: FastifyReply, sessionId: string, clientId: string, afterId: number): Promise<void> {
    const sessionHash = sessionIdHash(sessionId);
    this.open.get(sessionHash)?.reply.raw.end();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': sessionId,
    });
    raw.flushHeaders();
    const stream: OpenStream = {
      reply,
      sessionHash,
      clientId,
      sentId: afterId,
      busy: false,
      again: false,
      keepAlive: setInterval(() => void this.keepAlive(stream, sessionId), KEEP_ALIVE_MS).unref(),
    };
    this.open.set(sessionHash, stream);
    if (this.open.size === 1) for (const e of this.events) e.on('published', this.onPublished);
    raw.once('close', () => {
      clearInterval(stream.keepAlive);
      if (this.open.get(sessionHash) === stream) this.open.delete(sessionHash);
      if (this.open.size === 0) for (const e of this.events) e.off('published', this.onPublished);
    });
    this.turn(stream);
  }

  /** The session was deleted: its stream (here) ends, its subscriptions and messages go. */
  async end(sessionId: string): Promise<void> {
    const sessionHash = sessionIdHash(sessionId);
    this.open.get(sessionHash)?.reply.raw.end();
    await deleteSessionStream(this.db, sessionHash);
  }

  /** Ends every stream (shutdown). */
  close(): void {
    for (const stream of [...this.open.values()]) stream.reply.raw.end();
    for (const e of this.events) e.off('published', this.onPublished);
  }

  /** A comment line, or the end of the stream when its session is gone. */
  private async keepAlive(stream: OpenStream, sessionId: string): Promise<void> {
    const live = await this.live(sessionId).catch(() => true);
    if (!live) stream.reply.raw.end();
    else if (!stream.reply.raw.writableEnded) stream.reply.raw.write(': keep-alive\n\n');
  }

  private readonly onPublished = (_published: Published): void => {
    for (const stream of this.open.values()) this.turn(stream);
  };

  /** Checks the stream's subscriptions and writes what is new; publishes during a turn fold into one more. */
  private turn(stream: OpenStream): void {
    if (stream.busy) {
      stream.again = true;
      return;
    }
    stream.busy = true;
    void (async () => {
      try {
        do {
          stream.again = false;
          await this.check(stream);
        } while (stream.again && !stream.reply.raw.writableEnded);
      } catch (err) {
        this.onError(err);
      } finally {
        stream.busy = false;
      }
    })();
  }

  private async check(stream: OpenStream): Promise<void> {
    const upto = await publishedSeq(this.db);
    const claimed = await claimSubscriptions(this.db, stream.sessionHash, upto);
    const messages: unknown[] = [];
    const byFrom = new Map<number, typeof claimed>();
    for (const c of claimed) byFrom.set(c.afterSeq, [...(byFrom.get(c.afterSeq) ?? []), c]);
    for (const [from, group] of [...byFrom].sort((a, b) => a[0] - b[0])) {
      const uris = new Map(group.map((c) => [c.monitorId, c.uri]));
      for (const monitorId of await monitorsWithNewEvents(this.db, stream.clientId, [...uris.keys()], from, upto))
        messages.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: uris.get(monitorId) } });
    }
    await appendStreamEvents(this.db, stream.sessionHash, messages, new Date(Date.now() - this.ttlMs));
    const raw = stream.reply.raw;
    if (raw.writableEnded || raw.destroyed) return;
    for (const { id, message } of await streamEventsAfter(this.db, stream.sessionHash, stream.sentId)) {
      raw.write(`id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`);
      stream.sentId = id;
    }
  }
}
