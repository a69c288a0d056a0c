// Load shedding ahead of everything else. Two guards:
// - per client address, a cap on open connections: one more is closed as it arrives,
//   before a byte of it is parsed, so one client's flood of connections cannot take the
//   server's sockets and event loop from the others (the listen backlog, set where the
//   server listens, keeps the kernel from dropping theirs meanwhile);
// - @fastify/under-pressure: when the event loop's mean delay or the number of statements
//   waiting for a database connection passes its threshold, API and MCP calls get a 503
//   with Retry-After in the service's error shape at once, before authentication or
//   parsing, so the rejection stays cheap and the work already admitted can finish.
// The probes /healthz and /readyz are never shed; nor is the token endpoint, which answers
// in OAuth terms and is throttled on its own (failed attempts per client_id).
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import { sendError } from './errors.ts';

/** Paths that are shed under pressure: the API and MCP, not the probes, the token endpoint nor the docs. */
const SHED = /^\/(api|mcp)(\/|\?|$)/;

const REASON: Record<string, string> = {
  eventLoopDelay: 'the server is overloaded (event-loop delay above its limit)',
  eventLoopUtilization: 'the server is overloaded (event loop saturated)',
  healthCheck: 'the database queue is full (statements waiting for a connection above the limit)',
  heapUsedBytes: 'the server is short of memory',
  rssBytes: 'the server is short of memory',
};

export const overloadPlugin = fp(async (app: FastifyInstance) => {
  const { maxEventLoopDelayMs, maxDbWaiting, retryAfterSeconds, maxConnectionsPerIp } = app.config.overload;
  if (maxConnectionsPerIp > 0) limitConnectionsPerAddress(app, maxConnectionsPerIp);

  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    // Sampled twice a second: the delay is a mean over the interval, the queue a snapshot.
    sampleInterval: 500,
    ...(maxDbWaiting > 0
      ? { healthCheck: async () => app.db.pool.waitingCount <= maxDbWaiting, healthCheckInterval: 100 }
      : {}),
    pressureHandler: (request: FastifyRequest, reply: FastifyReply, type: string) => {
      // Returning nothing lets the request through (the probes, the docs). After a reply is
      // sent, the returned promise ends the hook and Fastify runs nothing more for it.
      if (!SHED.test(request.url)) return undefined;
      request.errorCode = 'unavailable';
      const message = `Service Unavailable: ${REASON[type] ?? 'the server is overloaded'}; retry after ${retryAfterSeconds} s`;
      sendError(request, reply, 503, message, { 'retry-after': String(retryAfterSeconds) });
      return Promise.resolve();
    },
  });
});

/**
 * Counts open connections per remote address; one past the limit is destroyed as it arrives.
 * Prepended, so it runs before the HTTP server sets up a parser for the socket.
 */
function limitConnectionsPerAddress(app: FastifyInstance, limit: number): void {
  const open = new Map<string, number>();
  app.server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
