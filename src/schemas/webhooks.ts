// Webhooks: endpoints that receive events (signed per Standard Webhooks), their signing
// secrets, their deliveries (delivered, pending, dead) and replay.
import { z } from 'zod';
import { errorBodySchema, pageQuery, pageSchema, requestExamples } from './common.ts';
import { EVENT_TYPES } from './events.ts';
import { instantParam } from './params.ts';
import { idInput, textInput } from './text.ts';
import { defineOperation } from './operation.ts';

const DELIVERY_STATUSES = ['pending', 'delivered', 'dead', 'skipped'] as const;
const MAX_REPLAY_IDS = 1000;

const urlInput = textInput(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials')
  .describe('Where events are POSTed: an http(s) URL on a public address');

const webhookFields = {
  url: urlInput,
  description: textInput(500).nullable().optional().describe('A note of your choice'),
  monitorId: idInput('mon_3fa1c2d4e5f60718').nullable().optional().describe("Only this monitor's events (absent or null: every event you may read)"),
  eventTypes: z
    .array(z.enum(EVENT_TYPES))
    .min(1)
    .max(EVENT_TYPES.length)
    .optional()
    .describe(`The event types sent (default: all): ${EVENT_TYPES.join(', ')}`),
};
const createWebhookBody = z
  .strictObject(webhookFields)
  .meta({ id: 'WebhookRequest', ...requestExamples({ url: 'https://hooks.example.com/stacklens', eventTypes: ['technology.adopted', 'monitor.entered'] }) });
const updateWebhookBody = z
  .strictObject({
    ...webhookFields,
    url: urlInput.optional(),
    enabled: z.boolean().optional().describe('true: enable again (after it was disabled for failing); false: pause deliveries'),
  })
  .meta({ id: 'WebhookUpdate', description: 'Only the given fields change' });
export type CreateWebhookInput = z.output<typeof createWebhookBody>;
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;

const webhookIdParams = z.object({ webhookId: idInput('whk_0a1b2c3d4e5f6071').describe('Webhook id') });

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    monitorId: z.string().nullable(),
    eventTypes: z.array(z.enum(EVENT_TYPES)),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().describe('Why it is disabled (failing for too long, or by you)'),
    failingSince: z.string().nullable().describe('The first failure since the last success'),
    consecutiveFailures: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });
export type WebhookRecord = z.output<typeof webhookSchema>;

const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().describe('The signing secret (whsec_…): shown once, now; verify webhook-signature with it') })
  .meta({ id: 'CreatedWebhook' });

const deliverySchema = z
  .object({
    eventId: z.string().describe('Also the webhook-id header of every attempt'),
    eventType: z.enum(EVENT_TYPES),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe('pending: being tried; delivered: a 2xx came back; dead: every retry failed (replay it); skipped: the endpoint was disabled'),
    attempts: z.number().int(),
    lastAttemptAt: z.string().nullable(),
    lastStatus: z.number().int().nullable().describe('HTTP status of the last attempt; null when none came back'),
    lastError: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryRecord = z.output<typeof deliverySchema>;

const replayBody = z
  .strictObject({
    eventIds: z.array(idInput('evt_1f0c2b9a7d3e4c5b6a798812')).min(1).max(MAX_REPLAY_IDS).optional().describe(`Events to send again (1-${MAX_REPLAY_IDS})`),
    from: instantParam('Or: every event detected at or after this instant…'),
    to: instantParam('…and before this one'),
  })
  .meta({ id: 'WebhookReplay', description: 'eventIds, or from and to', ...requestExamples({ eventIds: ['evt_1f0c2b9a7d3e4c5b6a798812'] }) });
export type ReplayInput = z.output<typeof replayBody>;

const deliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().describe('Only deliveries in this state (dead: the dead-letter list)'),
  ...pageQuery,
});

const tag = 'Events' as const;
const conflict = errorBodySchema.describe('The client holds as many webhooks as it may, or the webhook is disabled');
const deleted = z.object({ id: z.string(), deleted: z.literal(true) });

