// The intelligence endpoints' contract: peers (competitors, cohorts), usage metrics (simple
// and detailed), products in use and related products — inputs and responses.
import { z } from 'zod';
import { blankOrIdInput, idInput } from './text.ts';
import { errorBodySchema, intParam, MAX_PAGE_SIZE, pageQuery, pageSchema } from './common.ts';
import { domainItemDoc, domainSchema, MAX_DOMAIN_INPUT, optionalDomainSchema } from './params.ts';
import { defineOperation } from './operation.ts';

/** The kinds of peer set the refresh job (or an import, for Defined) materializes. */
export type CohortKind = 'default' | 'defined' | 'aspirational' | 'competitors';

/** The cohort names clients send and the console offers, in that order. */
export const COHORT_TYPES = ['Default', 'Defined', 'Aspirational'] as const;
type CohortType = (typeof COHORT_TYPES)[number];

// A Map, not an object literal: a name such as 'constructor' must not find Object's prototype.
const COHORT_KINDS = new Map<string, CohortKind>(COHORT_TYPES.map((type) => [type.toLowerCase(), type.toLowerCase() as Lowercase<CohortType>]));

/** A cohort name, any case: Default, Defined or Aspirational → the stored kind. */
export const cohortParam = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const kind = COHORT_KINDS.get(v.trim().toLowerCase());
    if (!kind) {
      ctx.addIssue({ code: 'custom', message: `cohort must be one of ${COHORT_TYPES.join(', ')} (got '${v.slice(0, 40)}')` });
      return z.NEVER;
    }
    return kind;
  })
  .meta({ type: 'string', enum: [...COHORT_TYPES], maxLength: 40 })
  .describe('Cohort type (case-insensitive): Default (derived peers), Defined (curated list), Aspirational (larger, more mature peers)');

const companyDomainParam = domainSchema('Company domain');

export const competitorsInput = z.object({ companyDomain: companyDomainParam, ...pageQuery });
export type CompetitorsInput = z.output<typeof competitorsInput>;

export const cohortInput = z.object({ companyDomain: companyDomainParam, cohort: cohortParam, ...pageQuery });
export type CohortInput = z.output<typeof cohortInput>;

export const MAX_COMPARED_COMPANIES = 50;

/** An optional id: absent or blank means not given. */
const optionalId = (what: string, example: string) =>
  blankOrIdInput(example)
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v))
    .describe(`${what}; empty means not given`);

export const usageInput = z.object({
  companyDomain: companyDomainParam,
  cohort: cohortParam,
  vendorDomain: optionalDomainSchema('Only products of this vendor (domain)'),
  productId: optionalId('Only this product', 'prd_crm_a'),
});
export type UsageInput = z.output<typeof usageInput>;

const COMPARED_RULE = `give 1 to ${MAX_COMPARED_COMPANIES} company domains to compare with`;

/**
 * The compared companies: 1-50 domains. More than 50 is refused with a 413 by the operation
 * (the document says maxItems 50; the validator lets the list through so the status is 413).
 */
const comparedDomains = z
  .array(domainSchema('Domain of a company to compare with'))
  .min(1, COMPARED_RULE)
  .meta({ maxItems: MAX_COMPARED_COMPANIES })
  .describe(
    `Domains of the companies to compare with, 1-${MAX_COMPARED_COMPANIES}; duplicates are answered once. More than ${MAX_COMPARED_COMPANIES} is a 413`,
  );

/**
 * The same list where a query parameter carries it (one value, or the parameter repeated);
 * MCP arguments give an array. Absent is the same 400 as empty.
 */
const comparedDomainsParam = z
  .union([z.string().max(MAX_DOMAIN_INPUT), z.array(z.string().max(MAX_DOMAIN_INPUT))], {
    error: (issue) => (issue.input === undefined ? COMPARED_RULE : undefined),
  })
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .pipe(comparedDomains)
  .meta({ type: 'array', items: domainItemDoc, minItems: 1, maxItems: MAX_COMPARED_COMPANIES })
  .describe(
    `Domains of the companies to compare with, 1-${MAX_COMPARED_COMPANIES} (the parameter repeated); duplicates are answered once. More than ${MAX_COMPARED_COMPANIES} is a 413`,
  );

