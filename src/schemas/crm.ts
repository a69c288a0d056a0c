// The CRM write-back: a client's connections to HubSpot and Salesforce (the token sealed, only
// a hint shown), a sync of a list's or some domains' companies (dry run: the plan; else the
// writes, per company), and the sync log. Every operation needs the export permission: a sync
// hands company data to another system, as an export does.
import { z } from 'zod';
import { errorBodySchema, pageQuery, pageSchema, requestExamples } from './common.ts';
import { domainSchema, onBehalfOfHeaders } from './params.ts';
import { idInput, textInput } from './text.ts';
import { defineOperation } from './operation.ts';

const CRM_KINDS = ['hubspot', 'salesforce'] as const;
/** Companies one sync may carry (one request reads, plans and writes them all). */
export const MAX_SYNC_COMPANIES = 10_000;
const SALESFORCE_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,79}$/;

const crmKind = z.enum(CRM_KINDS).describe('The CRM: hubspot or salesforce');
const crmParams = z.object({ crm: crmKind });

const baseUrlInput = textInput(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '' && u.search === '' && u.hash === '';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials, query or fragment')
  .describe(
    'The API base URL: https://api.hubapi.com for HubSpot, your instance (https://yourorg.my.salesforce.com) for Salesforce. It must resolve to a public address unless the operator allows private ones (CRM_ALLOW_PRIVATE_NETWORK, CRM_ALLOW_NETWORKS)',
  );

const connectBody = z
  .strictObject({
    crm: crmKind,
    baseUrl: baseUrlInput,
    token: z
      .string()
      .min(8)
      .max(4000)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .describe('The API token (HubSpot private app token; Salesforce OAuth access token): stored encrypted, never returned'),
    externalIdField: z
      .string()
      .regex(SALESFORCE_FIELD_NAME, 'must be a Salesforce field API name such as Stacklens_Id__c')
      .optional()
      .describe('Salesforce: the Account External ID field holding the Stacklens company id (default Stacklens_Id__c); not for HubSpot'),
    overwrite: z
      .boolean()
      .default(false)
      .describe('Default of syncs: false leaves fields a person edited in the CRM (or set there before us) as they are; true overwrites them'),
  })
  .meta({
    id: 'CrmConnectionRequest',
    ...requestExamples({ crm: 'hubspot', baseUrl: 'https://api.hubapi.com', token: 'pat-na1-00000000-0000-0000-0000-000000000000' }),
  });
export type CrmConnectInput = z.output<typeof connectBody>;

export const crmConnectionSchema = z
  .object({
    crm: z.enum(CRM_KINDS),
    baseUrl: z.string(),
    tokenHint: z.string().describe("The token's last 4 characters (… alone for a short token): the token itself is never returned"),
    externalIdField: z.string().nullable(),
    overwrite: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CrmConnection' });
export type CrmConnectionOut = z.output<typeof crmConnectionSchema>;

const syncBody = z
  .strictObject({
    crm: crmKind,
    listId: idInput('lst_3fa1c2d4e5f60718').optional().describe('The matched companies of one of your account lists (its current version)'),
    domains: z
      .array(domainSchema())
      .min(1)
      .max(MAX_SYNC_COMPANIES)
      .optional()
      .describe(`Or 1-${MAX_SYNC_COMPANIES} company domains (unknown ones are left out)`),
    dryRun: z.boolean().describe('true: read the CRM and answer what would change, writing nothing; false: write'),
    overwrite: z.boolean().optional().describe("Overwrite fields a person owns in the CRM (default: the connection's overwrite)"),
  })
  .meta({
    id: 'CrmSyncRequest',
    description: 'Exactly one of `listId` and `domains`',
    ...requestExamples({ crm: 'hubspot', listId: 'lst_3fa1c2d4e5f60718', dryRun: true }),
  });
export type CrmSyncInput = z.output<typeof syncBody>;

const fieldChangeSchema = z.object({
  field: z.string().describe('The CRM property or field'),
  old: z.string().describe("The CRM's value ('' for empty or no record)"),
  new: z.string().describe('Our value'),
  skipped: z
    .enum(['edited_in_crm', 'set_in_crm'])
    .optional()
    .describe('Left as the CRM has it: changed in the CRM since our last write (edited_in_crm), or set there before we ever wrote it (set_in_crm)'),
});

const syncRecordSchema = z.object({
  companyId: z.string(),
  domain: z.string(),
  key: z.string().describe('The CRM record key: the domain (HubSpot) or the external id (Salesforce)'),
  action: z.enum(['create', 'update', 'unchanged', 'skipped']).describe('skipped: every difference is a field a person owns'),
  changes: z.array(fieldChangeSchema),
  outcome: z.enum(['created', 'updated', 'failed']).optional().describe('After a write (not in a dry run)'),
  error: z.string().optional().describe("The CRM's message for a failed record"),
});

const countsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});

const syncRunFields = {
  id: z.string(),
  crm: z.enum(CRM_KINDS),
  listId: z.string().nullable(),
  dryRun: z.boolean(),
  overwrite: z.boolean(),
  status: z.enum(['running', 'done', 'failed']).describe('failed: the CRM could not be reached or refused the call (`error` says why)'),
  counts: countsSchema.describe('Companies by action (a dry run counts what would happen)'),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
};
export const crmSyncRunSchema = z
  .object({ ...syncRunFields, records: z.array(syncRecordSchema).describe('Per company: the plan, and after a write its outcome') })
  .meta({ id: 'CrmSyncRun' });
const crmSyncRunSummarySchema = z.object(syncRunFields).meta({ id: 'CrmSyncRunSummary' });
export type CrmSyncRunOut = z.output<typeof crmSyncRunSchema>;
export type CrmSyncRunSummaryOut = z.output<typeof crmSyncRunSummarySchema>;

const runParams = z.object({ runId: idInput('crmsync_3fa1c2d4-e5f6-0718-293a-4b5c6d7e8f90').describe('Sync run id') });

const tag = 'CRM' as const;
const crmUnreachable = { 400: errorBodySchema.describe('A rule broken, or a base URL on an address that is not allowed (names the field)') };

export const connectCrmOp = defineOperation({
  id: 'connectCrm',
  summary: 'Connect a CRM (or replace the connection)',
  description:
    "Stores the calling client's connection to HubSpot or Salesforce: base URL, API token (encrypted at rest with AES-256-GCM, never returned: the answer shows its last 4 characters), for Salesforce the External ID field, and the default overwrite policy. One connection per CRM: connecting again replaces it (and keeps what was last written, so edits made in the CRM are still recognized). A base URL on a private, loopback or link-local address → 400 naming baseUrl, unless the operator allows it. Needs the export permission; audited.",
  tag,
  input: connectBody,
  output: crmConnectionSchema,
  permission: 'export',
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'POST', path: '/crm/connections', body: connectBody, errors: crmUnreachable },
});

