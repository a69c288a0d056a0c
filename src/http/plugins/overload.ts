// Load shedding ahead of everything else. Two guards:
// - per client address, a cap on connections served at once: more are parked unread until
//   one of that address's connections closes (or closed, past a bound), so one client's
//   flood of connections holds up that client, not the event loop the others need (the
//   listen backlog, set where the server listens, keeps the kernel from dropping theirs);
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

/** How often the event-loop delay is sampled (a mean over the interval). */
const SAMPLE_INTERVAL_MS = 500;

export const overloadPlugin = fp(async (app: FastifyInstance) => {
  const { maxEventLoopDelayMs, maxDbWaiting, retryAfterSeconds, maxConnectionsPerIp } = app.config.overload;
  if (maxConnectionsPerIp > 0) limitConnectionsPerAddress(app, maxConnectionsPerIp);

  // The first samples after start cover the start itself (schemas compiled, routes
  // registered: seconds of a blocked loop), not load: delay counts from two intervals after ready.
  let delayCountsFrom = Infinity;
  app.addHook('onReady', async () => {
    delayCountsFrom = performance.now() + 2 * SAMPLE_INTERVAL_MS;
  });

  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: SAMPLE_INTERVAL_MS,
    ...(maxDbWaiting > 0
      ? { healthCheck: async () => app.db.pool.waitingCount <= maxDbWaiting, healthCheckInterval: 100 }
      : {}),
    pressureHandler: (request: FastifyRequest, reply: FastifyReply, type: string) => {
      // Returning nothing lets the request through (the probes, the docs). After a reply is
      // sent, the returned promise ends the hook and Fastify runs nothing more for it.
      if (!SHED.test(request.url)) return undefined;
      if (type === 'eventLoopDelay' && performance.now() < delayCountsFrom) return undefined;
      request.errorCode = 'unavailable';
      const message = `Service Unavailable: ${REASON[type] ?? 'the server is overloaded'}; retry after ${retryAfterSeconds} s`;
      sendError(request, reply, 503, message, { 'retry-after': String(retryAfterSeconds) });
      return Promise.resolve();
    },
  });
});

/**
 * Connections of one address that may wait, parked, for one of its slots; more are closed.
 * Large, because a closed connection comes back (a flooding client reconnects at once) and
 * each return costs an accept and a close, where a parked one costs nothing until served.
 */
const MAX_PARKED_PER_ADDRESS = 1024;
/** A parked connection not served within this time is closed. */
const PARK_TIMEOUT_MS = 30_000;

/**
 * Serves at most `limit` connections per remote address at a time. The server accepts every
 * connection paused; one past the limit is parked, unread, until one of its address's
 * connections closes (then it is served in arrival order), and closed if it waits longer
 * than PARK_TIMEOUT_MS or more than MAX_PARKED_PER_ADDRESS are waiting. A parked socket
 * costs memory only: no read, no parse, no reconnect churn, so a flood of connections from
 * one address holds that address up, not the event loop every other client needs.
 */
function limitConnectionsPerAddress(app: FastifyInstance, limit: number): void {
  const server = app.server;
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  // Accepted sockets start unread; the HTTP server gets them (and reads) only when served.
  (server as typeof server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  const open = new Map<string, number>();
  const parked = new Map<string, Socket[]>();

  const serveSocket = (socket: Socket, address: string) => {
    open.set(address, (open.get(address) ?? 0) + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      const waiting = parked.get(address);
      const next = waiting?.shift();
      if (waiting?.length === 0) parked.delete(address);
      if (next) {
        next.setTimeout(0);
        serveSocket(next, address);
      }
    });
    for (const listener of httpListeners) listener.call(server, socket);
    socket.resume();
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if ((open.get(address) ?? 0) < limit) return serveSocket(socket, address);
    const waiting = parked.get(address) ?? [];
    if (waiting.length >= MAX_PARKED_PER_ADDRESS) {
      socket.destroy();
      return;
    }
    waiting.push(socket);
    parked.set(address, waiting);
    const leave = () => {
      const at = waiting.indexOf(socket);
      if (at >= 0) waiting.splice(at, 1);
      if (waiting.length === 0 && parked.get(address) === waiting) parked.delete(address);
    };
    socket.once('close', leave);
    socket.on('error', () => {}); // a parked socket reset by its client: nothing to do but forget it
    socket.setTimeout(PARK_TIMEOUT_MS, () => socket.destroy());
  });
  app.addHook('onClose', async () => {
    for (const waiting of parked.values()) for (const socket of waiting) socket.destroy();
    parked.clear();
  });
}
