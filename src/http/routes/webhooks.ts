// Webhook endpoints of the calling client: CRUD, secret rotation, deliveries, replay.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createWebhookOp,
  deleteWebhookOp,
  getWebhookOp,
  listWebhookDeliveriesOp,
  listWebhooksOp,
  replayWebhookOp,
  rotateWebhookSecretOp,
  updateWebhookOp,
} from '../../schemas/webhooks.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, rotateWebhookSecret, updateWebhook } from '../../services/webhooks.ts';
import { principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

export function webhookRoutes(app: FastifyInstance) {
  const clientOf = (request: FastifyRequest) => principalOf(request).clientId;
  return [
    route(createWebhookOp, (request) => createWebhook(app.db, clientOf(request), request.body, app.config)),
    route(listWebhooksOp, (request) => listWebhooks(app.db, clientOf(request), request.query)),
    route(getWebhookOp, (request) => getWebhook(app.db, clientOf(request), request.params.webhookId)),
    route(updateWebhookOp, (request) => updateWebhook(app.db, clientOf(request), request.params.webhookId, request.body)),
    route(deleteWebhookOp, (request) => deleteWebhook(app.db, clientOf(request), request.params.webhookId)),
    route(rotateWebhookSecretOp, (request) => rotateWebhookSecret(app.db, clientOf(request), request.params.webhookId)),
    route(listWebhookDeliveriesOp, (request) => listWebhookDeliveries(app.db, clientOf(request), request.params.webhookId, request.query)),
    route(replayWebhookOp, (request) => app.webhooks.replay(clientOf(request), request.params.webhookId, request.body)),
  ];
}
