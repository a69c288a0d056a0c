// Change events: GET /events (after a cursor), GET /events/stream (Server-Sent Events, resumed
// with Last-Event-ID) and GET /companies/{companyDomain}/history.
import type { FastifyInstance } from 'fastify';
import { companyHistoryOp, listEventsOp, streamEventsOp } from '../../schemas/events.ts';
import { companyHistory, listEvents, openEventStream } from '../../services/events.ts';
import { principalOf } from '../plugins/auth.ts';
import { sendEventStream } from '../replies.ts';
import { route } from '../route-config.ts';

export function eventRoutes(app: FastifyInstance) {
  return [
    route(listEventsOp, (request) => listEvents(app.db, principalOf(request).clientId, request.query, app.config.cursorSecret)),
    route(
      streamEventsOp,
      async (request, reply) => {
        // The stream ends when the client goes away or the server shuts down.
        const gone = new AbortController();
        const end = () => gone.abort();
        app.events.once('close', end);
        reply.raw.once('close', () => {
          gone.abort();
          app.events.off('close', end);
        });
        const lastEventId = request.headers['last-event-id'];
        const messages = await openEventStream(
          app.db,
          app.events,
          principalOf(request).clientId,
          { ...request.query, lastEventId: typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : undefined },
          app.config.cursorSecret,
          gone.signal,
        );
        return sendEventStream(reply, messages);
      },
      { longLived: true },
    ),
    route(companyHistoryOp, (request) => companyHistory(app.db, principalOf(request).clientId, { ...request.params, ...request.query })),
  ];
}
