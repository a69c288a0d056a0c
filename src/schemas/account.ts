// The calling client: who it is, its plan's permissions and rate limits (GET /me).
import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { jobIdParams, jobSchema } from './admin-activity.ts';
import { ROLES } from './roles.ts';

const meSchema = z
  .object({
    clientId: z.string(),
    clientName: z.string(),
    plan: z.string(),
    permissions: z.object({ export: z.boolean(), ai: z.boolean(), purchase: z.boolean() }),
    rateLimits: z.object({ requestsPerMinute: z.number().int(), aiRequestsPerMinute: z.number().int(), exportRequestsPerMinute: z.number().int() }),
    watchLimits: z
      .object({
        maxMonitors: z.number().int().describe('Monitors the client may hold (the deployment may cap it lower: the 409 names the limit)'),
        maxWebhooks: z.number().int().describe('Webhook endpoints the client may hold (the deployment may cap it lower: the 409 names the limit)'),
        eventsPerDay: z
          .number()
          .int()
          .describe('Events the client may receive per UTC day: GET /api/events pages, live streams and first webhook attempts together'),
      })
      .describe("The plan's limits of the watch features"),
    role: z.enum(ROLES).nullable().describe("What the client may administer: 'admin' may call the Admin API (/api/admin/…); null: a plain API client"),
    authenticatedWith: z.enum(['api_key', 'access_token', 'console_session']),
    user: z
      .object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(ROLES) })
      .optional()
      .describe(
        "With console_session: the signed-in person, acting through the console's client (their role is `role`; permissions are the plan's as far as the role allows)",
      ),
  })
  .meta({ id: 'Me', description: 'The calling client, its plan, permissions and rate limits' });

export const getMeOp = defineOperation({
  id: 'getMe',
  summary: 'The calling client, its plan, permissions and rate limits',
  description: 'Who the credentials belong to, what its plan allows (export, ai, purchase) and its per-minute quotas. Useful to check a key or token.',
  tag: 'Account',
  input: z.object({}),
  output: meSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/me' },
});

export const getMyJobOp = defineOperation({
  id: 'getMyJob',
  summary: 'One of your background jobs and its progress',
  description:
    "A job this client started — the detection of never-observed accounts (POST /companies/enrich with observeMissing; its id in the Stacklens-Observe-Job header) — with its status (running, succeeded, failed), phase, progress (done of total), and the result or the error. Another client's job, or one started by an operator, is a 404.",
  tag: 'Account',
  input: jobIdParams,
  output: jobSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/jobs/:jobId', params: jobIdParams },
});

export const accountOperations = [getMeOp, getMyJobOp];
