// Liveness and readiness probes, outside /api and without authentication.
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
    try {
      await pingDatabase(app.db);
      return { status: 'ready', database: app.db.engine };
    } catch (err) {
      const retryAfter = err instanceof AppError ? (err.headers['retry-after'] ?? '5') : '5';
      return sendError(request, reply, 503, 'Database is not answering', { 'retry-after': retryAfter });
    }
  });
}
