// The database time limits of each request, by request class (docs/operations.md "Database faults"):
// light reads share DATABASE_READ_TIMEOUT_MS (2 s) for all their database work; operations
// with a bulkhead of their own (searches, many-peer comparisons, AI helpers: the operation
// record's bulkhead) and MCP calls DATABASE_SEARCH_TIMEOUT_MS (5 s); and
// exports (CSV/JSONL streams), which may run for minutes, DATABASE_EXPORT_IDLE_TIMEOUT_MS
// per statement. A client that disconnects aborts the request's signal: its waiting or
// running statement is given up and cancelled (db/db.ts). The limits travel with the
// request's async context (db/query-limits.ts), so services pass nothing along.
import type { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { enterQueryLimits, type QueryLimits } from '../../db/query-limits.ts';
import { bulkheadFor, flagSet, type Operation } from '../../schemas/operation.ts';
import type { Config } from '../../config.ts';

type RequestClass = 'light' | 'search' | 'export';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request class its database limits come from. */
    requestClass?: RequestClass;
  }
}

const contextOf = new WeakMap<FastifyRequest, AsyncResource>();

/** The class of a request, from the operation record of its route and its query (export=true). */
export function requestClassOf(op: Operation | undefined, query: unknown, url: string): RequestClass {
  if (!op) return url.startsWith('/mcp') ? 'search' : 'light';
  const args = (query ?? {}) as Record<string, unknown>;
  if (op.stream && (op.stream.when === undefined || flagSet(args[op.stream.when]))) return 'export';
  // One record field decides both: an operation with a bulkhead of its own (search, peers,
  // ai; bulkheadFor) is heavy enough for the search limit, the rest are light reads.
  return bulkheadFor(op, args) === 'standard' ? 'light' : 'search';
}

function limitsFor(kind: RequestClass, timeouts: Config['databaseTimeouts'], startedAt: number, signal?: AbortSignal): QueryLimits {
  if (kind === 'export') return { statementMs: timeouts.exportIdleMs, signal, label: `each statement of an export (${timeouts.exportIdleMs} ms)` };
  const ms = kind === 'search' ? timeouts.searchMs : timeouts.readMs;
  return { deadline: startedAt + ms, signal, label: `${kind === 'search' ? 'search' : 'light read'} requests (${ms} ms)` };
}

export const queryLimitsPlugin = fp(async (app: FastifyInstance) => {
  const timeouts = app.config.databaseTimeouts;
  app.addHook('onRequest', (request, reply, done) => {
    const controller = new AbortController();
    // 'close' before 'finish' (the whole response handed to the system): the client went away.
    let finished = false;
    reply.raw.once('finish', () => (finished = true));
    reply.raw.once('close', () => {
      if (!finished) controller.abort();
    });
    const kind = requestClassOf(request.routeOptions.config?.operation, request.query, request.url);
    request.requestClass = kind;
    contextOf.set(request, enterQueryLimits(limitsFor(kind, timeouts, Date.now(), controller.signal), done));
  });
  // Body parsing runs on stream events, outside the onRequest context: enter it again.
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = contextOf.get(request);
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
});
