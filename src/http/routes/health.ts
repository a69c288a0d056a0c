// Liveness and readiness probes, outside /api and without authentication.
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../store/health.ts';
import { sendError } from '../plugins/errors.ts';
import { VERSION } from '../../version.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', version: VERSION }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    if (!app.readiness.ready) return sendError(request, reply, 503, app.readiness.message, { 'retry-after': '5' });
    try {
      await pingDatabase(app.db);
      return { status: 'ready', database: app.db.engine };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return sendError(request, reply, 503, 'Database is not answering');
    }
  });
}
