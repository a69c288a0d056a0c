// Load shedding ahead of everything else. Two guards, both answering at once (a refused
// request never waits unanswered), counted in /metrics (stacklens_requests_refused_total)
// and logged (the request's line at warn, with `refused`):
// - requests in flight per caller (http/in-flight.ts): past MAX_CONCURRENT_REQUESTS_PER_CLIENT
//   for an authenticated caller, or MAX_CONCURRENT_REQUESTS_PER_IP for a request with no
//   caller (per client address, request.ip), a request is a 429 with Retry-After. Counted
//   after authentication and before the body is read; /mcp, which authenticates in its
//   handler, admits its caller there (app.admitCaller);
// - @fastify/under-pressure: when the event loop's mean delay or the number of statements
//   waiting for a database connection passes its threshold, API and MCP calls get a 503
//   with Retry-After in the service's error shape at once, before authentication or
//   parsing, so the rejection stays cheap and the work already admitted can finish.
// The probes /healthz and /readyz (and /metrics) are never refused by either; nor is the
// token endpoint shed, which answers in OAuth terms and is throttled on its own.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import { sendError } from './errors.ts';
import { RateLimitedError } from '../../errors.ts';
import { requestsRefused } from '../../telemetry/metrics.ts';
import type { Principal } from '../../auth/principal.ts';
import { addressKey, InFlight } from '../in-flight.ts';
import { callerKey } from '../../auth/caller-key.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts the request against its caller's share of requests in flight (its address's,
     * without a caller) until the response closes; a request past the share is refused with
     * a 429 (thrown). Every request passes here once, before its body is read.
     */
    admitCaller(request: FastifyRequest, reply: FastifyReply, principal: Principal | undefined): Promise<void>;
  }
  interface FastifyRequest {
    /** Why the request was refused to protect the service (a reason of stacklens_requests_refused_total); logged with it. */
    refusal?: string;
  }
  interface FastifyContextConfig {
    /** The route admits its caller itself, once it has authenticated it in its handler (/mcp). */
    admitsCallerItself?: boolean;
  }
}

/** Paths that are shed under pressure: the API and MCP, not the probes, the token endpoint nor the docs. */
const SHED = /^\/(api|mcp)(\/|\?|$)/;

/** Never refused by the limits here: the probes, and /metrics (loopback or its own token). */
const ALWAYS_ANSWERED = /^\/(healthz|readyz|metrics)(\?|$)/;

/** Retry-After of a refusal for too many requests in flight: one of them is likely done by then. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

const REFUSAL: Record<string, string> = {
  eventLoopDelay: 'overload_event_loop',
  eventLoopUtilization: 'overload_event_loop',
  healthCheck: 'overload_db_queue',
  heapUsedBytes: 'overload_memory',
  rssBytes: 'overload_memory',
};

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
  const { maxEventLoopDelayMs, maxDbWaiting, retryAfterSeconds } = app.config.overload;
  limitRequestsInFlight(app);

  // The first samples after start cover the start itself (schemas compiled, routes
  // registered: seconds of a blocked loop), not load: delay counts from two intervals after ready.
  let delayCountsFrom = Infinity;
  app.addHook('onReady', async () => {
    delayCountsFrom = performance.now() + 2 * SAMPLE_INTERVAL_MS;
  });

  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: SAMPLE_INTERVAL_MS,
    ...(maxDbWaiting > 0 ? { healthCheck: async () => app.db.pool.waitingCount <= maxDbWaiting, healthCheckInterval: 100 } : {}),
    pressureHandler: (request: FastifyRequest, reply: FastifyReply, type: string) => {
      // Returning nothing lets the request through (the probes, the docs). After a reply is
      // sent, the returned promise ends the hook and Fastify runs nothing more for it.
      if (!SHED.test(request.url)) return undefined;
      if (type === 'eventLoopDelay' && performance.now() < delayCountsFrom) return undefined;
      request.errorCode = 'unavailable';
      request.refusal = REFUSAL[type] ?? 'overload_event_loop';
      requestsRefused.inc({ reason: request.refusal });
      const message = `Service Unavailable: ${REASON[type] ?? 'the server is overloaded'}; retry after ${retryAfterSeconds} s`;
      sendError(request, reply, 503, message, { 'retry-after': String(retryAfterSeconds) });
      return Promise.resolve();
    },
  });
});

/**
 * Requests in flight per caller (per address without one). A request over its share is
 * answered 429 + Retry-After, held back RATE_LIMITED_REPLY_DELAY_MS like a quota refusal: a
 * client that retries at once on every connection then costs a timer per refusal instead of
 * the event loop. Its connection is kept, so its next request (or a probe) is served.
 */
function limitRequestsInFlight(app: FastifyInstance): void {
  const { maxConcurrentPerClient, maxConcurrentPerIp, rateLimitedReplyDelayMs } = app.config.overload;
  const inFlight = new InFlight();
  app.decorate('admitCaller', async (request: FastifyRequest, reply: FastifyReply, principal: Principal | undefined) => {
    const limit = principal ? maxConcurrentPerClient : maxConcurrentPerIp;
    if (limit === 0) return;
    const leave = inFlight.enter(principal ? callerKey(principal) : addressKey(request.ip), limit);
    if (leave) {
      // 'close': the response was written in full, or the client went away.
      if (reply.raw.closed || reply.raw.destroyed) leave();
      else reply.raw.once('close', leave);
      return;
    }
    request.refusal = principal ? 'client_concurrency' : 'address_concurrency';
    requestsRefused.inc({ reason: request.refusal });
    if (rateLimitedReplyDelayMs > 0) await sleep(rateLimitedReplyDelayMs);
    const who = principal ? 'this client has' : 'this address has (no credentials sent)';
    const setting = principal ? 'MAX_CONCURRENT_REQUESTS_PER_CLIENT' : 'MAX_CONCURRENT_REQUESTS_PER_IP';
    throw new RateLimitedError(
      `Too many requests in flight: ${who} ${limit} requests running, the most served at once (${setting}); retry after ${IN_FLIGHT_RETRY_AFTER_SECONDS} s`,
      IN_FLIGHT_RETRY_AFTER_SECONDS,
    );
  });
  // After authentication (the onRequest hooks, the /api scope's among them), before the body is read.
  app.addHook('preParsing', async (request, reply, payload) => {
    if (ALWAYS_ANSWERED.test(request.url) || request.routeOptions.config?.admitsCallerItself) return payload;
    await app.admitCaller(request, reply, request.principal);
    return payload;
  });
}