/** Optional filters of the detailed comparison (query parameters of both forms). */
const detailsFilters = z.object({
  vendorDomain: optionalDomainSchema('Only categories where the company runs a product of this vendor (domain)'),
  productId: optionalId("Only this product's category", 'prd_crm_a'),
  categoryId: optionalId('Only this category and the categories below it', 'cat_crm'),
});

/** Query of the second form (POST /companies/{d}/metrics/details): the domains and the filters; no body. */
export const detailsQuery = detailsFilters.extend({ cohortCompanyDomain: comparedDomainsParam });
export type DetailsQuery = z.output<typeof detailsQuery>;

/** Body of the first form (POST /companies/{d}/cohort/{c}/metrics/details): the domains. */
const detailsBody = z
  .union([comparedDomains, z.object({ cohortCompanyDomain: comparedDomains }).describe('The compared domains')], {
    error: (issue) => (issue.input === undefined || issue.input === null ? `cohortCompanyDomain: ${COMPARED_RULE}` : undefined),
  })
  .transform((b) => (Array.isArray(b) ? b : b.cohortCompanyDomain))
  .describe('{ "cohortCompanyDomain": [domains] }; a bare array of domains is accepted too');

/** The operation's input (also the MCP tool's): the company, the compared domains, the filters. */
export const detailsInput = z.object({
  companyDomain: companyDomainParam,
  cohort: cohortParam.optional(),
  cohortCompanyDomain: comparedDomainsParam,
  ...detailsFilters.shape,
});
export type DetailsInput = z.output<typeof detailsInput>;

export const MAX_PRODUCT_IDS = 100;

export const productsInUseInput = z.object({
  companyDomain: companyDomainParam,
  productIds: z
    .array(idInput('prd_crm_a'))
    .min(1, 'give at least one product id')
    // More than MAX_PRODUCT_IDS is refused by the operation with a 413, so the validator lets it through.
    .meta({ maxItems: MAX_PRODUCT_IDS })
    .describe(`Product ids to check, 1-${MAX_PRODUCT_IDS}; duplicates are answered once. More than ${MAX_PRODUCT_IDS} is a 413`),
});
export type ProductsInUseInput = z.output<typeof productsInUseInput>;

export const relatedInput = z.object({
  companyDomain: companyDomainParam,
  productId: idInput('prd_crm_a').describe('The anchor product'),
  cohort: cohortParam,
  page: intParam('page', 0, 1_000_000, 0).describe('0-based page number'),
  size: intParam('size', 1, MAX_PAGE_SIZE, 20).describe(`Page size, 1-${MAX_PAGE_SIZE}`),
});
export type RelatedInput = z.output<typeof relatedInput>;

export const peerSchema = z
  .object({
    domain: z.string(),
    name: z.string().nullable().describe('Company name; may be null'),
    logo: z.string().nullable().describe('URL of the company logo'),
  })
  .meta({ examples: [{ domain: 'globex.io', name: 'Globex', logo: 'https://logo.example/globex.io.png' }] })
  .describe('Peer item: a company in a cohort or competitor list');

const peerPageSchema = pageSchema(peerSchema);

export const usageMetricSchema = z
  .object({
    percentage: z.number().int().min(1).max(100).describe('Share of cohort members using the product, 1-100 (any use shows as at least 1)'),
    product: z.string(),
    category: z.string(),
    productId: z.string(),
    vendorDomain: z.string(),
    companiesUsing: z.number().int().describe('Cohort members using the product'),
    cohortSize: z.number().int().describe('Members in the cohort'),
  })
  .meta({
    examples: [
      {
        percentage: 64,
        product: 'Salesforce Sales Cloud',
        category: 'CRM',
        productId: 'prd_sf_crm',
        vendorDomain: 'salesforce.com',
        companiesUsing: 16,
        cohortSize: 25,
      },
    ],
  })
  .describe('Usage metric, simple form');

export const usageDetailRowSchema = z.object({
  similar: z.boolean().describe("The peer runs one of the company's products in this category"),
  missing: z.boolean().describe('The peer runs no product in this category'),
  different: z.boolean().describe('The peer runs another product in this category'),
  category: z.string(),
  categoryId: z.string(),
  product: z.string().optional().describe("The peer's product in the category; absent when missing"),
  productId: z.string().optional(),
  companyProducts: z.array(z.string()).describe("The company's own products in the category"),
});

