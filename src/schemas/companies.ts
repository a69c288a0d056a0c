// Company search: the request (both body shapes, in any mix), the Company
// summary it returns and the CSV columns of its export. Reused by the MCP tool.
import { z } from 'zod';
import { idInput, textInput } from './text.ts';
import { boolParam, csvColumnsOf, intParam, MAX_PAGE_SIZE, pageSchema, searchPageParam } from './common.ts';
import { countrySchema, dayParam, domainSchema, onBehalfOfHeaders } from './params.ts';
import { DATE_BUCKETS, INTENSITY_BUCKETS, describeDateBuckets, describeIntensityBuckets } from '../intelligence/buckets.ts';
import { EMPLOYEE_BAND_LABELS, REVENUE_BAND_LABELS } from '../bands.ts';
import type { CsvColumn } from '../csv.ts';
import { defineOperation } from './operation.ts';

const MAX_LIST = 500;
const text = (max = 200) => textInput(max).trim().min(1);
const id = () => idInput('prd_crm_a');
const list = <T extends z.ZodType>(item: T, description: string) => z.array(item).max(MAX_LIST).optional().describe(description);
const and = (description: string) => z.boolean().optional().describe(description);

/** The orders a search can ask for: a field, or the field reversed with a leading '-'. */
export const COMPANY_SORTS = ['name', '-name', 'employees', '-employees', 'revenue', '-revenue', 'country', '-country'] as const;

const employeeBand = z.enum(EMPLOYEE_BAND_LABELS);
const revenueBand = z.enum(REVENUE_BAND_LABELS);

const companySearchFilterSchema = z
  .strictObject({
    companyNameContains: text().optional().describe('Case-insensitive substring of the company name'),
    vendorDomainIn: list(domainSchema(), 'Companies using a product of these vendors (any; all when vendorDomainInAnd). Unknown vendor → 404'),
    vendorDomainInAnd: and('true: the company must use every listed vendor; false (default): any'),
    vendorDomainNotIn: list(domainSchema(), 'Exclude companies using these vendors (any; only those using all when vendorDomainNotInAnd)'),
    vendorDomainNotInAnd: and('true: excluded only if it uses every listed vendor; false (default): any'),
    productIdIn: list(id(), 'Companies using these products (any; all when productIdInAnd). Unknown product → 404'),
    productIdInAnd: and('true: the company must use every listed product; false (default): any'),
    productIdNotIn: list(id(), 'Exclude companies using these products'),
    productIdNotInAnd: and('true: excluded only if it uses every listed product; false (default): any'),
    mainCategoryIdIn: list(
      idInput('cat_crm'),
      'Companies using a product in these categories; a parent category covers its whole subtree. Unknown category → 404',
    ),
    mainCategoryIdInAnd: and('true: a product in every listed category; false (default): any'),
    mainCategoryIdNotIn: list(idInput('cat_crm'), 'Exclude companies using a product in these categories (subtrees included)'),
    mainCategoryIdNotInAnd: and('true: excluded only if it has products in every listed category; false (default): any'),
    intensityBucketIn: z
      .array(z.enum(INTENSITY_BUCKETS))
      .max(3)
      .optional()
      .describe(
        `Only installs of these intensity buckets count for the vendor/product/category filters (${describeIntensityBuckets()}, on the 0-100 intensity score). Alone, it keeps companies with at least one such install`,
      ),
    dateLastVerifiedBucketIn: z
      .array(z.enum(DATE_BUCKETS))
      .max(4)
      .optional()
      .describe(
        `Only installs last verified in these buckets count for the vendor/product/category filters (${describeDateBuckets()}). Alone, it keeps companies with at least one such install`,
      ),
    companyDomainIn: list(domainSchema(), 'Only these company domains (unknown → 404)'),
    industryIn: list(text(), 'Industry names or ids (see GET /industries); unknown → 400'),
    countryIn: list(countrySchema(), 'Country names or ISO-2 codes'),
    stateIn: list(text(), 'States or regions (case-insensitive exact)'),
    cityIn: list(text(), 'Cities (case-insensitive exact)'),
    postalCodeIn: list(text(40), 'Postal codes (exact)'),
    employeeRangeIn: list(employeeBand, 'Employee band labels'),
    revenueRangeIn: list(revenueBand, 'Revenue band labels'),
  })
  .describe('Structured filter; every given field must hold (AND)');

