// A company's installed products: the Company product record (paged JSON, CSV, JSONL),
// the query of the three calls and the CSV columns. Reused by the MCP tool.
import { z } from 'zod';
import { idInput, textInput } from './text.ts';
import { boolParam, csvColumnsOf, pageQuery, pageSchema } from './common.ts';
import { dayParam, domainSchema, onBehalfOfHeaders, repeatableParam } from './params.ts';
import { DATE_BUCKETS, INTENSITY_BUCKETS, describeDateBuckets, describeIntensityBuckets } from '../intelligence/buckets.ts';
import type { CsvColumn } from '../csv.ts';
import { defineOperation } from './operation.ts';
import { EVIDENCE_PER_RECORD, observationSchema } from './evidence.ts';

export const companyParamsSchema = z.object({
  companyDomain: domainSchema('Company domain'),
});

const categorySelectionQuery = {
  mainCategory: repeatableParam(
    textInput(200).trim().min(1),
    'Category name, case-insensitive; repeatable. A parent category selects its whole subtree. Unknown name → 404',
  ),
  mainCategoryId: repeatableParam(idInput('cat_crm'), 'Category id; repeatable. A parent category selects its whole subtree. Unknown id → 404'),
  asOf: dayParam(
    'The products in use at the end of this UTC day, from the observation log: seen within the staleness window before it and not dropped since (an imported install: verified before it). Dates, hit count and intensity as of then (intensity: the strongest trace). Absent: now',
  ),
};

const companyProductsQuerySchema = z.object({
  ...pageQuery,
  ...categorySelectionQuery,
  include: z
    .enum(['evidence'])
    .optional()
    .describe(
      `evidence: each record of the JSON page carries \`evidence\`, its newest ${EVIDENCE_PER_RECORD} evidence items (the full list: .../products/{productId}/evidence). Not in the CSV`,
    ),
  export: boolParam('export', false).describe(
    'true: the CSV export of every record instead of one JSON page (export permission and X-On-Behalf-Of-User required)',
  ),
});

const companyProductsJsonlQuerySchema = z.object({
  ...categorySelectionQuery,
  export: boolParam('export', false).describe(
    'true: an attributed export (export permission and X-On-Behalf-Of-User required, audited under that user); false: a plain read of every record, audited under the client alone',
  ),
});

/** The validated input of the company-products operations (MCP tools reuse it). */
export const companyProductsInputSchema = z.object({
  companyDomain: domainSchema('Company domain'),
  ...pageQuery,
  ...categorySelectionQuery,
});
export type CompanyProductsInput = z.output<typeof companyProductsInputSchema>;

const str = z.string().nullable();
export const companyProductSchema = z
  .object({
    id: z.string().describe('Record id: company id and product id'),
    companyId: z.string(),
    company: str.describe('Company name'),
    companyDomain: z.string(),
    industry: str,
    city: str,
    state: str,
    postalCode: str,
    country: str.describe('ISO-2'),
    phone: str,
    revenueRange: str,
    employeeRange: str,
    vendorDomain: z.string(),
    vendor: z.string(),
    vendorId: z.string(),
    productId: z.string(),
    product: z.string(),
    shortName: str,
    imageUrl: str,
    productUrl: str,
    publicDetailUrl: str,
    reviewCount: z.number().int(),
    starRating: z.number().nullable(),
    avgRating: z.number().nullable(),
    mainCategory: z.string(),
    mainCategoryId: z.string(),
    parentCategory: str.describe('Parent of the main category; null at the top of the hierarchy'),
    parentCategoryId: str,
    level0Category: z.string().describe('Top of the category hierarchy (the main category itself when it is top-level)'),
    level0CategoryId: z.string(),
    dateFirstVerified: z.string().describe('ISO 8601 timestamp'),
    dateLastVerified: z.string().describe('ISO 8601 timestamp'),
    hitCount: z.number().int(),
    intensity: z.number().int().describe('Usage intensity score, 0-100'),
    intensityBucket: z.enum(INTENSITY_BUCKETS).describe(describeIntensityBuckets()),
    dateLastVerifiedBucket: z.enum(DATE_BUCKETS).describe(describeDateBuckets()),
  })
  .meta({ description: 'One product a company uses, with the evidence (dates, hit count, intensity)' });

export type CompanyProduct = z.output<typeof companyProductSchema>;

