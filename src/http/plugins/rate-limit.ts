// Rate-limit hook for any authenticated scope: runs after the auth hook, keys on the
// authenticated client, puts RateLimit/RateLimit-Policy headers on every response and
// answers 429 + Retry-After when a quota is spent. Which quota a request spends besides
// the general one (ai, export) comes from the route's operation record.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enforceRateLimit } from '../../auth/rate-limit.ts';
import type { RateClass } from '../../schemas/plans.ts';
import { rateClassFor } from '../../schemas/operation.ts';
import { principalOf } from './auth.ts';

/** The record's rate class; a `when` flag is read from the raw query (the body is not parsed yet). */
export function rateClassOf(request: FastifyRequest): RateClass {
  const op = request.routeOptions.config?.operation;
  return op ? rateClassFor(op, request.query as Record<string, unknown> | undefined) : 'default';
}

/** Adds the limiter to the calling scope; register after addAuthHook. */
export function addRateLimitHook(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    await enforceRateLimit(app.counters, principalOf(request), rateClassOf(request), (name, value) => reply.header(name, value));
  });
}
