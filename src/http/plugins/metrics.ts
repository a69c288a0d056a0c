// GET /metrics in the Prometheus text format, and the request-duration histogram behind it.
// The process-wide metrics live in telemetry/metrics.ts; the gauges here read one app's
// live objects when scraped: the database pool, the embedded database's queue, the
// bulkheads. (MCP sessions live in a shared store; mcp/http-sessions.ts counts those this process
// opens and ends, in telemetry/metrics.ts.)
//
// Who may read it (docs/operations.md "Monitor"): with METRICS_TOKEN set, any address that
// sends `Authorization: Bearer <METRICS_TOKEN>`; without it, only a loopback caller
// (request.ip: behind a TRUST_PROXY proxy, the client X-Forwarded-For names). A request
// carrying a proxy header nobody vouches for (Forwarded, X-Real-IP; X-Forwarded-For without
// TRUST_PROXY) is never local, since a reverse proxy on the same host would make every public
// request look local. No series carries a
// client id, key or URL, so even a reader learns nothing about any one client.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Registry } from 'prom-client';
import { BULKHEADS } from '../../bulkhead.ts';
import { httpRequestDuration, registry as processRegistry, startDefaultMetrics } from '../../telemetry/metrics.ts';
import { VERSION } from '../../version.ts';
import { sendError } from './errors.ts';

/** The route label of requests no route matched (404s, 405s): one series, whatever the URL. */
const UNMATCHED_ROUTE = '(unmatched)';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
/** Proxy headers the service does not read: their presence means a proxy forwarded the request. */
const UNREAD_PROXY_HEADERS = ['forwarded', 'x-real-ip'];

export const metricsPlugin = fp(async (app: FastifyInstance) => {
  startDefaultMetrics();
  const { db, bulkheads, config } = app;
  const appRegistry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[], collect: (g: Gauge) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [appRegistry],
      collect() {
        collect(this);
      },
    });

  gauge('stacklens_info', 'Always 1; the labels say which version, database engine and mode this process runs', ['version', 'engine', 'mode'], (g) =>
    g.set({ version: VERSION, engine: db.engine, mode: config.mode }, 1),
  );
  gauge('stacklens_db_pool_connections', 'Database connections of the pool by state: total (open) and idle', ['state'], (g) => {
    g.set({ state: 'total' }, db.pool.totalCount);
    g.set({ state: 'idle' }, db.pool.idleCount);
  });
  gauge('stacklens_db_pool_max_connections', 'Most connections the pool opens (DATABASE_POOL_SIZE; 1 on the embedded database)', [], (g) =>
    g.set(db.pool.options.max ?? 0),
  );
  gauge('stacklens_db_pool_waiting', 'Statements (callers) waiting for a free pooled connection', [], (g) => g.set(db.pool.waitingCount));
  gauge('stacklens_db_up', '1 while the database answers, 0 while statements fail because it refuses or does not answer', [], (g) =>
    g.set(db.availability.up ? 1 : 0),
  );
  if (db.read !== db) {
    // DATABASE_READ_URL: the replica's own pool and availability (db/db.ts `db.read`).
    const replica = db.read;
    gauge('stacklens_db_replica_pool_connections', 'Connections of the read replica pool by state: total (open) and idle', ['state'], (g) => {
      g.set({ state: 'total' }, replica.pool.totalCount);
      g.set({ state: 'idle' }, replica.pool.idleCount);
    });
    gauge('stacklens_db_replica_pool_waiting', 'Statements waiting for a free connection to the read replica', [], (g) => g.set(replica.pool.waitingCount));
    gauge('stacklens_db_replica_up', '1 while the read replica answers, 0 while statements fail because it refuses or does not answer', [], (g) =>
      g.set(replica.availability.up ? 1 : 0),
    );
  }
  if (db.engine === 'pglite') {
    gauge('stacklens_embedded_db_queue_depth', "Statements waiting for the embedded database's one connection (its queue)", [], (g) =>
      g.set(db.pool.waitingCount),
    );
    gauge('stacklens_embedded_db_worker_pending', 'Wire-protocol batches sent to the embedded database worker and not answered yet', [], (g) =>
      g.set(db.embeddedPendingCalls?.() ?? 0),
    );
  }
  gauge('stacklens_bulkhead_active', 'Calls running in each bulkhead', ['bulkhead'], (g) => {
    for (const name of BULKHEADS) g.set({ bulkhead: name }, bulkheads.get(name).active);
  });
  gauge('stacklens_bulkhead_queued', 'Calls waiting for a slot in each bulkhead', ['bulkhead'], (g) => {
    for (const name of BULKHEADS) g.set({ bulkhead: name }, bulkheads.get(name).queued);
  });
  const scraped = Registry.merge([processRegistry, appRegistry]);

  app.addHook('onResponse', async (request, reply) => {
    httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const tokenDigest = config.metricsToken ? digest(config.metricsToken) : undefined;
  // Without trusted proxies X-Forwarded-For is not read, so it too marks a forwarded request.
  const proxyHeaders = config.trustProxy.length > 0 ? UNREAD_PROXY_HEADERS : [...UNREAD_PROXY_HEADERS, 'x-forwarded-for'];
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const refusal = refuse(request, tokenDigest, proxyHeaders);
    if (refusal) {
      request.errorCode = refusal.status === 401 ? 'unauthorized' : 'forbidden';
      return sendError(request, reply, refusal.status, refusal.message, refusal.status === 401 ? { 'www-authenticate': 'Bearer realm="metrics"' } : {});
    }
    reply.header('cache-control', 'no-store').type(scraped.contentType);
    return scraped.metrics();
  });
});

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function refuse(request: FastifyRequest, tokenDigest: Buffer | undefined, proxyHeaders: string[]): { status: 401 | 403; message: string } | undefined {
  if (tokenDigest) {
    const header = request.headers.authorization;
    const sent = typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : undefined;
    if (sent !== undefined && timingSafeEqual(digest(sent), tokenDigest)) return undefined;
    return { status: 401, message: '/metrics needs Authorization: Bearer <METRICS_TOKEN>' };
  }
  const local = LOOPBACK.test(request.ip) && !proxyHeaders.some((h) => request.headers[h] !== undefined);
  if (local) return undefined;
  return { status: 403, message: '/metrics answers loopback callers only; set METRICS_TOKEN to scrape it from another address with a bearer token' };
}