export const companySearchBodySchema = z
  .strictObject({
    page: searchPageParam('also accepted as a query parameter').optional(),
    size: intParam('size', 1, MAX_PAGE_SIZE, 20).optional().describe(`Page size, 1-${MAX_PAGE_SIZE}, default 20 (also accepted as a query parameter)`),
    filter: companySearchFilterSchema.optional(),
    query: textInput(200).trim().optional().describe('Free text: every word must appear in the name, domain or industry'),
    countries: list(countrySchema(), 'ISO-2 country codes (country names accepted)'),
    industries: list(text(), 'Industry names or ids (see GET /industries); unknown → 400'),
    employeeRange: list(employeeBand, `Employee bands: ${EMPLOYEE_BAND_LABELS.join(' | ')}`),
    revenueRange: list(revenueBand, `Revenue bands: ${REVENUE_BAND_LABELS.join(' | ')}`),
    domains: list(domainSchema(), 'Only these company domains (normalized; unknown → 404)'),
    asOf: dayParam(
      'The technology filters (products, vendors, categories, buckets) read the stacks at the end of this UTC day, from the observation log: companies that used X on that date. Absent: today',
    ),
    sort: z
      .enum(COMPANY_SORTS)
      .optional()
      .describe(
        'Order of the results and the export: name (default), employees, revenue (by band) or country; a leading - reverses it. Companies without the value come last; ties by name, then id',
      ),
  })
  .meta({
    id: 'CompanySearchRequest',
    description: 'Both body shapes, in any mix: top-level free text and lists, and a structured `filter`. Everything given must hold (AND).',
  });

export type CompanySearchInput = z.output<typeof companySearchBodySchema>;

const companySearchQuerySchema = z.object({
  export: boolParam('export', false).describe('true: stream every matching company as CSV (needs the export permission and X-On-Behalf-Of-User)'),
  page: searchPageParam('or in the body; both with different values → 400').optional(),
  size: intParam('size', 1, MAX_PAGE_SIZE, 20).optional().describe('Page size (or in the body; both with different values → 400)'),
});

export const companySummarySchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    name: z.string().nullable(),
    logo: z.string().nullable().describe('Logo image URL'),
    industry: z.string().nullable(),
    revenueRange: z.string().nullable().describe('Revenue band label'),
    employeeRange: z.string().nullable().describe('Employee band label'),
    phone: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable().describe('ISO-2'),
    postalCode: z.string().nullable(),
    website: z.string().nullable(),
  })
  .meta({
    id: 'CompanySummary',
    description: 'A company search result',
    examples: [
      {
        id: 'cmp_acme',
        domain: 'acme.com',
        name: 'Acme Corporation',
        logo: 'https://logo.example/acme.com.png',
        industry: 'Software',
        revenueRange: '10M - 50M',
        employeeRange: '200 - 499',
        phone: '+1 512 555 0100',
        city: 'Austin',
        state: 'TX',
        country: 'US',
        postalCode: '78701',
        website: 'https://acme.com',
      },
    ],
  });

export type CompanySummary = z.output<typeof companySummarySchema>;

/** Columns of the company-search CSV export: the Company summary fields, in order. */
export const COMPANY_SUMMARY_COLUMNS: CsvColumn<CompanySummary>[] = csvColumnsOf(companySummarySchema);

// Operations -----------------------------------------------------------------------------------
const companySearchPageSchema = pageSchema(companySummarySchema).meta({ id: 'CompanySummaryPage' });

export const searchCompaniesOp = defineOperation({
  id: 'searchCompanies',
  summary: 'Search companies by firmographics and technology stack',
  description: [
    'Accepts both body shapes in any mix: a structured `filter` and top-level `query`, `countries`, `industries`, `employeeRange`, `revenueRange`, `domains`. Everything given must hold.',
    'Results are sorted by name, then id (stable across pages), unless `sort` asks for employees, revenue or country (a leading - reverses the order). A filter that matches nothing is an empty page; unknown vendors, products, categories and company domains named in the body are 404, unknown industries and band labels 400.',
    `With \`export=true\` the answer is a CSV stream of every match (not one page), columns: ${COMPANY_SUMMARY_COLUMNS.map((c) => c.header).join(', ')}. It needs the export permission and X-On-Behalf-Of-User, and is audited.`,
  ].join('\n\n'),
  tag: 'Companies',
  // The MCP arguments are flat: the search payload's fields (the structured filter carries
  // the lists the payload also accepts at the top level), plus export.
  // `sort` is REST and console only: tools/list stays within its 25 KB budget.
  input: companySearchBodySchema
    .omit({ countries: true, industries: true, employeeRange: true, revenueRange: true, domains: true, sort: true, asOf: true })
    .extend({
      export: z.boolean().default(false).describe('true: CSV of every match instead of one page'),
    }),
  output: companySearchPageSchema,
  stream: { media: 'text/csv', when: 'export', description: `CSV with a header row: ${COMPANY_SUMMARY_COLUMNS.map((c) => c.header).join(', ')}` },
  permission: { when: 'export', then: 'export' },
  rateClass: { when: 'export', then: 'export' },
  bulkhead: 'search',
  readOnly: true,
  attributed: true,
  http: { method: 'POST', path: '/companies/search', query: companySearchQuerySchema, headers: onBehalfOfHeaders, body: companySearchBodySchema.nullish() },
  mcp: {
    name: 'companies_search',
    title: 'Search companies',
    description:
      'Finds companies by free text `query` and a `filter` on their stack (vendors, products, categories, intensity, recency) and firmographics. export=true: CSV text instead (export permission, onBehalfOfUser).',
  },
});

export const companyOperations = [searchCompaniesOp];
