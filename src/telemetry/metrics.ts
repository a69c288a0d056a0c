// Process-wide Prometheus metrics (prom-client), served at /metrics (http/plugins/metrics.ts,
// which adds the gauges read from one app's live objects: pool, bulkheads, MCP sessions).
// The layers below the doors record here with one call each (db/db.ts statement times,
// services/exports.ts rows, auth/ rate-limit refusals, ingest/ import and refresh progress).
//
// No label carries a client id, a key, a URL or any value a caller chooses: routes are
// route patterns, so the series stay few and /metrics says nothing about any one client.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

let defaultsStarted = false;
/** Node's process metrics (CPU, memory, event-loop delay, GC), once per process. */
export function startDefaultMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: registry });
}

export const httpRequestDuration = new Histogram({
  name: 'stacklens_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code: time from arrival to the end of the reply',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const dbQueryDuration = new Histogram({
  name: 'stacklens_db_query_duration_seconds',
  help: 'Database statements by engine and outcome (ok, error): time from sending to the last row',
  labelNames: ['engine', 'outcome'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  registers: [registry],
});

const exportRows = new Counter({
  name: 'stacklens_export_rows_total',
  help: 'Rows sent by exports (CSV, JSON Lines, MCP export results), by audited action; counted when each export ends',
  labelNames: ['action'] as const,
  registers: [registry],
});

const exportsFinished = new Counter({
  name: 'stacklens_exports_total',
  help: 'Exports ended, by action and whether they reached the end (completed=false: client gone or cut at shutdown)',
  labelNames: ['action', 'completed'] as const,
  registers: [registry],
});

export const mcpSessionsOpened = new Counter({
  name: 'stacklens_mcp_sessions_opened_total',
  help: 'MCP (Streamable HTTP) sessions this process opened (sessions live in the shared store; every instance counts its own)',
  registers: [registry],
});

export const mcpSessionsEnded = new Counter({
  name: 'stacklens_mcp_sessions_ended_total',
  help: "MCP sessions this process ended at the client's DELETE (idle ones expire in the shared store, uncounted)",
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'stacklens_rate_limit_rejections_total',
  help: 'Calls refused with 429, by exhausted policy: default, ai, export (plan quotas, REST and MCP), token_failures (token-endpoint throttle), console_login_failures (console sign-in throttle), auth_failures (failed authentications per address) or store_full (no room for new rate-limit counters)',
  labelNames: ['policy'] as const,
  registers: [registry],
});

export const requestsRefused = new Counter({
  name: 'stacklens_requests_refused_total',
  help: 'Requests refused at once to protect the service, by reason: client_concurrency and address_concurrency (429: too many in flight for one caller, or one address without a caller), bulkhead_caller_share (429: the caller holds its share of a bulkhead), bulkhead_full and bulkhead_timeout (503), overload_event_loop, overload_db_queue and overload_memory (503: shedding)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const exportsCut = new Counter({
  name: 'stacklens_exports_cut_total',
  help: 'Streamed exports the server cut, by reason: slow_reader (under EXPORT_MIN_BYTES_PER_SECOND while the reader held the stream up), max_duration (past EXPORT_MAX_SECONDS)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

const importsRunning = new Gauge({
  name: 'stacklens_import_running',
  help: 'Imports in progress in this process, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const importRowsRead = new Gauge({
  name: 'stacklens_import_rows_read',
  help: 'Rows read so far by the import in progress (the last import when none is running), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const importBytesRatio = new Gauge({
  name: 'stacklens_import_progress_ratio',
  help: 'Share of the input file read by the import in progress, 0-1 (1 when done), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const importsFinished = new Counter({
  name: 'stacklens_imports_total',
  help: 'Imports ended, by kind and outcome: committed, rejected (bad rows, rolled back) or failed',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

const refreshRunning = new Gauge({
  name: 'stacklens_refresh_running',
  help: 'Refresh jobs (cohorts, competitors, co-usage) in progress in this process',
  registers: [registry],
});

const refreshProgress = new Gauge({
  name: 'stacklens_refresh_progress_ratio',
  help: 'Progress of the running refresh job within its phase (load, cohorts, cousage), 0-1',
  labelNames: ['phase'] as const,
  registers: [registry],
});

const refreshesFinished = new Counter({
  name: 'stacklens_refresh_runs_total',
  help: 'Refresh jobs ended, by kind (full, incremental) and outcome (ok, failed)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

const refreshLastSuccess = new Gauge({
  name: 'stacklens_refresh_last_success_timestamp_seconds',
  help: 'Unix time the last successful refresh job in this process ended',
  registers: [registry],
});

/** One statement's time (db/db.ts). */
export function observeStatement(engine: string, ok: boolean, seconds: number): void {
  dbQueryDuration.observe({ engine, outcome: ok ? 'ok' : 'error' }, seconds);
}

/** One export's end (services/exports.ts). */
export function observeExport(action: string, rows: number, completed: boolean): void {
  exportRows.inc({ action }, rows);
  exportsFinished.inc({ action, completed: String(completed) });
}

/** Progress reports of one import (ingest/import), as the importer sends them. */
export function importObserver(kind: string): {
  progress(p: { phase: string; rowsRead: number; bytesRead: number; totalBytes?: number }): void;
  end(outcome: 'committed' | 'rejected' | 'failed'): void;
} {
  importsRunning.inc({ kind });
  importRowsRead.set({ kind }, 0);
  importBytesRatio.set({ kind }, 0);
  let ended = false;
  return {
    progress(p) {
      importRowsRead.set({ kind }, p.rowsRead);
      if (p.totalBytes) importBytesRatio.set({ kind }, Math.min(1, p.bytesRead / p.totalBytes));
    },
    end(outcome) {
      if (ended) return;
      ended = true;
      importsRunning.dec({ kind });
      if (outcome === 'committed') importBytesRatio.set({ kind }, 1);
      importsFinished.inc({ kind, outcome });
    },
  };
}

/** Progress reports of one refresh job (ingest/refresh.ts). */
export function refreshObserver(kind: string): { progress(p: { phase: string; done: number; total: number }): void; end(ok: boolean): void } {
  refreshRunning.inc();
  let ended = false;
  return {
    progress(p) {
      refreshProgress.set({ phase: p.phase }, p.total > 0 ? p.done / p.total : 1);
    },
    end(ok) {
      if (ended) return;
      ended = true;
      refreshRunning.dec();
      refreshesFinished.inc({ kind, outcome: ok ? 'ok' : 'failed' });
      if (ok) refreshLastSuccess.set(Date.now() / 1000);
    },
  };
}