export const createWebhookOp = defineOperation({
  id: 'createWebhook',
  summary: 'Create a webhook endpoint',
  description: [
    'Events are POSTed to `url` as `{ type, timestamp, data: Event }`, signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), with the secret returned here once. Answer with any 2xx within WEBHOOK_TIMEOUT_MS (10 s); anything else is retried with exponential backoff for more than a day, then the delivery is dead (GET …/deliveries?status=dead; replay it).',
    'Delivery is at least once: a receiver drops duplicates by `webhook-id` (the event id). An endpoint failing every delivery for WEBHOOK_DISABLE_AFTER_HOURS is disabled until you enable it again. The URL must resolve to a public address.',
    "A client holds at most its plan's maxWebhooks endpoints, capped by the deployment's MAX_WEBHOOKS_PER_CLIENT (409 beyond, naming the limit). Each delivery's first attempt counts against the plan's eventsPerDay; past it deliveries are held (pending) and sent when the allowance allows, not lost.",
  ].join('\n\n'),
  tag,
  input: createWebhookBody,
  output: createdWebhookSchema,
  readOnly: false,
  attributed: false,
  http: { method: 'POST', path: '/webhooks', body: createWebhookBody, errors: { 409: conflict } },
});

export const listWebhooksOp = defineOperation({
  id: 'listWebhooks',
  summary: 'Your webhook endpoints',
  description: "The calling client's endpoints, oldest first; never their secrets.",
  tag,
  input: z.object(pageQuery),
  output: pageSchema(webhookSchema).meta({ id: 'WebhookPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/webhooks', query: z.object(pageQuery) },
});

export const getWebhookOp = defineOperation({
  id: 'getWebhook',
  summary: 'One webhook endpoint',
  description: "With its state (enabled, failing since); never its secret. Another client's → 404.",
  tag,
  input: webhookIdParams,
  output: webhookSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/webhooks/:webhookId', params: webhookIdParams },
});

export const updateWebhookOp = defineOperation({
  id: 'updateWebhook',
  summary: 'Change a webhook endpoint, or enable it again',
  description: 'Changes the given fields. `enabled: true` enables an endpoint that was disabled for failing (and clears its failure count).',
  tag,
  input: webhookIdParams.extend(updateWebhookBody.shape),
  output: webhookSchema,
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'POST', path: '/webhooks/:webhookId', params: webhookIdParams, body: updateWebhookBody },
});

export const deleteWebhookOp = defineOperation({
  id: 'deleteWebhook',
  summary: 'Delete a webhook endpoint',
  description: 'Its pending deliveries are dropped. Unknown → 404.',
  tag,
  input: webhookIdParams,
  output: deleted.meta({ id: 'WebhookDeleted' }),
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'DELETE', path: '/webhooks/:webhookId', params: webhookIdParams },
});

export const rotateWebhookSecretOp = defineOperation({
  id: 'rotateWebhookSecret',
  summary: "Rotate a webhook's signing secret",
  description:
    'A new secret, shown once. For a day the previous one stays valid: every delivery carries two signatures (`v1,<new> v1,<previous>`), so a receiver can switch without losing a delivery.',
  tag,
  input: webhookIdParams,
  output: z.object({ id: z.string(), secret: z.string(), previousSecretExpiresAt: z.string() }).meta({ id: 'RotatedWebhookSecret' }),
  readOnly: false,
  attributed: false,
  http: { method: 'POST', path: '/webhooks/:webhookId/rotate-secret', params: webhookIdParams, body: z.strictObject({}).nullish() },
});

export const listWebhookDeliveriesOp = defineOperation({
  id: 'listWebhookDeliveries',
  summary: "A webhook's deliveries (and its dead letters)",
  description: 'Newest first, with attempts and the last status or error. `status=dead` lists the deliveries whose retries are exhausted.',
  tag,
  input: webhookIdParams.extend(deliveriesQuery.shape),
  output: pageSchema(deliverySchema).meta({ id: 'WebhookDeliveryPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/webhooks/:webhookId/deliveries', params: webhookIdParams, query: deliveriesQuery },
});

export const replayWebhookOp = defineOperation({
  id: 'replayWebhook',
  summary: 'Send events to a webhook again',
  description:
    'Queues the given events (by id, or every event detected in [from, to)) that this endpoint wants, whatever their earlier delivery: each goes out again with its original webhook-id. Disabled endpoint → 409.',
  tag,
  input: webhookIdParams.extend(replayBody.shape),
  output: z.object({ queued: z.number().int() }).meta({ id: 'WebhookReplayed' }),
  readOnly: false,
  attributed: false,
  http: { method: 'POST', path: '/webhooks/:webhookId/replay', params: webhookIdParams, body: replayBody, errors: { 409: conflict } },
});

export const webhookOperations = [
  createWebhookOp,
  listWebhooksOp,
  getWebhookOp,
  updateWebhookOp,
  deleteWebhookOp,
  rotateWebhookSecretOp,
  listWebhookDeliveriesOp,
  replayWebhookOp,
];
