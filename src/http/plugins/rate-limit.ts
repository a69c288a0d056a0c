// Rate-limit hook for any authenticated scope (/api here; /mcp can add it the same way):
// runs after the auth hook, keys on the authenticated client, puts RateLimit/
// RateLimit-Policy headers on every response and answers 429 + Retry-After when a
// quota is spent. The class of a request (default | ai | export) comes from the route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enforceRateLimit, type RateClass } from '../../auth/rate-limit.ts';
import { principalOf } from './auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Which quota EVERY request of this route spends besides the general one: 'ai' or
     * 'export' (e.g. a CSV/JSONL-only route). A function decides per request (e.g. an
     * Accept: text/csv variant of a JSON route). Routes that export only with
     * `?export=true` need nothing: that query is detected here.
     */
    rateClass?: RateClass | ((request: FastifyRequest) => RateClass);
  }
}

const TRUE = new Set(['true', '1']);

/** Route config first; then AI routes (…/api/ai/…) and `export=true` requests. */
export function rateClassOf(request: FastifyRequest): RateClass {
  const configured = request.routeOptions.config?.rateClass;
  if (typeof configured === 'function') return configured(request);
  if (configured) return configured;
  const route = request.routeOptions.url ?? request.url.split('?', 1)[0]!;
  if (/\/api\/ai(\/|$)/.test(route)) return 'ai';
  const exportParam = (request.query as Record<string, unknown> | undefined)?.export;
  if (typeof exportParam === 'string' && TRUE.has(exportParam.trim().toLowerCase())) return 'export';
  return 'default';
}

/** Adds the limiter to the calling scope; register after addAuthHook. */
export function addRateLimitHook(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    await enforceRateLimit(app.counters, principalOf(request), rateClassOf(request), (name, value) => reply.header(name, value));
  });
}
