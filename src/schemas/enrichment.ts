// Enrichment of a set of companies: the request (domains inline, optional columns, format),
// the enriched row (firmographics, the stack summary by category, the columns picked) and its
// CSV form. Reused by the MCP tool (enrich_companies).
import { z } from 'zod';
import { requestExamples } from './common.ts';
import { idInput } from './text.ts';
import { domainSchema, onBehalfOfHeaders } from './params.ts';
import type { CsvColumn } from '../csv.ts';
import { defineOperation } from './operation.ts';

/** Domains one REST call may enrich (inline in the body). */
const MAX_ENRICH_DOMAINS = 10_000;
/** Domains one MCP call may enrich (its rows come back inline, as structured content). */
const MAX_ENRICH_TOOL_DOMAINS = 1_000;

/**
 * The columns a caller may add to the fixed ones, with what each holds. Contact details
 * (phone, people) are never among them: enrichment describes companies.
 */
const OPTIONAL_COLUMNS = {
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  street: z.string().nullable(),
  website: z.string().nullable(),
  logo: z.string().nullable().describe('Logo image URL'),
  linkedinUrl: z.string().nullable(),
  crunchbaseUrl: z.string().nullable(),
  description: z.string().nullable(),
  industryId: z.string().nullable(),
  foundedYear: z.number().int().nullable(),
  employeeCount: z.number().int().nullable(),
  revenueUsd: z.number().nullable(),
  lastVerified: z.string().nullable().describe('Newest verification of any technology of the company (ISO 8601); null: never observed'),
  vendors: z.array(z.string()).describe('Domains of the vendors of the technologies in use, sorted'),
} as const;

export type OptionalColumn = keyof typeof OPTIONAL_COLUMNS;
const ENRICH_OPTIONAL_COLUMNS = Object.keys(OPTIONAL_COLUMNS) as [OptionalColumn, ...OptionalColumn[]];

const technologySchema = z.object({
  productId: z.string(),
  product: z.string(),
  vendorDomain: z.string(),
  confidence: z.number().describe('Calibrated probability (0-1) that it is in use'),
  evidenceCount: z.number().int().describe('Observations behind it (the hit count)'),
});

const stackCategorySchema = z.object({
  categoryId: z.string(),
  category: z.string(),
  technologies: z.array(technologySchema).describe('By confidence, highest first, then name'),
});

const enrichedRowSchema = z
  .object({
    input: z.string().describe('The domain asked for (normalized); for a list, what the row gave: its domain, else its name'),
    found: z.boolean().describe('false: no such company; every other field is null or empty'),
    observed: z.boolean().describe('The company has evidence of any technology; false: never observed (send it to detection)'),
    companyId: z.string().nullable(),
    domain: z.string().nullable(),
    name: z.string().nullable(),
    country: z.string().nullable().describe('ISO-2'),
    industry: z.string().nullable(),
    employeeRange: z.string().nullable().describe('Employee band label'),
    revenueRange: z.string().nullable().describe('Revenue band label'),
    technologyCount: z.number().int().describe('Technologies in use'),
    stack: z.array(stackCategorySchema).describe('Technologies in use (confidence ≥ 0.5), by category name'),
    ...Object.fromEntries(Object.entries(OPTIONAL_COLUMNS).map(([k, s]) => [k, s.optional()])),
  })
  .meta({
    id: 'EnrichedCompany',
    description: 'One enriched company (one JSON Lines record); the optional columns appear only when asked for',
    examples: [
      {
        input: 'acme.com',
        found: true,
        observed: true,
        companyId: 'cmp_acme',
        domain: 'acme.com',
        name: 'Acme Corporation',
        country: 'US',
        industry: 'Software',
        employeeRange: '200 - 499',
        revenueRange: '10M - 50M',
        technologyCount: 1,
        stack: [
          {
            categoryId: 'cat_crm',
            category: 'CRM',
            technologies: [{ productId: 'prd_crm_a', product: 'HubSpot CRM', vendorDomain: 'hubspot.com', confidence: 0.93, evidenceCount: 4 }],
          },
        ],
        city: 'Austin',
      },
    ],
  });

export type EnrichedRow = {
  input: string;
  found: boolean;
  observed: boolean;
  companyId: string | null;
  domain: string | null;
  name: string | null;
  country: string | null;
  industry: string | null;
  employeeRange: string | null;
  revenueRange: string | null;
  technologyCount: number;
  stack: z.output<typeof stackCategorySchema>[];
} & Partial<{ [K in OptionalColumn]: z.output<(typeof OPTIONAL_COLUMNS)[K]> }>;

const columnsSchema = z
  .array(z.enum(ENRICH_OPTIONAL_COLUMNS))
  .max(ENRICH_OPTIONAL_COLUMNS.length)
  .default([])
  .describe(`Columns to add: ${ENRICH_OPTIONAL_COLUMNS.join(', ')} (unknown → 400)`);

const domainsSchema = (max: number) =>
  z
    .array(domainSchema())
    .min(1)
    .max(max)
    .describe(`1-${max} company domains (normalized; repeats are enriched once; unknown ones come back as rows with found=false)`);

/** Response headers of an enrichment with observeMissing: the detection job's id, and how many domains it detects. */
export const OBSERVE_JOB_HEADER = 'stacklens-observe-job';
export const OBSERVE_DOMAINS_HEADER = 'stacklens-observe-domains';