export const usageDetailSchema = z
  .object({ companyDomain: z.string().describe('The compared company'), products: z.array(usageDetailRowSchema) })
  .describe("UsageMetricDTO: one compared company, category by category over the company's categories");

export const productInUseSchema = z
  .object({
    productId: z.string(),
    inUse: z.boolean().describe('confidence >= 0.5'),
    confidence: z.number().min(0).max(1).describe('Calibrated probability that the product is in use now, from the evidence; 0 without evidence'),
    lastVerified: z.string().optional().describe('ISO 8601 time of the latest verification, where evidence exists'),
    hitCount: z.number().int().optional(),
  })
  .describe('Product-in-use result');

export const relatedProductSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    logo: z.string().nullable(),
    category: z.string(),
    categoryId: z.string(),
    reviewCount: z.number().int(),
    starRating: z.number().nullable(),
    avgRating: z.number().nullable(),
    vendor: z.object({ id: z.string(), domain: z.string(), name: z.string(), logo: z.string().nullable() }),
    coUsage: z.number().describe("Estimated share of the anchor's users in the cohort who also use this product (0-1)"),
    lift: z.number().describe("coUsage divided by the product's share of all companies"),
  })
  .describe('Product related to the anchor');

export type Peer = z.output<typeof peerSchema>;
export type UsageMetric = z.output<typeof usageMetricSchema>;
export type DetailRow = z.output<typeof usageDetailRowSchema>;
export type UsageDetail = z.output<typeof usageDetailSchema>;
export type ProductInUse = z.output<typeof productInUseSchema>;
export type RelatedProduct = z.output<typeof relatedProductSchema>;

const payloadTooLarge = errorBodySchema.describe('Too many items in one request');

// Operations -----------------------------------------------------------------------------------
export const companyCompetitorsOp = defineOperation({
  id: 'companyCompetitors',
  summary: 'Competitors: up to 50 similar companies',
  description:
    'Up to 50 companies most like this one in what it does (industry, size, description), as a page of { domain, name, logo }. Unknown company → 404.',
  tag: 'Intelligence',
  input: competitorsInput,
  output: peerPageSchema,
  readOnly: true,
  attributed: false,
  http: {
    method: 'GET',
    path: '/companies/:companyDomain/competitors',
    params: competitorsInput.pick({ companyDomain: true }),
    query: competitorsInput.omit({ companyDomain: true }),
  },
  mcp: {
    name: 'company_competitors',
    title: 'Competitors',
    description: 'Up to 50 companies most like this one in what it does.',
  },
});

export const companyCohortOp = defineOperation({
  id: 'companyCohort',
  summary: 'Members of a Default, Defined or Aspirational cohort',
  description:
    'A page of { domain, name, logo }: Default (nearest peers by industry, size, region and stack), Defined (the curated list; 404 when none is configured) or Aspirational (same market, one or two size bands larger, more mature stack).',
  tag: 'Intelligence',
  input: cohortInput,
  output: peerPageSchema,
  readOnly: true,
  attributed: false,
  http: {
    method: 'GET',
    path: '/companies/:companyDomain/cohort/:cohort',
    params: cohortInput.pick({ companyDomain: true, cohort: true }),
    query: cohortInput.pick({ page: true, size: true }),
  },
  mcp: {
    name: 'company_cohort',
    title: 'Peer cohort',
    description: "A company's peers: Default (nearest by industry, size, region, stack), Defined (curated) or Aspirational (larger, more mature).",
  },
});

export const usageMetricsOp = defineOperation({
  id: 'usageMetrics',
  summary: 'Share of cohort members using each product (1-100)',
  description:
    'For each product used in the cohort: the percentage of members using it, with product, category, productId, vendorDomain, companiesUsing and cohortSize. `vendorDomain` or `productId` narrow the list.',
  tag: 'Intelligence',
  input: usageInput,
  output: z.array(usageMetricSchema),
  readOnly: true,
  attributed: false,
  http: {
    method: 'GET',
    path: '/companies/:companyDomain/cohort/:cohort/metrics/usage',
    params: usageInput.pick({ companyDomain: true, cohort: true }),
    query: usageInput.pick({ vendorDomain: true, productId: true }),
  },
  mcp: {
    name: 'usage_metrics',
    title: 'Usage in a cohort',
    description:
      "Share of the company's cohort (percentage 1-100) using each product, most used first; vendorDomain or productId narrow it. Full table: a resource link.",
  },
});

