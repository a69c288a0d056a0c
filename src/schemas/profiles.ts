// Schemas of the people resource: profile search (JSON page or CSV), one profile, purchases
// of contact details and the credit balance. The input schemas are also the MCP tool inputs.
import { z } from 'zod';
import { idInput, textInput } from './text.ts';
import { boolParam, errorBodySchema, fieldsOf, intParam, MAX_PAGE_SIZE, pageQuery, pageSchema, requestExamples, searchPageParam } from './common.ts';
import { onBehalfOfUserHeader, optionalDomainSchema } from './params.ts';
import { defineOperation } from './operation.ts';

/** Largest number of values one search filter takes. */
const MAX_FILTER_VALUES = 100;
/** Largest number of profile ids one purchase takes; more is a 413. */
export const MAX_PURCHASE_IDS = 100;

const filterText = (max: number) => textInput(max);
const filterList = (what: string) =>
  z
    .array(filterText(200))
    .max(MAX_FILTER_VALUES, `at most ${MAX_FILTER_VALUES} values`)
    .optional()
    .describe(`${what}. Any of the values matches (OR); blank values are ignored.`);

/** The search filters, shared by the REST body and the MCP tool. Filters combine with AND. */
const profileFilterFields = {
  query: filterText(200)
    .optional()
    .describe('Free text over full name, job title and company name; every word must match one of them (case-insensitive contains)'),
  titles: filterList(
    'Job titles, matched as whole words or phrases, case-insensitive ("CTO" matches "CTO" and "Deputy CTO", never "Director"); a C-level acronym also matches its spelled-out form ("CTO" → "Chief Technology Officer")',
  ),
  seniority: filterList('Seniority levels (e.g. "Senior", "Director", "VP", "C-Level"), case-insensitive exact'),
  functions: filterList('Job functions (e.g. "Engineering", "Sales", "Marketing"), case-insensitive exact'),
  countries: filterList('Countries as ISO 3166-1 alpha-2 codes or English names ("DE", "Germany"); an unknown country is a 400'),
  companyDomains: z
    .array(optionalDomainSchema('Company domain'))
    .max(MAX_FILTER_VALUES, `at most ${MAX_FILTER_VALUES} values`)
    .transform((list) => list.filter((d): d is string => d !== undefined))
    .optional()
    .describe('Company domains; invalid is a 400, unknown a 404. Any of the values matches (OR); blank values are ignored.'),
  industries: filterList('Industries of the person\'s company, by id ("ind_software") or name; unknown is a 404'),
};

const AT_LEAST_ONE_FILTER =
  'At least one meaningful filter is required: a non-blank query or a list with a non-blank value (page and size do not count); else 400';
const SEARCH_EXAMPLE = { titles: ['Head of Marketing'], countries: ['DE'] };

/**
 * Service input of a profile search: filters plus paging. The at-least-one-filter rule is
 * checked by the operation (blank values do not count, which JSON Schema cannot say); the
 * document shows it as minProperties 1 and in the description.
 */
export const profileSearchInput = z
  .object({ ...profileFilterFields, page: searchPageParam('the page of matches'), size: pageQuery.size })
  .meta({ minProperties: 1, ...requestExamples(SEARCH_EXAMPLE) })
  .describe(AT_LEAST_ONE_FILTER);
export type ProfileSearchInput = z.output<typeof profileSearchInput>;

/** REST body: the filters; `page`/`size` may be sent here or in the query string. */
const profileSearchBody = z
  .object({
    ...profileFilterFields,
    page: searchPageParam('also accepted as a query parameter').optional(),
    size: pageQuery.size.optional(),
  })
  .meta({ minProperties: 1, ...requestExamples(SEARCH_EXAMPLE) })
  .describe(AT_LEAST_ONE_FILTER);

const profileSearchQuery = z.object({
  export: boolParam('export', false).describe('true streams every match as CSV (no paging), attributed to X-On-Behalf-Of-User; needs the export permission'),
  page: searchPageParam('or in the body').optional(),
  size: intParam('size', 1, MAX_PAGE_SIZE, 20).optional().describe(`Page size, 1-${MAX_PAGE_SIZE} (default 20)`),
});

// Loose: Fastify replaces request.headers with the validated value, and later hooks still
// need the headers this schema does not name.
const onBehalfHeaders = z.looseObject({
  'x-on-behalf-of-user': onBehalfOfUserHeader(
    'Email of the user the action is done for; required for exports and purchases (403 when missing, 400 when not an email)',
  ),
});

const nullableText = (text: string) => z.string().nullable().describe(text);

