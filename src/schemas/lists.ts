// Account lists: a client's uploaded accounts (CSV, JSONL or JSON rows), versioned, each row
// matched to a company (by domain, then name + country) or sent to the review queue or left
// with a reason. Create, re-upload (a new version), list, read, rows, diff, review, delete.
import { z } from 'zod';
import { boolParam, errorBodySchema, pageQuery, pageSchema, requestExamples } from './common.ts';
import { domainSchema } from './params.ts';
import { idInput, textInput } from './text.ts';
import { defineOperation } from './operation.ts';

/** Bytes of one upload (the REST body limit of the upload routes). */
export const MAX_LIST_UPLOAD_BYTES = 64 * 1024 * 1024;
/** Rows an upload may give inline as JSON (`rows`): the MCP tool's small lists. */
const MAX_INLINE_LIST_ROWS = 1000;

const LIST_ROW_STATUSES = ['matched', 'review', 'unmatched'] as const;
/** Why a row is not matched (or waits for review). */
const LIST_MISS_REASONS = ['no_domain_or_name', 'domain_unknown', 'name_unknown', 'name_unknown_in_country', 'ambiguous', 'rejected'] as const;
const LIST_MATCH_METHODS = ['domain', 'domain_redirect', 'domain_variant', 'name', 'review'] as const;

const rowValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);
const inlineRow = z
  .record(z.string().max(200), rowValue)
  .describe('One account: domain and/or name, country (ISO 3166-1 alpha-2), any other fields kept as they are');

const uploadBody = z
  .strictObject({
    name: textInput(200).trim().min(1).optional().describe('The list name (or the `name` query parameter); required for a new list'),
    format: z.enum(['csv', 'jsonl']).optional().describe('The format of `content`'),
    content: z
      .string()
      .max(MAX_LIST_UPLOAD_BYTES)
      .optional()
      .describe('The file: CSV with a header row, or JSON Lines (one object per line). A raw text/csv or application/x-ndjson body is the same'),
    rows: z.array(inlineRow).min(1).max(MAX_INLINE_LIST_ROWS).optional().describe(`Or the rows inline (1-${MAX_INLINE_LIST_ROWS})`),
  })
  .meta({
    id: 'ListUpload',
    description: 'Exactly one of `content` (with `format`) and `rows`. A text/csv or application/x-ndjson body is read as `content` of that format',
    ...requestExamples({ name: 'Target accounts', rows: [{ domain: 'acme.com', name: 'Acme', country: 'US', owner: 'kim' }] }),
  });
export type ListUploadInput = z.output<typeof uploadBody>;

const nameQuery = z.object({ name: textInput(200).trim().min(1).optional().describe('The list name (with a raw CSV/JSONL body)') });
const uploadQuery = nameQuery.extend({
  async: boolParam('async', false).describe(
    "true: run the upload as a background job (202 with the job; poll its Location). An upload of more rows than the deployment's LIST_ASYNC_ROWS (default 20,000) always does",
  ),
});
const listIdParams = z.object({ listId: idInput('lst_3fa1c2d4e5f60718').describe('List id') });

const missReasons = z.record(z.string(), z.number().int()).describe(`Rows not matched, by reason: ${LIST_MISS_REASONS.join(', ')}`);

export const accountListSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.number().int().describe('The current version (1 for the first upload)'),
    rows: z.number().int(),
    matched: z.number().int(),
    review: z.number().int().describe('Rows waiting in the review queue'),
    unmatched: z.number().int(),
    matchRate: z.number().describe('matched / rows (0 for an empty list)'),
    missReasons,
    diff: z
      .object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() })
      .nullable()
      .describe('Against the previous version; null for version 1'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AccountList' });
export type AccountList = z.output<typeof accountListSchema>;

export const listUploadJobSchema = z
  .object({
    id: z.string().describe('Job id'),
    status: z
      .enum(['running', 'succeeded', 'failed'])
      .describe('failed: the error says why (a bad row names its line and field; cancelled); nothing of the upload is stored'),
    listId: z.string().describe('The list the upload becomes a version of (a new list exists once the job succeeds)'),
    version: z.number().int().nullable().describe('The version written, once succeeded'),
    phase: z.string().nullable().describe('queued, matching, publishing'),
    done: z.number().int().describe('Rows matched and kept so far'),
    total: z.number().int().describe('Rows of the upload (estimated from its lines until read)'),
    error: z.string().nullable(),
    list: accountListSchema.nullable().describe('The list once the job succeeded'),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'AccountListUploadJob' });
export type ListUploadJob = z.output<typeof listUploadJobSchema>;

const candidateSchema = z.object({ companyDomain: z.string(), name: z.string().nullable(), country: z.string().nullable(), score: z.number() });

export const listRowSchema = z
  .object({
    line: z.number().int().describe('Line of the row in its file (the CSV header is line 1; inline rows count from 1)'),
    key: z.string().describe('What the row is known by across versions: its normalized domain, else name|country'),
    domain: z.string().nullable(),
    name: z.string().nullable(),
    country: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).describe('The other columns, as uploaded'),
    status: z.enum(LIST_ROW_STATUSES),
    companyDomain: z.string().nullable().describe('The matched company'),
    method: z.enum(LIST_MATCH_METHODS).nullable(),
    score: z.number().nullable(),
    reason: z.enum(LIST_MISS_REASONS).nullable(),
    candidates: z.array(candidateSchema).describe('For a row in review: the companies it may be, best first'),
  })
  .meta({ id: 'AccountListRow' });
