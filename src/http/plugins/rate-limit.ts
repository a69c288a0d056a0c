// Rate-limit hook for any authenticated scope: runs after the auth hook, keys on the
// authenticated client, puts RateLimit/RateLimit-Policy headers on every response and
// answers 429 + Retry-After when a quota is spent. Which quota a request spends besides
// the general one (ai, export) comes from the route's operation record.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enforceRateLimit } from '../../auth/rate-limit.ts';
import { RateLimitedError } from '../../errors.ts';
import type { RateClass } from '../../schemas/plans.ts';
import { rateClassFor } from '../../schemas/operation.ts';
import { principalOf } from './auth.ts';

/** The record's rate class; a `when` flag is read from the raw query (the body is not parsed yet). */
function rateClassOf(request: FastifyRequest): RateClass {
  const op = request.routeOptions.config?.operation;
  return op ? rateClassFor(op, request.query as Record<string, unknown> | undefined) : 'default';
}

/**
 * Adds the limiter to the calling scope; register after addAuthHook.
 *
 * A refusal is held back `overload.rateLimitedReplyDelayMs` before it is sent. A client
 * that honours Retry-After loses nothing (it waits longer than that anyway); a client
 * that ignores it and retries at once on the same connections is slowed to a few
 * requests per second per connection instead of thousands of cheap 429s, which would
 * otherwise take the event loop from every other client. A held request costs a timer.
 */
export function addRateLimitHook(app: FastifyInstance): void {
  const delayMs = app.config.overload.rateLimitedReplyDelayMs;
  app.addHook('onRequest', async (request, reply) => {
    try {
      await enforceRateLimit(app.counters, principalOf(request), rateClassOf(request), (name, value) => reply.header(name, value));
    } catch (err) {
      if (err instanceof RateLimitedError && delayMs > 0) await sleep(delayMs);
      throw err;
    }
  });
}
