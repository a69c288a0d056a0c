// Liveness and readiness probes, outside /api and without authentication. Neither is ever
// shed nor queued (http/plugins/overload.ts, bulkhead.ts): /healthz touches nothing, and
// /readyz does not wait for a database connection when every one is busy answering.
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../store/health.ts';
import { sendError } from '../plugins/errors.ts';
import { VERSION } from '../../version.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', version: VERSION }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    if (!app.readiness.ready) return sendError(request, reply, 503, app.readiness.message, { 'retry-after': '5' });
    // Every connection busy running statements (the embedded database has one): the
    // database is answering others; a ping would only queue behind them.
    const { pool } = app.db;
    if (pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? Infinity)) return { status: 'ready', database: app.db.engine };
    try {
      await pingDatabase(app.db);
      return { status: 'ready', database: app.db.engine };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return sendError(request, reply, 503, 'Database is not answering');
    }
  });
}
