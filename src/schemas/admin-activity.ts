// Schemas and operation records of the Admin API's activity side: usage per client, the
// audit log (filters, keyset paging) and background jobs (refresh) with their progress. Like
// admin.ts, every record names the admin role.
import { z } from 'zod';
import { idInput } from './text.ts';
import { errorBodySchema, intParam, MAX_PAGE_SIZE, pageQuery, pageSchema } from './common.ts';
import { defineOperation } from './operation.ts';
import { dayParam, instantParam } from './params.ts';
import { clientIdParams } from './admin.ts';

/** The longest usage window one call reads. */
export const MAX_USAGE_DAYS = 366;
export const DEFAULT_USAGE_DAYS = 30;
const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
const JOB_KINDS = ['refresh', 'import', 'list_upload', 'observe'] as const;
const JOB_STATUSES = ['running', 'succeeded', 'failed'] as const;

const usageQuery = z.object({
  from: dayParam(`First UTC day (default: ${DEFAULT_USAGE_DAYS - 1} days before \`to\`)`),
  to: dayParam('Last UTC day, inclusive (default: today)'),
});

const usageRowSchema = z.object({
  day: z.string().describe('UTC day, YYYY-MM-DD'),
  operation: z.string().describe('Operation id (the OpenAPI operationId)'),
  requests: z.number().int(),
  errors: z.number().int().describe('Requests answered with a 4xx or 5xx'),
});

export const usageSchema = z
  .object({
    clientId: z.string(),
    from: z.string(),
    to: z.string(),
    totalRequests: z.number().int(),
    totalErrors: z.number().int(),
    byOperation: z
      .array(z.object({ operation: z.string(), requests: z.number().int(), errors: z.number().int() }))
      .describe('Totals per operation, most requested first'),
    rows: z.array(usageRowSchema).describe('Per day and operation, oldest day first'),
    totalEvents: z.number().int().describe('Events handed to the client in the window: pull pages, live streams and first webhook attempts'),
    events: z
      .array(z.object({ day: z.string().describe('UTC day, YYYY-MM-DD'), events: z.number().int() }))
      .describe("Events per UTC day, oldest first (days without any are absent): what the plan's eventsPerDay is spent on, counted as they are handed out"),
  })
  .meta({
    id: 'AdminUsage',
    description:
      "A client's authenticated /api requests per UTC day and operation (counted in memory, written every few seconds), and the events it received per day",
  });
export type Usage = z.output<typeof usageSchema>;

export const auditQuery = z.object({
  clientId: idInput('cli_4fK2x9Qa1bZ7').optional().describe('Only entries of this acting client'),
  action: idInput('admin.clients.create').optional().describe('Only this action (admin.clients.create, profiles.purchase, companies.search.export...)'),
  outcome: z.enum(AUDIT_OUTCOMES).optional().describe('Only this outcome'),
  from: instantParam('Only entries at or after this instant'),
  to: instantParam('Only entries before this instant'),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'must be the nextCursor of a previous page')
    .optional()
    .describe('nextCursor of the previous page (absent: the newest entries)')
    .meta({ maxLength: 18 }),
  size: intParam('size', 1, MAX_PAGE_SIZE, 50).describe(`Entries per page, 1-${MAX_PAGE_SIZE} (default 50)`),
});
export type AuditQuery = z.output<typeof auditQuery>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actor: z.string().nullable().describe('The acting client id; null for the command line (params.actor says "cli")'),
  onBehalfOf: z.string().nullable(),
  action: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  params: z.record(z.string(), z.unknown()).describe('What the action was about (never a secret)'),
  resultCount: z.number().int().nullable(),
});
export type AuditEntryOut = z.output<typeof auditEntrySchema>;

const auditPageSchema = z
  .object({
    entries: z.array(auditEntrySchema).describe('Newest first'),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next (older) page; null on the last page'),
  })
  .meta({ id: 'AuditPage' });