export const listCrmConnectionsOp = defineOperation({
  id: 'listCrmConnections',
  summary: 'Your CRM connections',
  description: "The calling client's CRM connections (at most one per CRM), without their tokens.",
  tag,
  input: z.object({}),
  output: z.object({ connections: z.array(crmConnectionSchema) }).meta({ id: 'CrmConnectionList' }),
  permission: 'export',
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/crm/connections' },
});

export const deleteCrmConnectionOp = defineOperation({
  id: 'deleteCrmConnection',
  summary: 'Delete a CRM connection',
  description:
    'Deletes the connection with its token and the record of what was last written (a later connection treats every filled CRM field as set there). The sync log stays. No connection → 404. Audited.',
  tag,
  input: crmParams,
  output: z.object({ crm: z.enum(CRM_KINDS), deleted: z.literal(true) }).meta({ id: 'CrmConnectionDeleted' }),
  permission: 'export',
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'DELETE', path: '/crm/connections/:crm', params: crmParams },
});

export const syncCrmOp = defineOperation({
  id: 'syncCrm',
  summary: 'Sync companies into a CRM (or plan it with dryRun)',
  description: [
    "Reads the CRM's current records of the companies (a list's matched companies, or domains), plans per company — create, update (the fields to change, old → new), unchanged, or skipped — and unless `dryRun` is true writes them: HubSpot's batch upsert by domain, Salesforce's Bulk API 2.0 upsert by the External ID field. A field a person edited in the CRM since our last write, or set there before we ever wrote it, is left alone (`skipped` on the change) unless `overwrite`. A dry run writes nothing, to the CRM or to what we remember of it.",
    `The answer is the logged run with every company's plan and outcome. A CRM that cannot be reached or refuses the call gives a run with status failed and its error (200: the run is in the log). No connection to the CRM, or a list that is not yours → 404. At most ${MAX_SYNC_COMPANIES} companies per call (more → 400).`,
    "An export: it needs the export permission and X-On-Behalf-Of-User, is audited, and the companies found count against the plan's enrichRowsPerDay (409/429 as for enrichment).",
  ].join('\n\n'),
  tag,
  input: syncBody,
  output: crmSyncRunSchema,
  permission: 'export',
  rateClass: 'export',
  readOnly: false,
  attributed: true,
  http: {
    method: 'POST',
    path: '/crm/sync',
    headers: onBehalfOfHeaders,
    body: syncBody,
    errors: { 409: errorBodySchema.describe('More companies than the plan allows per day') },
  },
});

export const listCrmSyncRunsOp = defineOperation({
  id: 'listCrmSyncRuns',
  summary: 'The CRM sync log',
  description: "The calling client's sync runs, newest first, paged, with their counts (the per-company detail: GET /crm/sync-runs/{runId}).",
  tag,
  input: z.object(pageQuery),
  output: pageSchema(crmSyncRunSummarySchema).meta({ id: 'CrmSyncRunPage' }),
  permission: 'export',
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/crm/sync-runs', query: z.object(pageQuery) },
});

export const getCrmSyncRunOp = defineOperation({
  id: 'getCrmSyncRun',
  summary: 'One CRM sync run',
  description: "A sync run with every company's plan and outcome; another client's run → 404.",
  tag,
  input: runParams,
  output: crmSyncRunSchema,
  permission: 'export',
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/crm/sync-runs/:runId', params: runParams },
});

export const crmOperations = [connectCrmOp, listCrmConnectionsOp, deleteCrmConnectionOp, syncCrmOp, listCrmSyncRunsOp, getCrmSyncRunOp];
