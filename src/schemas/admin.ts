// Schemas and operation records of the Admin API (/api/admin/…): API clients, their API keys,
// plans and credits. Every record here names `role: 'admin'`: the REST door refuses any other
// caller with a 403 before validation, and an operation with a role is never an MCP tool.
// Usage, the audit log and jobs: admin-activity.ts.
import { z } from 'zod';
import { idInput, textInput } from './text.ts';
import { errorBodySchema, pageQuery, pageSchema } from './common.ts';
import { defineOperation } from './operation.ts';
import { ROLES } from './roles.ts';
import { ledgerEntrySchema } from './profiles.ts';

const MAX_NAME_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 500;
const MAX_CREDITS = 1_000_000_000;
const MAX_RATE = 1_000_000_000;
const MAX_LIMIT = 2_147_483_647;

const conflict = errorBodySchema.describe('Conflict: the change clashes with the current state (e.g. an admin removing its own role)');

export const clientIdParams = z.object({ clientId: idInput('cli_4fK2x9Qa1bZ7').describe('API client id (cli_…)') });
const keyIdParams = z.object({ keyId: idInput('key_Ab12Cd34Ef56').describe('API key id (key_…) or its 12-character prefix') });
const planIdParams = z.object({ planId: idInput('team').describe('Plan id: lowercase letters, digits, - and _ (up to 63) for a new plan') });

const roleSchema = z.enum(ROLES).nullable().describe('What the client may administer: admin may call the Admin API; null (a plain API client) may not');

export const adminClientSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    plan: z.string().describe('Plan id'),
    role: roleSchema,
    credits: z.number().int().describe('Credit balance'),
    externalId: z.string().nullable().describe('Client id at the external identity provider (AUTH_ISSUER mode)'),
    disabled: z.boolean(),
    disabledAt: z.iso.datetime().nullable(),
    secretRotatedAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminClient', description: 'An API client as an administrator sees it; never its secret' });
export type AdminClient = z.output<typeof adminClientSchema>;

const adminClientPageSchema = pageSchema(adminClientSchema).meta({ id: 'AdminClientPage' });

const createClientBody = z.strictObject({
  name: textInput(MAX_NAME_LENGTH)
    .min(1, 'must not be empty')
    .describe('Display name')
    .meta({ examples: ['Acme data team'] }),
  plan: idInput('full').describe('Plan id'),
  credits: z.number().int().min(0).max(MAX_CREDITS).optional().describe("Starting credits (default: the plan's)"),
  externalId: textInput(MAX_NAME_LENGTH).min(1).optional().describe('Client id at the external identity provider'),
  role: roleSchema.optional().describe('admin to let the client call the Admin API; absent or null: a plain API client'),
});

const createdClientSchema = z
  .object({
    client: adminClientSchema,
    clientSecret: z.string().describe('The client secret: shown in this reply only, never again (rotate-secret makes a new one)'),
    tokenUrl: z.string().describe('Where the client trades its id and secret for an access token'),
    audience: z.string().describe('The audience to ask the token endpoint for'),
  })
  .meta({ id: 'CreatedClient' });

const updateClientBody = z
  .strictObject({
    name: textInput(MAX_NAME_LENGTH).min(1, 'must not be empty').optional().describe('New display name'),
    plan: idInput('full').optional().describe('New plan id'),
    role: roleSchema.optional().describe('New role; null removes it. An admin cannot remove its own'),
  })
  .refine((o) => Object.keys(o).length > 0, 'name, plan or role: give at least one field to change')
  .meta({ minProperties: 1, examples: [{ plan: 'full' }] })
  .describe('The fields to change; absent ones keep their value. At least one');

const rotatedSecretSchema = z
  .object({ clientId: z.string(), clientSecret: z.string().describe('The new secret: shown in this reply only') })
  .meta({ id: 'RotatedSecret' });