export type ListRow = z.output<typeof listRowSchema>;

const rowsQuery = z.object({ ...pageQuery, status: z.enum(LIST_ROW_STATUSES).optional().describe('Only rows of this status') });

const diffParams = listIdParams.extend({ version: z.coerce.number().int().min(1).max(1_000_000).describe('The version compared with the one before it') });
const diffRowSchema = z.object({
  change: z.enum(['added', 'removed', 'changed']),
  key: z.string(),
  before: listRowSchema.nullable(),
  after: listRowSchema.nullable(),
});
const diffSchema = z
  .object({
    version: z.number().int(),
    previous: z.number().int().nullable(),
    added: z.number().int(),
    removed: z.number().int(),
    changed: z.number().int(),
    rows: pageSchema(diffRowSchema),
  })
  .meta({ id: 'AccountListDiff' });

const reviewParams = listIdParams.extend({ line: z.coerce.number().int().min(1).max(100_000_000).describe('The line of the row in review') });
const reviewBody = z
  .strictObject({
    action: z.enum(['accept', 'reject', 'pick']).describe('accept: the best candidate; reject: no match; pick: the company of `companyDomain`'),
    companyDomain: domainSchema('Company domain').optional().describe('With pick: the company the row is (unknown → 404)'),
  })
  .meta({ id: 'ListReviewDecision', ...requestExamples({ action: 'accept' }) });

const tag = 'Lists' as const;
const jobIdParams = z.object({
  jobId: z
    .string()
    .regex(/^\d{1,18}$/, 'must be a job id (digits)')
    .describe('Upload job id (from the 202 of an upload)')
    .meta({ maxLength: 18, examples: ['1'] }),
});
const accepted = { 202: listUploadJobSchema.describe('Accepted: the upload runs as a job; Location is the job to poll (GET /api/list-uploads/{jobId})') };
const tooMany = {
  409: errorBodySchema.describe('Too many rows for the plan'),
  413: errorBodySchema.describe('The upload is larger than the plan or the deployment allows'),
};

export const createListOp = defineOperation({
  id: 'createList',
  summary: 'Upload an account list',
  description: [
    'Uploads accounts (columns `domain` and/or `name`, `country`; any other columns are kept as they are) as CSV or JSON Lines (`content` with `format`, or a raw text/csv or application/x-ndjson body with `?name=`), or inline `rows`. Each row is matched to a company: by normalized domain (www, country-code variants such as acme.de for acme.com), then by name and country with a similarity score. Confident matches are `matched`; ambiguous ones wait in the review queue; the others carry a reason.',
    'A row breaking a rule (bad domain or country, a duplicate key, unreadable) → 400 naming its line and field; nothing is stored. More rows than the plan allows (maxListRows) → 413.',
  ].join('\n\n'),
  tag,
  input: nameQuery.extend(uploadBody.shape),
  output: accountListSchema,
  readOnly: false,
  attributed: false,
  http: { method: 'POST', path: '/lists', query: uploadQuery, body: uploadBody, errors: { ...accepted, ...tooMany } },
  mcp: {
    name: 'lists_upload',
    title: 'Upload an account list',
    description: 'Upload accounts inline (rows: domain and/or name, country; ≤1,000) and match them to companies. Returns the list id and match rate.',
  },
});