export const usageMetricsDetailsOp = defineOperation({
  id: 'usageMetricsDetails',
  summary: 'Compare the company with chosen peers, category by category',
  description: `Category by category over the company's categories, for each of 1-${MAX_COMPARED_COMPANIES} compared domains (in the body, or as repeated cohortCompanyDomain query parameters): similar (runs one of the company's products there), different (runs another product, named) or missing. More than ${MAX_COMPARED_COMPANIES} domains → 413.`,
  tag: 'Intelligence',
  input: detailsInput,
  output: z.array(usageDetailSchema),
  bulkhead: 'peers',
  readOnly: true,
  attributed: false,
  http: {
    method: 'POST',
    path: '/companies/:companyDomain/cohort/:cohort/metrics/details',
    params: z.object({ companyDomain: detailsInput.shape.companyDomain, cohort: detailsInput.shape.cohort.unwrap() }),
    query: detailsFilters,
    body: detailsBody,
    errors: { 413: payloadTooLarge },
    // The second form names the compared domains as repeated query parameters and has no body.
    aliases: [
      {
        id: 'usageMetricsDetailsWithoutCohort',
        path: '/companies/:companyDomain/metrics/details',
        params: detailsInput.pick({ companyDomain: true }),
        query: detailsQuery,
        body: null,
        summary: 'Compare the company with chosen peers (domains as repeated cohortCompanyDomain query parameters)',
      },
    ],
  },
  mcp: {
    name: 'usage_metrics_details',
    title: 'Compare stacks',
    description:
      "Compares the company's categories with 1-50 companies (cohortCompanyDomain): similar, different (names the product) or missing. Full table: a resource link.",
  },
});

export const productsInUseOp = defineOperation({
  id: 'productsInUse',
  summary: 'Whether the company uses each product now, with a calibrated confidence',
  description: `For 1-${MAX_PRODUCT_IDS} product ids: inUse and a calibrated confidence (0-1) from the install evidence, with lastVerified and hitCount where evidence exists. Ids without evidence (or unknown) answer inUse false, confidence 0. More than ${MAX_PRODUCT_IDS} ids → 413.`,
  tag: 'Intelligence',
  input: productsInUseInput,
  output: z.array(productInUseSchema),
  readOnly: true,
  attributed: false,
  idempotent: true,
  http: {
    method: 'POST',
    path: '/companies/:companyDomain/products-in-use',
    params: productsInUseInput.pick({ companyDomain: true }),
    body: productsInUseInput.pick({ productIds: true }),
    errors: { 413: payloadTooLarge },
  },
  mcp: {
    name: 'products_in_use',
    title: 'Products in use',
    description: 'For 1-100 product ids: inUse and a calibrated confidence 0-1 from the evidence. Use it to verify suggestions.',
  },
});

export const relatedProductsOp = defineOperation({
  id: 'relatedProducts',
  summary: 'Products co-used with the anchor product in the cohort, ranked',
  description:
    "Products co-used with the anchor product by the company's cohort, falling back on all companies when the cohort is small; ranked by lift, each with coUsage and lift. Never the anchor itself.",
  tag: 'Intelligence',
  input: relatedInput,
  output: z.array(relatedProductSchema),
  readOnly: true,
  attributed: false,
  http: {
    method: 'GET',
    path: '/companies/:companyDomain/products/:productId/related',
    params: relatedInput.pick({ companyDomain: true, productId: true }),
    query: relatedInput.pick({ cohort: true, page: true, size: true }),
  },
  mcp: {
    name: 'products_related_in_cohort',
    title: 'Related products',
    description: 'Products the cohort uses together with an anchor product (productId), ranked by lift, with coUsage.',
  },
});

export const intelligenceOperations = [companyCompetitorsOp, companyCohortOp, usageMetricsOp, usageMetricsDetailsOp, productsInUseOp, relatedProductsOp];
