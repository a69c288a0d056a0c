// The limits the database work of one request runs under: a deadline for the whole request
// (light reads, searches) or a limit per statement (exports, which may run long but must
// keep moving), and a signal that fires when the client goes away. The HTTP door sets them
// per request (http/plugins/query-limits.ts); db.ts reads them on every statement, so
// services and store functions pass nothing along. Work outside a request (CLI, import,
// refresh, the demo-world seed) runs without limits, as before.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

export interface QueryLimits {
  /** Epoch ms by which every statement of the request (connection wait included) must be done. */
  deadline?: number;
  /** Longest any one statement (connection wait included) may take; exports use this instead of a deadline. */
  statementMs?: number;
  /** Aborted when the client disconnects: the waiting or running statement is given up (and cancelled). */
  signal?: AbortSignal;
  /** How the limit is named in a 503's message, e.g. "search requests (5000 ms)". */
  label?: string;
}

const storage = new AsyncLocalStorage<QueryLimits>();

/** The limits of the request this code runs for, if any. */
export function currentQueryLimits(): QueryLimits | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts) under `limits`. */
export function withQueryLimits<T>(limits: QueryLimits, fn: () => T): T {
  return storage.run(limits, fn);
}

/**
 * Enters `limits` for a callback-style continuation (a Fastify hook's `done`) and returns
 * an AsyncResource that re-enters the same context later: Fastify parses bodies from
 * stream events, which run outside the hook's context, so the next hook re-enters it.
 */
export function enterQueryLimits(limits: QueryLimits, done: () => void): AsyncResource {
  return storage.run(limits, () => {
    const resource = new AsyncResource('stacklens-query-limits');
    resource.runInAsyncScope(done);
    return resource;
  });
}

/** When the next statement must be done by (epoch ms), or undefined for no limit. */
export function statementEnd(limits: QueryLimits | undefined, startedAt: number): number | undefined {
  if (!limits) return undefined;
  const perStatement = limits.statementMs === undefined ? Infinity : startedAt + limits.statementMs;
  const end = Math.min(limits.deadline ?? Infinity, perStatement);
  return Number.isFinite(end) ? end : undefined;
}

/**
 * Runs `fn` under the current limits but deaf to the client's disconnect: for work that must
 * happen because the client went away (the audit entry of an export it abandoned).
 */
export function despiteDisconnect<T>(fn: () => T): T {
  const limits = storage.getStore();
  if (!limits?.signal) return fn();
  const { signal: _signal, ...rest } = limits;
  return storage.run(rest, fn);
}

/** Runs `fn` outside any request's limits: background work a request merely triggered. */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}
