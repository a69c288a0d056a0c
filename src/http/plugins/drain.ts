// Graceful shutdown of the HTTP side (docs/operations.md "Shutdown"): once draining starts, every new
// request but /healthz gets a 503 with Retry-After and `Connection: close` (so a load
// balancer moves on; /readyz says 503 anyway), while the requests already in flight go on.
// JSON requests finish with their whole body; exports (CSV/JSONL streams) get a grace
// period, after which the ones still running are cut by destroying their connection: a
// chunked reply then lacks its terminating chunk, so the client sees an error, never a
// silently short file, and the export's audit row says completed=false
// (services/exports.ts). The listening socket stays open until the end, so connections
// that arrive meanwhile get the 503 instead of a reset.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.ts';

interface DrainOutcome {
  /** Requests (not exports) that ended while draining, and those still running at the end of the grace period (cut). */
  requestsFinished: number;
  requestsCut: number;
  exportsFinished: number;
  /** Exports still running at the end of the grace period, cut. */
  exportsCut: number;
}

interface Drain {
  readonly draining: boolean;
  /** Stops taking new requests; in-flight ones go on. */
  start(): void;
  /**
   * Resolves when every request in flight has ended: JSON requests and exports when they
   * finish, or when `graceMs` (from start) has passed, at which point the rest are cut.
   */
  settle(graceMs: number): Promise<DrainOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

interface InFlight {
  request: FastifyRequest;
  reply: FastifyReply;
  closed: Promise<void>;
}

export const drainPlugin = fp(async (app: FastifyInstance) => {
  const inFlight = new Set<InFlight>();
  /** Requests and exports that ended while draining (cut ones included; settle() tells them apart). */
  const finished = { requests: 0, exports: 0 };
  let draining = false;
  let startedAt = 0;

  // Connections accepted before draining started, and whether one of their requests has been
  // taken since: the first request on such a connection was on its way when the signal came
  // (a client cannot know yet), so it is served, with `Connection: close`; anything later,
  // or on a connection accepted later, is a new request.
  const acceptedBefore = new WeakSet<object>();
  const servedSince = new WeakSet<object>();
  app.server.on('connection', (socket) => {
    if (!draining) acceptedBefore.add(socket);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (draining) {
      if (request.url === '/healthz') return;
      const socket = request.raw.socket;
      const inFlightWhenSignalled = acceptedBefore.has(socket) && !servedSince.has(socket);
      servedSince.add(socket);
      if (!inFlightWhenSignalled) {
        reply.header('connection', 'close');
        return sendError(request, reply, 503, 'Stacklens is shutting down; retry (another instance will answer)', { 'retry-after': '5' });
      }
    }
    let entry!: InFlight;
    const closed = new Promise<void>((resolve) =>
      reply.raw.once('close', () => {
        inFlight.delete(entry);
        if (draining) {
          if (isExport(entry)) finished.exports++;
          else if (!isEventStream(entry)) finished.requests++;
        }
        resolve();
      }),
    );
    entry = { request, reply, closed };
    inFlight.add(entry);
  });

  // While draining, every answer closes its connection: no new request can follow on it.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });

  const isExport = (e: InFlight) => e.request.requestClass === 'export';
  // A server-sent-event stream (GET /mcp, GET /api/events/stream) carries no unfinished work:
  // the client reconnects elsewhere (and resumes with Last-Event-ID).
  const isEventStream = (e: InFlight) =>
    e.request.method === 'GET' && (e.request.url.startsWith('/mcp') || e.request.routeOptions.config?.operation?.stream?.media === 'text/event-stream');
  const cut = (e: InFlight) => e.request.raw.socket?.destroy();

  const start = () => {
    if (draining) return;
    draining = true;
    startedAt = Date.now();
    for (const e of inFlight) if (isEventStream(e)) cut(e);
  };
  const drain: Drain = {
    get draining() {
      return draining;
    },
    start,
    async settle(graceMs: number): Promise<DrainOutcome> {
      start();
      let timer: NodeJS.Timeout | undefined;
      let over = false;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(() => resolve(void (over = true)), Math.max(0, startedAt + graceMs - Date.now()))));
      // Requests still arriving on connections accepted before the signal join the set
      // meanwhile: wait until it is empty, not only for the requests seen at the start.
      await new Promise((resolve) => setTimeout(resolve, 50));
      while (inFlight.size > 0 && !over) await Promise.race([Promise.all([...inFlight].map((e) => e.closed)), graceOver]);
      clearTimeout(timer);
      const left = [...inFlight];
      for (const e of left) cut(e);
      await Promise.all(left.map((e) => e.closed));
      const exportsCut = left.filter(isExport).length;
      const requestsCut = left.filter((e) => !isExport(e) && !isEventStream(e)).length;
      return { requestsFinished: finished.requests - requestsCut, requestsCut, exportsFinished: finished.exports - exportsCut, exportsCut };
    },
  };
  app.decorate('drain', drain);
});
