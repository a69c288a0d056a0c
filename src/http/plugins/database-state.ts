// One log line per database state change: when statements start failing because the
// database refuses or does not answer ("database unavailable"), and when the first one
// succeeds again ("database recovered"). Requests in between are answered 503 with
// Retry-After (db/db-faults.ts) and logged only by their one request line.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AvailabilityChange } from '../../db/db-faults.ts';

export const databaseStatePlugin = fp(async (app: FastifyInstance) => {
  const availability = app.db.availability;
  const onChange = (change: AvailabilityChange) => {
    if (change.state === 'down') app.log.error({ database: 'down', reason: change.reason }, 'database unavailable: answering 503 until it recovers');
    else app.log.warn({ database: 'up', downForMs: change.downForMs }, 'database recovered');
  };
  availability.on('change', onChange);
  app.addHook('onClose', async () => {
    availability.off('change', onChange);
  });
});