export const profileSummarySchema = z
  .object({
    id: z.string().describe('Profile id'),
    fullName: z.string(),
    title: nullableText('Job title'),
    seniority: nullableText('Seniority level'),
    function: nullableText('Job function'),
    companyName: nullableText("Name of the person's company"),
    companyDomain: nullableText("Domain of the person's company"),
    country: nullableText('ISO 3166-1 alpha-2 country code'),
    city: nullableText('City'),
    linkedinUrl: nullableText('LinkedIn profile URL'),
  })
  .meta({
    examples: [
      {
        id: 'per_001',
        fullName: 'Ada Example',
        title: 'Head of Marketing',
        seniority: 'Director',
        function: 'Marketing',
        companyName: 'Acme Corporation',
        companyDomain: 'acme.com',
        country: 'DE',
        city: 'Berlin',
        linkedinUrl: 'https://www.linkedin.com/in/ada-example',
      },
    ],
  })
  .describe('Profile summary; never carries emails or phones');
export type ProfileSummary = z.output<typeof profileSummarySchema>;

const profilePageSchema = pageSchema(profileSummarySchema).describe('Page of profile summaries, ordered by profile id');

/** CSV columns of a profile export, in order: the Profile summary fields (derived, like the other exports). */
export const PROFILE_CSV_COLUMNS = fieldsOf(profileSummarySchema);

const profileCsvSchema = z.string().describe(`CSV (export=true): header row then one row per profile; columns ${PROFILE_CSV_COLUMNS.join(', ')}`);

const emailSchema = z.object({
  value: z.string().describe('Email address'),
  type: z.string().nullable().describe('e.g. work, personal'),
  verified: z.boolean().describe('Whether the address was verified deliverable'),
});
const phoneSchema = z.object({
  value: z.string().describe('Phone number'),
  type: z.string().nullable().describe('e.g. mobile, direct, office'),
});

const profileIdParams = z.object({
  profileId: idInput('per_001').describe('Profile id'),
});
const profileGetInput = profileIdParams;

export const profileDetailSchema = profileSummarySchema
  .extend({
    purchased: z.boolean().describe('Whether this client has bought the contact details'),
    purchasedAt: z.iso.datetime().nullable().describe('When this client bought them (ISO 8601), null if not purchased'),
    emails: z.array(emailSchema).optional().describe('Present only when purchased'),
    phones: z.array(phoneSchema).optional().describe('Present only when purchased'),
  })
  .describe('Profile summary plus, once purchased by this client, its emails and phones');
export type ProfileDetail = z.output<typeof profileDetailSchema>;

// Purchases --------------------------------------------------------------------------------

const profileIdItem = idInput('per_001');

export const profilePurchaseInput = z.object({
  profileIds: z
    .array(profileIdItem)
    .min(1, 'at least one profile id is required')
    // A generous hard cap for validation; the real limit (MAX_PURCHASE_IDS) answers 413,
    // and the document states that limit.
    .max(10_000, 'far too many profile ids')
    .meta({ maxItems: MAX_PURCHASE_IDS, examples: [['per_001', 'per_002']] })
    .describe(`Profile ids to buy, 1-${MAX_PURCHASE_IDS}; duplicates are answered once. More than ${MAX_PURCHASE_IDS} is a 413`),
});
export type ProfilePurchaseInput = z.output<typeof profilePurchaseInput>;

/** An Idempotency-Key: 1-255 visible ASCII characters (no spaces). */
const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1-255 visible ASCII characters (no spaces)')
  .meta({ minLength: 1, maxLength: 255, examples: ['order-2026-10-01-42'] });

export const purchaseHeaders = onBehalfHeaders.extend({
  'idempotency-key': idempotencyKeySchema
    .optional()
    .describe('Optional, 1-255 visible ASCII characters. Same key and body → the stored response; same key with another body → 422'),
});

const purchaseStatusSchema = z.enum(['purchased', 'already_purchased', 'not_found']);

const purchaseResultSchema = z.object({
  profileId: z.string(),
  status: purchaseStatusSchema.describe('purchased: charged one credit now; already_purchased and not_found: no charge'),
  emails: z.array(emailSchema).describe('Empty when not_found'),
  phones: z.array(phoneSchema).describe('Empty when not_found'),
});

export const purchaseResponseSchema = z.object({
  results: z.array(purchaseResultSchema).describe('One result per distinct requested id, in request order'),
  charged: z.number().int().describe('Credits charged by this request (one per newly purchased profile)'),
  balance: z.number().int().describe('Credit balance after this request'),
});
export type PurchaseResponse = z.output<typeof purchaseResponseSchema>;

// Credits ----------------------------------------------------------------------------------

const creditsQuery = z.object({
  limit: intParam('limit', 1, 200, 50).describe('How many recent ledger entries to return, 1-200 (default 50)'),
});
const creditsInput = creditsQuery;