/** The record of the JSON page: with `include=evidence`, also its newest evidence items. */
const companyProductWithEvidenceSchema = companyProductSchema
  .extend({
    evidence: z
      .array(observationSchema)
      .optional()
      .describe(`With include=evidence: the newest ${EVIDENCE_PER_RECORD} evidence items (empty for an imported install without observations)`),
  })
  .meta({
    id: 'CompanyProduct',
    description: 'One product a company uses, with the evidence (dates, hit count, intensity); with include=evidence, also its newest evidence items',
  });

const companyProductPageSchema = pageSchema(companyProductWithEvidenceSchema).meta({ id: 'CompanyProductPage' });

/** CSV columns: every record field, in record order. */
export const COMPANY_PRODUCT_COLUMNS: CsvColumn<CompanyProduct>[] = csvColumnsOf(companyProductSchema);

// Operations -----------------------------------------------------------------------------------
const CSV_HEADERS = COMPANY_PRODUCT_COLUMNS.map((c) => c.header).join(', ');
const PAGED_DESCRIPTION = [
  'One page of the Company product records of a company, sorted by product name then product id (stable). `mainCategory` (name, case-insensitive) and `mainCategoryId` select categories; a parent category selects its whole subtree; an unknown name or id is 404.',
  `\`intensityBucket\`: ${describeIntensityBuckets()}. \`dateLastVerifiedBucket\`: ${describeDateBuckets()}.`,
  `With \`export=true\` the answer is the CSV of every record, sorted by product id (needs the export permission and X-On-Behalf-Of-User; audited), columns: ${CSV_HEADERS}.`,
].join('\n\n');
const csvExport = { media: 'text/csv', when: 'export', description: `CSV with a header row: ${CSV_HEADERS}` } as const;
const exportWhenAsked = { when: 'export', then: 'export' } as const;

export const companyProductsPagedOp = defineOperation({
  id: 'companyProductsPaged',
  summary: "A company's products, paged (POST with an empty body)",
  description: PAGED_DESCRIPTION,
  tag: 'Company products',
  input: companyProductsInputSchema,
  output: companyProductPageSchema,
  stream: csvExport,
  permission: exportWhenAsked,
  rateClass: exportWhenAsked,
  readOnly: true,
  attributed: true,
  http: {
    method: 'POST',
    path: '/companies/:companyDomain/products/paged',
    params: companyParamsSchema,
    query: companyProductsQuerySchema,
    headers: onBehalfOfHeaders,
    aliases: [{ id: 'companyProductsPagedGet', method: 'GET', summary: "A company's products, paged" }],
  },
  mcp: {
    name: 'company_products_paged',
    title: "A company's installed products",
    description:
      'The products a company uses, with evidence (last verified, intensity), vendor and category. mainCategory / mainCategoryId narrow to categories.',
  },
});

export const companyProductsOp = defineOperation({
  id: 'companyProducts',
  summary: "A company's products: the CSV export (export=true, Accept: text/csv) or a JSON page",
  description: `${PAGED_DESCRIPTION}\n\nWithout \`export=true\` this is the same JSON page as .../products/paged.`,
  tag: 'Company products',
  input: companyProductsInputSchema.extend({ export: companyProductsQuerySchema.shape.export }),
  output: companyProductPageSchema,
  stream: csvExport,
  permission: exportWhenAsked,
  rateClass: exportWhenAsked,
  readOnly: true,
  attributed: true,
  http: {
    method: 'GET',
    path: '/companies/:companyDomain/products',
    params: companyParamsSchema,
    query: companyProductsQuerySchema,
    headers: onBehalfOfHeaders,
  },
});

export const companyProductsJsonlOp = defineOperation({
  id: 'companyProductsJsonl',
  summary: 'Every product of a company as JSON Lines, streamed',
  description:
    'application/jsonl: one full Company product record per line (the schema of CompanyProduct), sorted by product id; timestamps are full ISO 8601. Every stream is audited (client, rows delivered, completed or not); `export=true` makes it an attributed export (export permission and X-On-Behalf-Of-User, audited under that user).',
  tag: 'Company products',
  input: companyParamsSchema.extend(companyProductsJsonlQuerySchema.shape),
  output: companyProductSchema,
  stream: { media: 'application/jsonl', description: 'JSON Lines: one CompanyProduct record per line' },
  permission: exportWhenAsked,
  // Every request of this route streams the whole list: it always spends the export quota.
  rateClass: 'export',
  readOnly: true,
  attributed: true,
  http: {
    method: 'GET',
    path: '/companies/:companyDomain/products/json',
    params: companyParamsSchema,
    query: companyProductsJsonlQuerySchema,
    headers: onBehalfOfHeaders,
  },
});

export const companyProductOperations = [companyProductsPagedOp, companyProductsOp, companyProductsJsonlOp];
