// Liveness and readiness probes, outside /api and without authentication. Neither is ever
// shed nor queued (http/plugins/overload.ts, bulkhead.ts): /healthz touches nothing, and
// /readyz does not wait for a database connection when every one is busy answering.
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../store/health.ts';
import { sendError } from '../plugins/errors.ts';
import { VERSION } from '../../version.ts';
import { AppError } from '../../errors.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', version: VERSION }));

  // Not ready while starting, shutting down, or while the database does not answer: a load
  // balancer stops sending traffic. The database's state changes are logged once each
  // (plugins/database-state.ts), not per probe.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    if (app.drain.draining) return sendError(request, reply, 503, 'Stacklens is shutting down', { 'retry-after': '5' });
    if (!app.readiness.ready) return sendError(request, reply, 503, app.readiness.message, { 'retry-after': '5' });
    // Every connection busy running statements (the embedded database has one) while the
    // database is known to answer: it is serving others, and a ping would only queue behind
    // them. Not while it is down or frozen: busy connections are then stuck ones.
    const { pool } = app.db;
    if (app.db.availability.up && pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? Infinity)) return { status: 'ready', database: app.db.engine };
    try {
      await pingDatabase(app.db);
      return { status: 'ready', database: app.db.engine };
    } catch (err) {
      const retryAfter = err instanceof AppError ? (err.headers['retry-after'] ?? '5') : '5';
      return sendError(request, reply, 503, 'Database is not answering', { 'retry-after': retryAfter });
    }
  });
}