export const uploadListVersionOp = defineOperation({
  id: 'uploadListVersion',
  summary: 'Re-upload an account list (a new version)',
  description:
    'The same body as POST /lists: the upload becomes the next version and the list reports its diff with the one before (rows added, removed, changed, by key). Nothing is stored when a row breaks a rule.',
  tag,
  input: listIdParams.extend(nameQuery.shape).extend(uploadBody.shape),
  output: accountListSchema,
  readOnly: false,
  attributed: false,
  http: { method: 'POST', path: '/lists/:listId/versions', params: listIdParams, query: uploadQuery, body: uploadBody, errors: { ...accepted, ...tooMany } },
});

export const listListsOp = defineOperation({
  id: 'listLists',
  summary: 'Your account lists',
  description: "The calling client's lists, oldest first, paged.",
  tag,
  input: z.object(pageQuery),
  output: pageSchema(accountListSchema).meta({ id: 'AccountListPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/lists', query: z.object(pageQuery) },
});

export const getListOp = defineOperation({
  id: 'getList',
  summary: 'One account list',
  description: "One of the calling client's lists with its match rate and miss reasons; another client's list is not found (404).",
  tag,
  input: listIdParams,
  output: accountListSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/lists/:listId', params: listIdParams },
  mcp: { name: 'lists_get', title: 'An account list', description: 'An account list by id: rows, match rate, miss reasons, review count.' },
});

export const listRowsOp = defineOperation({
  id: 'listListRows',
  summary: "An account list's rows",
  description: 'The rows of the current version in file order, with their match; `status` narrows them.',
  tag,
  input: listIdParams.extend(rowsQuery.shape),
  output: pageSchema(listRowSchema).meta({ id: 'AccountListRowPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/lists/:listId/rows', params: listIdParams, query: rowsQuery },
});

export const listReviewOp = defineOperation({
  id: 'listListReview',
  summary: "An account list's review queue",
  description: 'The rows of the current version whose match is ambiguous, each with its candidates (best first).',
  tag,
  input: listIdParams.extend(pageQuery),
  output: pageSchema(listRowSchema).meta({ id: 'AccountListReviewPage' }),
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/lists/:listId/review', params: listIdParams, query: z.object(pageQuery) },
});

export const reviewListRowOp = defineOperation({
  id: 'reviewListRow',
  summary: 'Decide a row in review',
  description:
    'accept (the best candidate), reject (unmatched, reason `rejected`) or pick (the company of `companyDomain`) for a row of the current version. A row not in review → 409; an unknown line → 404.',
  tag,
  input: reviewParams.extend(reviewBody.shape),
  output: listRowSchema,
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: {
    method: 'POST',
    path: '/lists/:listId/review/:line',
    params: reviewParams,
    body: reviewBody,
    errors: { 409: errorBodySchema.describe('The row is not in review') },
  },
});

export const getListDiffOp = defineOperation({
  id: 'getListDiff',
  summary: 'What a version changed',
  description: 'The rows a version added, removed or changed against the version before it (by key: normalized domain, else name|country), counted and paged.',
  tag,
  input: diffParams.extend(pageQuery),
  output: diffSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/lists/:listId/versions/:version/diff', params: diffParams, query: z.object(pageQuery) },
});

export const deleteListOp = defineOperation({
  id: 'deleteList',
  summary: 'Delete an account list',
  description: 'Deletes the list with every version. Unknown → 404.',
  tag,
  input: listIdParams,
  output: z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'AccountListDeleted' }),
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'DELETE', path: '/lists/:listId', params: listIdParams },
});

export const getListUploadOp = defineOperation({
  id: 'getListUpload',
  summary: 'A list upload running as a job',
  description: "Progress of a large upload (rows matched of rows), then the list it became or why it failed. Another client's job → 404.",
  tag,
  input: jobIdParams,
  output: listUploadJobSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/list-uploads/:jobId', params: jobIdParams },
});

export const cancelListUploadOp = defineOperation({
  id: 'cancelListUpload',
  summary: 'Cancel a list upload',
  description: 'Stops a running upload job; nothing of the upload is kept. A finished job → 409.',
  tag,
  input: jobIdParams,
  output: listUploadJobSchema,
  readOnly: false,
  attributed: false,
  idempotent: true,
  http: { method: 'DELETE', path: '/list-uploads/:jobId', params: jobIdParams, errors: { 409: errorBodySchema.describe('The job has already ended') } },
});

export const listOperations = [
  createListOp,
  uploadListVersionOp,
  listListsOp,
  getListOp,
  listRowsOp,
  listReviewOp,
  reviewListRowOp,
  getListDiffOp,
  deleteListOp,
  getListUploadOp,
  cancelListUploadOp,
];