const enrichBodySchema = z
  .strictObject({
    domains: domainsSchema(MAX_ENRICH_DOMAINS).optional(),
    listId: idInput('lst_3fa1c2d4e5f60718')
      .optional()
      .describe('Or the matched companies of one of your account lists (its current version; POST /lists): give exactly one of domains and listId'),
    columns: columnsSchema,
    format: z.enum(['jsonl', 'csv']).default('jsonl').describe('jsonl (default): one EnrichedCompany per line; csv: one row per company'),
    observeMissing: z
      .boolean()
      .default(false)
      .describe(
        "Also send the accounts never observed (found without any technology evidence, or domains with no company) to detection as a background job, named in the Stacklens-Observe-Job response header; they count against the plan's detectionsPerDay",
      ),
  })
  .meta({
    id: 'EnrichRequest',
    description: 'Exactly one of `domains` and `listId`; the columns to add; the format',
    ...requestExamples({ domains: ['acme.com', 'unknown.example'], columns: ['city', 'website'], format: 'csv' }),
  });

const confidenceText = (n: number) => n.toFixed(2);

/**
 * The CSV form of a row: the fixed columns, `technologies` as `name (confidence, evidence)`
 * joined by '; ' (category by category, in the order of `stack`), `categories` as
 * `category (technologies)` joined by '; ', then the columns picked, in the order asked.
 */
export function enrichCsvColumns(columns: readonly OptionalColumn[]): CsvColumn<EnrichedRow>[] {
  const fixed: CsvColumn<EnrichedRow>[] = [
    { header: 'input', value: (r) => r.input },
    { header: 'found', value: (r) => r.found },
    { header: 'observed', value: (r) => r.observed },
    { header: 'companyId', value: (r) => r.companyId },
    { header: 'domain', value: (r) => r.domain },
    { header: 'name', value: (r) => r.name },
    { header: 'country', value: (r) => r.country },
    { header: 'industry', value: (r) => r.industry },
    { header: 'employeeRange', value: (r) => r.employeeRange },
    { header: 'revenueRange', value: (r) => r.revenueRange },
    { header: 'technologyCount', value: (r) => r.technologyCount },
    {
      header: 'technologies',
      value: (r) =>
        r.stack
          .flatMap((c) => c.technologies)
          .map((t) => `${t.product} (${confidenceText(t.confidence)}, ${t.evidenceCount})`)
          .join('; '),
    },
    { header: 'categories', value: (r) => r.stack.map((c) => `${c.category} (${c.technologies.length})`).join('; ') },
  ];
  const picked = columns.map((k): CsvColumn<EnrichedRow> => ({
    header: k,
    value: (r) => {
      const v = r[k];
      return Array.isArray(v) ? v.join('; ') : v;
    },
  }));
  return [...fixed, ...picked];
}

const ENRICH_CSV_FIXED_HEADERS = enrichCsvColumns([]).map((c) => c.header);

export const enrichCompaniesOp = defineOperation({
  id: 'enrichCompanies',
  summary: 'Enrich up to 10,000 companies by domain: firmographics and stack summary, streamed',
  description: [
    `Streams one row per distinct domain, in the order given: firmographics, \`observed\` (any technology evidence at all), and the stack summary — technologies in use with their confidence and evidence count, by category — plus the optional \`columns\` picked (${ENRICH_OPTIONAL_COLUMNS.join(', ')}). A domain with no company is a row with found=false, not an error.`,
    `format=jsonl (default): one EnrichedCompany per line. format=csv: a header row, then ${ENRICH_CSV_FIXED_HEADERS.join(', ')} and the picked columns; \`technologies\` reads \`name (confidence, evidence count)\` joined by '; '.`,
    "An export: it needs the export permission and X-On-Behalf-Of-User and is audited (rows delivered, completed or not). The companies found count against the plan's enrichRowsPerDay (per UTC day, spent when the call starts; rows not found are free): more than the whole allowance in one call → 409, past what is left today → 429 with Retry-After.",
    'A run whose rows differ from the last run over the same domains and columns records a new enrichment snapshot (its content hash); an identical re-run records none.',
    "observeMissing=true also sends the accounts never observed — found without any technology evidence, and (with domains) the domains with no company — to detection as one background job: each site fetched and matched as POST /detect does (public addresses only, robots.txt obeyed), the detections recorded in the observation log. The response's Stacklens-Observe-Job header names the job (its progress: GET /api/jobs/{jobId}) and Stacklens-Observe-Domains how many domains it detects; no header when none is missing. The domains count against the plan's detectionsPerDay with the rows, all or nothing (409/429 naming the limit).",
  ].join('\n\n'),
  tag: 'Companies',
  // The MCP arguments: short descriptions (tools/list has a byte budget).
  input: z.object({
    domains: z.array(domainSchema()).min(1).max(MAX_ENRICH_TOOL_DOMAINS),
    columns: z.array(z.enum(ENRICH_OPTIONAL_COLUMNS)).max(ENRICH_OPTIONAL_COLUMNS.length).default([]),
    observeMissing: z.boolean().default(false),
  }),
  output: enrichedRowSchema,
  stream: { media: 'application/jsonl', alsoMedia: ['text/csv'], description: 'JSON Lines of EnrichedCompany (format=jsonl) or CSV (format=csv)' },
  permission: 'export',
  rateClass: 'export',
  readOnly: true,
  attributed: true,
  http: { method: 'POST', path: '/companies/enrich', headers: onBehalfOfHeaders, body: enrichBodySchema },
  mcp: {
    name: 'enrich_companies',
    title: 'Enrich companies',
    description: `Firmographics and stack in use (confidence, evidence count) of ≤${MAX_ENRICH_TOOL_DOMAINS} domains; unknown → found=false. Export permission, onBehalfOfUser.`,
  },
});

export const enrichmentOperations = [enrichCompaniesOp];