export const adminApiKeySchema = z
  .object({
    id: z.string(),
    prefix: z.string().describe('The first part of the key (sl_<prefix>_…), stored in clear to recognise it'),
    clientId: z.string(),
    name: z.string().nullable(),
    revoked: z.boolean(),
    revokedAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable().describe('Stamped at most once a minute per key and process'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminApiKey', description: 'An API key without its secret (only its hash is kept)' });
export type AdminApiKey = z.output<typeof adminApiKeySchema>;

const adminApiKeyPageSchema = pageSchema(adminApiKeySchema).meta({ id: 'AdminApiKeyPage' });

const createKeyBody = z.strictObject({
  name: textInput(MAX_NAME_LENGTH)
    .min(1)
    .optional()
    .describe('A label, e.g. where the key is used')
    .meta({ examples: ['crm-sync'] }),
});

const createdKeySchema = z
  .object({ key: adminApiKeySchema, apiKey: z.string().describe('The key itself: shown in this reply only, never again') })
  .meta({ id: 'CreatedApiKey' });

const adminPlanSchema = z
  .object({
    id: z.string(),
    description: z.string().nullable(),
    canExport: z.boolean(),
    canAi: z.boolean(),
    canPurchase: z.boolean(),
    initialCredits: z.number().int().describe('Starting credits of new clients on the plan'),
    requestsPerMinute: z.number().int(),
    aiRequestsPerMinute: z.number().int(),
    exportRequestsPerMinute: z.number().int(),
    maxMonitors: z.number().int().describe('Monitors a client on the plan may hold (MAX_MONITORS_PER_CLIENT is a ceiling over every plan)'),
    maxWebhooks: z.number().int().describe('Webhook endpoints a client on the plan may hold (MAX_WEBHOOKS_PER_CLIENT is a ceiling over every plan)'),
    eventsPerDay: z
      .number()
      .int()
      .describe('Events a client on the plan may receive per UTC day: GET /api/events pages, live streams and first webhook attempts together'),
    enrichRowsPerDay: z.number().int().describe('Companies a client on the plan may enrich per UTC day (POST /api/companies/enrich; rows not found are free)'),
    maxListRows: z.number().int().describe('Rows one account list of a client on the plan may hold (each version)'),
    facetsPerDay: z.number().int().describe('Market-sizing calls a client on the plan may make per UTC day (POST /api/companies/facets; count mode included)'),
    detectionsPerDay: z
      .number()
      .int()
      .describe('Never-observed accounts a client on the plan may send to detection per UTC day (POST /api/companies/enrich with observeMissing)'),
  })
  .meta({ id: 'AdminPlan' });

const adminPlanPageSchema = pageSchema(adminPlanSchema).meta({ id: 'AdminPlanPage' });

const rate = (what: string) => z.number().int().min(1).max(MAX_RATE).optional().describe(`${what} per minute (required for a new plan)`);

/** A count a plan allows (0: none); the largest an integer column holds. */
const limit = (what: string) => z.number().int().min(0).max(MAX_LIMIT).optional().describe(what);

const setPlanBody = z
  .strictObject({
    description: textInput(MAX_DESCRIPTION_LENGTH).nullable().optional().describe('What the plan is for; null removes it'),
    canExport: z.boolean().optional(),
    canAi: z.boolean().optional(),
    canPurchase: z.boolean().optional(),
    initialCredits: z.number().int().min(0).max(MAX_CREDITS).optional().describe('Starting credits of new clients (new plan: 0)'),
    requestsPerMinute: rate('Requests (all calls)'),
    aiRequestsPerMinute: rate('AI helper calls'),
    exportRequestsPerMinute: rate('Exports'),
    maxMonitors: limit('Monitors a client may hold (new plan: 10)'),
    maxWebhooks: limit('Webhook endpoints a client may hold (new plan: 2)'),
    eventsPerDay: limit('Events a client may receive per UTC day: pull pages, live streams and first webhook attempts (new plan: 10000)'),
    enrichRowsPerDay: limit('Companies a client may enrich per UTC day (new plan: 10000)'),
    maxListRows: limit('Rows one account list may hold (new plan: 10000)'),
    facetsPerDay: limit('Market-sizing calls a client may make per UTC day (new plan: 1000)'),
    detectionsPerDay: limit('Never-observed accounts a client may send to detection per UTC day (new plan: 100)'),
  })
  .meta({
    examples: [
      {
        canExport: true,
        requestsPerMinute: 600,
        aiRequestsPerMinute: 30,
        exportRequestsPerMinute: 10,
        maxMonitors: 50,
        maxWebhooks: 10,
        eventsPerDay: 100000,
        maxListRows: 100000,
      },
    ],
  })
  .describe(
    "The fields to set; absent ones keep their value. A new plan needs its three rate limits; permissions default to off, monitors, webhooks, daily events, enriched rows, list rows, market-sizing calls and detections to basic's",
  );

const setPlanResultSchema = z.object({ plan: adminPlanSchema, created: z.boolean() }).meta({ id: 'SetPlanResult' });

const adminCreditsSchema = z
  .object({
    clientId: z.string(),
    balance: z.number().int().describe('Credits available now'),
    ledger: pageSchema(ledgerEntrySchema).describe('The credit ledger, newest first'),
  })
  .meta({ id: 'AdminCredits' });

const grantCreditsBody = z.strictObject({
  amount: z
    .number()
    .int()
    .min(-MAX_CREDITS)
    .max(MAX_CREDITS)
    .refine((n) => n !== 0, 'must not be 0')
    .describe('Credits to add, not 0; negative removes them (never below a zero balance)')
    .meta({ not: { const: 0 }, examples: [500] }),
  reason: textInput(MAX_NAME_LENGTH)
    .min(1, 'must not be empty')
    .describe('Why: written to the ledger and the audit log')
    .meta({ examples: ['annual contract'] }),
  reference: textInput(MAX_NAME_LENGTH).min(1).optional().describe('What it refers to, e.g. an invoice number'),
});

const grantedCreditsSchema = z
  .object({ clientId: z.string(), amount: z.number().int(), balance: z.number().int().describe('The balance after the grant') })
  .meta({ id: 'GrantedCredits' });

const pagedQuery = z.object({ page: pageQuery.page, size: pageQuery.size });

// Operations -----------------------------------------------------------------------------------
const admin = { tag: 'Admin', role: 'admin', attributed: false } as const;

export const listAdminClientsOp = defineOperation({
  ...admin,
  id: 'listAdminClients',
  summary: 'List API clients',
  description: 'Every API client with its plan, role, credits and state, oldest first; never a secret.',
  input: pagedQuery,
  output: adminClientPageSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/clients', query: pagedQuery },
});

export const createAdminClientOp = defineOperation({
  ...admin,
  id: 'createAdminClient',
  summary: 'Create an API client (its secret shown once)',
  description: 'Creates a client on a plan; the reply carries its secret, which is never shown again. Audited.',
  input: createClientBody,
  output: createdClientSchema,
  readOnly: false,
  http: { method: 'POST', path: '/admin/clients', body: createClientBody },
});

export const getAdminClientOp = defineOperation({
  ...admin,
  id: 'getAdminClient',
  summary: 'One API client',
  description: 'The client with its plan, role, credits and state; never its secret.',
  input: clientIdParams,
  output: adminClientSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/clients/:clientId', params: clientIdParams },
});

/** The MCP-style input of an operation with a path parameter and a body: both as one object. */
const clientIdAndBody = <B extends z.ZodObject>(body: B) => clientIdParams.extend(body.shape);

export const updateAdminClientOp = defineOperation({
  ...admin,
  id: 'updateAdminClient',
  summary: "Change a client's name, plan or role",
  description: 'Changes only the given fields; the client sees a new plan or role from its next request. An admin cannot remove its own role. Audited.',
  input: clientIdAndBody(updateClientBody),
  output: adminClientSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/clients/:clientId', params: clientIdParams, body: updateClientBody, errors: { 409: conflict } },
});

export const disableAdminClientOp = defineOperation({
  ...admin,
  id: 'disableAdminClient',
  summary: 'Disable a client (revoke its access)',
  description:
    'Its API keys and tokens are refused from the next request; no new tokens. Nothing is deleted (its ledger and purchases stay). An admin cannot disable itself. Audited.',
  input: clientIdParams,
  output: adminClientSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/clients/:clientId/disable', params: clientIdParams, body: z.strictObject({}).optional(), errors: { 409: conflict } },
});

export const enableAdminClientOp = defineOperation({
  ...admin,
  id: 'enableAdminClient',
  summary: 'Enable a disabled client again',
  description: 'Its unrevoked API keys and its secret work again. Audited.',
  input: clientIdParams,
  output: adminClientSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/clients/:clientId/enable', params: clientIdParams, body: z.strictObject({}).optional() },
});

export const rotateAdminClientSecretOp = defineOperation({
  ...admin,
  id: 'rotateAdminClientSecret',
  summary: 'New client secret (shown once)',
  description: 'Replaces the secret; tokens issued before are refused. API keys are unaffected. Audited.',
  input: clientIdParams,
  output: rotatedSecretSchema,
  readOnly: false,
  http: { method: 'POST', path: '/admin/clients/:clientId/rotate-secret', params: clientIdParams, body: z.strictObject({}).optional() },
});

export const listAdminClientKeysOp = defineOperation({
  ...admin,
  id: 'listAdminClientKeys',
  summary: "A client's API keys (never the keys themselves)",
  description: 'Every API key of the client, revoked ones included, oldest first: id, prefix, label, last use.',
  input: clientIdParams.extend(pagedQuery.shape),
  output: adminApiKeyPageSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/clients/:clientId/keys', params: clientIdParams, query: pagedQuery },
});

export const createAdminClientKeyOp = defineOperation({
  ...admin,
  id: 'createAdminClientKey',
  summary: 'Create an API key (shown once)',
  description: 'A new API key for the client; the reply carries the key, which is never shown again (only its hash is kept). Audited.',
  input: clientIdAndBody(createKeyBody),
  output: createdKeySchema,
  readOnly: false,
  http: { method: 'POST', path: '/admin/clients/:clientId/keys', params: clientIdParams, body: createKeyBody },
});

export const revokeAdminKeyOp = defineOperation({
  ...admin,
  id: 'revokeAdminKey',
  summary: 'Revoke an API key',
  description: 'The key is refused from the next request, by every server process. Audited.',
  input: keyIdParams,
  output: adminApiKeySchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/keys/:keyId/revoke', params: keyIdParams, body: z.strictObject({}).optional() },
});

export const listAdminPlansOp = defineOperation({
  ...admin,
  id: 'listAdminPlans',
  summary: 'List plans',
  description: 'Every plan with its permissions, starting credits, rate limits and watch limits (monitors, webhooks, events per day).',
  input: pagedQuery,
  output: adminPlanPageSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/plans', query: pagedQuery },
});

export const getAdminPlanOp = defineOperation({
  ...admin,
  id: 'getAdminPlan',
  summary: 'One plan',
  description: 'The plan with its permissions, starting credits, rate limits and watch limits (monitors, webhooks, events per day).',
  input: planIdParams,
  output: adminPlanSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/plans/:planId', params: planIdParams },
});

export const setAdminPlanOp = defineOperation({
  ...admin,
  id: 'setAdminPlan',
  summary: 'Create a plan, or change some of its fields',
  description:
    'Like `stacklens plans set`: absent fields keep their value; a new plan needs its three rate limits. Clients on the plan see the change from their next request. Audited.',
  input: planIdParams.extend(setPlanBody.shape),
  output: setPlanResultSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/plans/:planId', params: planIdParams, body: setPlanBody },
});

export const getAdminClientCreditsOp = defineOperation({
  ...admin,
  id: 'getAdminClientCredits',
  summary: "A client's credit balance and ledger",
  description: 'The balance and one page of the credit ledger (grants, purchases), newest first.',
  input: clientIdParams.extend(pagedQuery.shape),
  output: adminCreditsSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/clients/:clientId/credits', params: clientIdParams, query: pagedQuery },
});

export const grantAdminClientCreditsOp = defineOperation({
  ...admin,
  id: 'grantAdminClientCredits',
  summary: 'Grant or remove credits',
  description: 'Adds (or, negative, removes) credits with a ledger entry carrying the reason. The balance never goes below zero (400). Audited.',
  input: clientIdAndBody(grantCreditsBody),
  output: grantedCreditsSchema,
  readOnly: false,
  http: { method: 'POST', path: '/admin/clients/:clientId/credits', params: clientIdParams, body: grantCreditsBody },
});

export const adminAccessOperations = [
  listAdminClientsOp,
  createAdminClientOp,
  getAdminClientOp,
  updateAdminClientOp,
  disableAdminClientOp,
  enableAdminClientOp,
  rotateAdminClientSecretOp,
  listAdminClientKeysOp,
  createAdminClientKeyOp,
  revokeAdminKeyOp,
  listAdminPlansOp,
  getAdminPlanOp,
  setAdminPlanOp,
  getAdminClientCreditsOp,
  grantAdminClientCreditsOp,
];
