// POST /feedback: a data-quality report of the calling client (the queue is the Admin API's).
import type { FastifyInstance } from 'fastify';
import { submitFeedbackOp } from '../../schemas/feedback.ts';
import { submitFeedback } from '../../services/feedback.ts';
import { principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

export function feedbackRoutes(app: FastifyInstance) {
  return [
    route(submitFeedbackOp, (request) => {
      const principal = principalOf(request);
      return submitFeedback(app.db, { clientId: principal.clientId, onBehalfOf: principal.person?.email ?? null }, request.body);
    }),
  ];
}
