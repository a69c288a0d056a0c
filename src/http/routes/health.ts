// Liveness and readiness probes, outside /api and without authentication. Neither is ever
// shed nor queued (http/plugins/overload.ts, bulkhead.ts): /healthz touches nothing, and
// /readyz does not wait for a database connection when every one is busy answering.
// /healthz: the process is up and its event loop turns (restart it when this fails).
// /readyz: send it traffic: started, not draining, the database answers, and the database
// has every migration this build ships (an older schema, e.g. after restoring an old
// backup into it, is 503 until `stacklens migrate` runs).
import type { FastifyInstance } from 'fastify';
import { missingMigrations } from '../../db/health.ts';
import { listMigrations } from '../../db/migrate.ts';
import { sendError } from '../plugins/errors.ts';
import { VERSION } from '../../version.ts';
import { AppError } from '../../errors.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const shipped = listMigrations().map((m) => m.version);
  /** The last check's finding, first made here: the schema is current (the busy path below relies on it). */
  let schemaCurrent = await missingMigrations(app.db, shipped).then(
    (m) => m.length === 0,
    () => false,
  );
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
    if (schemaCurrent && app.db.availability.up && pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? Infinity))
      return { status: 'ready', database: app.db.engine };
    let missing: number[];
    try {
      missing = await missingMigrations(app.db, shipped);
    } catch (err) {
      const retryAfter = err instanceof AppError ? (err.headers['retry-after'] ?? '5') : '5';
      return sendError(request, reply, 503, 'Database is not answering', { 'retry-after': retryAfter });
    }
    schemaCurrent = missing.length === 0;
    if (!schemaCurrent) {
      return sendError(
        request,
        reply,
        503,
        `The database schema is behind this version: migration${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not applied; run \`stacklens migrate\``,
        { 'retry-after': '30' },
      );
    }
    return { status: 'ready', database: app.db.engine };
  });
}