export const jobSchema = z
  .object({
    id: z.string().describe('Job id'),
    kind: z.enum(JOB_KINDS),
    status: z.enum(JOB_STATUSES),
    params: z.record(z.string(), z.unknown()),
    phase: z
      .string()
      .nullable()
      .describe(
        'Current phase (refresh: load, cohorts, cousage; import: reading, checking, writing, then "refreshing: <refresh phase>" when it refreshes the derived data; observe: detecting (domains done of total), recording, refreshing)',
      ),
    done: z.number().int(),
    total: z.number().int().describe('Units of the current phase (0 when not known); an import reading a file counts KiB of the file'),
    result: z.record(z.string(), z.unknown()).nullable().describe('What the job did, once it succeeded'),
    error: z.string().nullable().describe('Why it failed'),
    startedBy: z.string().nullable(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Job', description: 'A background job and its progress' });
export type Job = z.output<typeof jobSchema>;

export const jobIdParams = z.object({
  jobId: z
    .string()
    .regex(/^\d{1,18}$/, 'must be a job id (digits)')
    .describe('Job id')
    .meta({ maxLength: 18, examples: ['1'] }),
});
const jobsQuery = z.object({ kind: z.enum(JOB_KINDS).optional().describe('Only jobs of this kind'), page: pageQuery.page, size: pageQuery.size });
const refreshJobBody = z.strictObject({
  full: z.boolean().optional().describe('Recompute every company (default: only companies whose data changed since the last refresh)'),
});

const admin = { tag: 'Admin', role: 'admin', attributed: false } as const;

export const getAdminClientUsageOp = defineOperation({
  ...admin,
  id: 'getAdminClientUsage',
  summary: "A client's usage per day and operation",
  description: `Authenticated /api requests of the client per UTC day and operation, with errors, and the events it received per day (its plan's eventsPerDay), over at most ${MAX_USAGE_DAYS} days (default the last ${DEFAULT_USAGE_DAYS}).`,
  input: clientIdParams.extend(usageQuery.shape),
  output: usageSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/clients/:clientId/usage', params: clientIdParams, query: usageQuery },
});

export const listAdminAuditOp = defineOperation({
  ...admin,
  id: 'listAdminAudit',
  summary: 'The audit log, filtered',
  description:
    'Audited actions (admin actions, exports, AI calls, purchases), newest first, by acting client, action, outcome and time; keyset paging with nextCursor.',
  input: auditQuery,
  output: auditPageSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/audit', query: auditQuery },
});

export const listAdminJobsOp = defineOperation({
  ...admin,
  id: 'listAdminJobs',
  summary: 'Background jobs',
  description: 'Jobs started through the Admin API (refresh), newest first, with status and progress.',
  input: jobsQuery,
  output: pageSchema(jobSchema).meta({ id: 'JobPage' }),
  readOnly: true,
  http: { method: 'GET', path: '/admin/jobs', query: jobsQuery },
});

export const getAdminJobOp = defineOperation({
  ...admin,
  id: 'getAdminJob',
  summary: 'One background job and its progress',
  description: 'Status (running, succeeded, failed), phase and progress, and the result or the error.',
  input: jobIdParams,
  output: jobSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/jobs/:jobId', params: jobIdParams },
});

export const startAdminRefreshJobOp = defineOperation({
  ...admin,
  id: 'startAdminRefreshJob',
  summary: 'Start a refresh of cohorts and co-usage (background job)',
  description:
    'Starts the intelligence refresh in the background and answers at once with the job; read its progress with getAdminJob. One refresh job at a time (409 while one runs). Audited.',
  input: refreshJobBody,
  output: jobSchema,
  readOnly: false,
  http: {
    method: 'POST',
    path: '/admin/jobs/refresh',
    body: refreshJobBody.optional(),
    errors: { 409: errorBodySchema.describe('A refresh job is already running; its id is in the message') },
  },
});

const refreshRunParams = z.object({
  runId: z
    .string()
    .regex(/^\d{1,18}$/, 'must be a refresh run id (digits)')
    .describe('Refresh run id, as `stacklens refresh --full --partitions N` prints it')
    .meta({ maxLength: 18, examples: ['1'] }),
});

const refreshPartitionSchema = z.object({
  part: z.number().int(),
  parts: z.number().int(),
  state: z.enum(['pending', 'running', 'done']),
  worker: z.string().nullable().describe('The worker process that holds or held it (host:pid:tag)'),
  attempts: z.number().int().describe('Times it was taken; more than one when a worker died or failed and another took it over'),
  done: z.number().int().describe('Companies computed so far'),
  total: z.number().int().nullable().describe('Companies in the partition (null until a worker has taken it)'),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

const refreshRunSchema = z
  .object({
    runId: z.number().int(),
    startedAt: z.string(),
    computedAt: z.string().nullable().describe('When the run finished (its last partition wrote co-usage); null while partitions are open'),
    partitions: z.array(refreshPartitionSchema).describe('Empty for a run computed in one process'),
  })
  .meta({ id: 'RefreshRun' });

export const getAdminRefreshRunOp = defineOperation({
  ...admin,
  id: 'getAdminRefreshRun',
  summary: 'One refresh run and its partitions',
  description:
    'A refresh run and, for a run split into partitions that `stacklens worker` processes take from the job queue, each partition: its state, worker, attempts and progress.',
  input: refreshRunParams,
  output: refreshRunSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/refresh-runs/:runId', params: refreshRunParams },
});

export const adminActivityOperations = [getAdminClientUsageOp, listAdminAuditOp, listAdminJobsOp, getAdminJobOp, startAdminRefreshJobOp, getAdminRefreshRunOp];