export const ledgerEntrySchema = z.object({
  id: z.number().int().describe('Ledger entry id; larger is newer'),
  delta: z.number().int().describe('Credits added (positive) or spent (negative)'),
  reason: z.string().describe('initial_grant, grant, purchase...'),
  reference: z.string().nullable().describe('What the movement is about: the profile id of a purchase, the plan of a grant'),
  createdAt: z.iso.datetime().describe('ISO 8601 timestamp'),
});

export const creditsSchema = z.object({
  clientId: z.string(),
  balance: z.number().int().describe('Credits available now'),
  ledger: z.array(ledgerEntrySchema).describe('Most recent entries, newest first'),
});
export type Credits = z.output<typeof creditsSchema>;

// Operations -----------------------------------------------------------------------------------
export const searchProfilesOp = defineOperation({
  id: 'searchProfiles',
  summary: 'Search people profiles',
  description:
    'Filters combine with AND; values inside a list with OR. At least one meaningful filter is required. ' +
    'Results are ordered by profile id and never include emails or phones. ' +
    'With export=true every match streams as CSV (text/csv) instead, which needs the export permission and X-On-Behalf-Of-User and is audited.',
  tag: 'People',
  input: profileSearchInput,
  output: profilePageSchema,
  stream: { media: 'text/csv', when: 'export', description: profileCsvSchema.description ?? 'CSV' },
  permission: { when: 'export', then: 'export' },
  rateClass: { when: 'export', then: 'export' },
  bulkhead: 'search',
  readOnly: true,
  attributed: true,
  http: { method: 'POST', path: '/profiles/search', query: profileSearchQuery, body: profileSearchBody },
  mcp: {
    name: 'profiles_search',
    title: 'Search people profiles',
    description:
      'Finds people by free text and filters (titles, seniority, functions, countries, companyDomains, industries). No emails or phones: profiles_purchase buys them.',
  },
});

export const getProfileOp = defineOperation({
  id: 'getProfile',
  summary: 'One people profile; emails and phones once purchased by this client',
  description: 'The profile summary with `purchased`; emails and phones only when this client has bought the profile. Unknown id → 404.',
  tag: 'People',
  input: profileGetInput,
  output: profileDetailSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/profiles/:profileId', params: profileIdParams },
  mcp: {
    name: 'profile_get',
    title: 'Read a profile',
    description: 'One profile by id, with purchased; emails and phones once this client has bought them.',
  },
});

export const purchaseProfilesOp = defineOperation({
  id: 'purchaseProfiles',
  summary: 'Buy the contact details of profiles (one credit per new profile)',
  description:
    'All-or-nothing: when the credits do not cover the profiles not yet bought, 402 and nothing is charged. ' +
    'already_purchased and not_found cost nothing. Exactly once per client and profile, also under concurrency. ' +
    'An Idempotency-Key makes retries safe: the same key and body return the stored response (header Idempotent-Replayed: true).',
  tag: 'People',
  input: profilePurchaseInput.extend({
    idempotencyKey: idempotencyKeySchema
      .optional()
      .describe('Optional key (1-255 visible ASCII characters): a retry with the same key and ids returns the first answer'),
  }),
  output: purchaseResponseSchema,
  permission: 'purchase',
  readOnly: false,
  attributed: true,
  idempotent: true,
  http: {
    method: 'POST',
    path: '/profiles/purchase',
    headers: purchaseHeaders,
    body: profilePurchaseInput,
    errors: {
      402: errorBodySchema.describe('Not enough credits for the profiles not yet bought; nothing was charged'),
      413: errorBodySchema.describe('More than 100 profile ids (duplicates included)'),
      422: errorBodySchema.describe('The Idempotency-Key was already used with a different request'),
    },
  },
  mcp: {
    name: 'profiles_purchase',
    title: 'Buy contact details',
    description:
      'Buys the emails and phones of 1-100 profiles: one credit per new profile, all or nothing (402 when credits are short). Needs onBehalfOfUser; idempotencyKey makes retries safe.',
  },
});

export const getCreditsOp = defineOperation({
  id: 'getCredits',
  summary: 'Credit balance and the most recent ledger entries',
  description: 'The credits left for buying contact details and the most recent ledger entries, newest first.',
  tag: 'People',
  input: creditsInput,
  output: creditsSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/credits', query: creditsQuery },
  mcp: {
    name: 'credits_balance',
    title: 'Credit balance',
    description: 'The credits left for buying contact details, with the latest ledger entries.',
  },
});

export const profileOperations = [searchProfilesOp, getProfileOp, purchaseProfilesOp, getCreditsOp];
