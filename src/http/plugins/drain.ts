// Graceful shutdown of the HTTP side (README "Shutdown"): once draining starts, every new
// request but /healthz gets a 503 with Retry-After and `Connection: close` (so /readyz turns
// 503 at once and a load balancer moves on), while the requests already in flight go on.
// JSON requests finish with their whole body; exports (CSV/JSONL streams) get a grace
// period, after which the ones still running are cut by destroying their connection: a
// chunked reply then lacks its terminating chunk, so the client sees an error, never a
// silently short file, and the export's audit row says completed=false
// (services/exports.ts). The listening socket stays open until the end, so connections
// that arrive meanwhile get the 503 instead of a reset.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.ts';

export interface DrainOutcome {
  /** Requests (not exports) that were in flight when draining started and finished. */
  requestsFinished: number;
  exportsFinished: number;
  /** Exports still running at the end of the grace period, cut. */
  exportsCut: number;
}

export interface Drain {
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
  let draining = false;
  let startedAt = 0;

  app.addHook('onRequest', async (request, reply) => {
    if (draining) {
      if (request.url === '/healthz') return;
      reply.header('connection', 'close');
      return sendError(request, reply, 503, 'Stacklens is shutting down; retry (another instance will answer)', { 'retry-after': '5' });
    }
    let entry!: InFlight;
    const closed = new Promise<void>((resolve) => reply.raw.once('close', () => {
      inFlight.delete(entry);
      resolve();
    }));
    entry = { request, reply, closed };
    inFlight.add(entry);
  });

  // While draining, every answer closes its connection: no new request can follow on it.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });

  const isExport = (e: InFlight) => e.request.requestClass === 'export';
  // An MCP server-sent-event stream (GET /mcp) carries no unfinished work: the client reconnects elsewhere.
  const isEventStream = (e: InFlight) => e.request.method === 'GET' && e.request.url.startsWith('/mcp');
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
      const entries = [...inFlight];
      const exportCount = entries.filter(isExport).length;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, startedAt + graceMs - Date.now()))));
      await Promise.race([Promise.all(entries.map((e) => e.closed)), graceOver]);
      clearTimeout(timer);
      const left = entries.filter((e) => inFlight.has(e));
      for (const e of left) cut(e);
      await Promise.all(left.map((e) => e.closed));
      const exportsCut = left.filter(isExport).length;
      return {
        requestsFinished: entries.length - exportCount - (left.length - exportsCut),
        exportsFinished: exportCount - exportsCut,
        exportsCut,
      };
    },
  };
  app.decorate('drain', drain);
});
