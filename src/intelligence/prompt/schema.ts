// The structured query a prompt is understood as (ParsedQuery), the catalog the parser reads,
// and the looser shape an external model must answer with before it is grounded.
// One zod schema each: they validate the embedded parser's output in tests and the model's
// JSON at run time, so neither door can produce a field that is not listed here (there is
// no e-mail or phone field, whatever a prompt asks for).
import { z } from 'zod';

export const PROMPT_MODES = ['customers', 'techstack', 'people'] as const;
export type PromptMode = (typeof PROMPT_MODES)[number];

/** Company size bands, in order (the public API's labels). */
export const EMPLOYEE_BANDS = ['Less than 10', '10 - 49', '50 - 199', '200 - 499', '500 - 999', '1,000 - 4,999', '5,000 - 9,999', 'Above 10,000'] as const;
/** Lower bound of each employee band; the upper bound is the next band's lower bound. */
export const EMPLOYEE_BAND_FLOORS = [0, 10, 50, 200, 500, 1000, 5000, 10000] as const;

/** Revenue bands (USD), in order. */
export const REVENUE_BANDS = ['Less than 1M', '1M - 2M', '2M - 5M', '5M - 10M', '10M - 50M', '50M - 100M', '100M - 500M', '500M - 1B', 'More than 1B'] as const;
export const REVENUE_BAND_FLOORS = [0, 1e6, 2e6, 5e6, 1e7, 5e7, 1e8, 5e8, 1e9] as const;

/** People seniority levels, highest first. */
export const SENIORITIES = ['C-Level', 'VP', 'Director', 'Manager', 'Senior', 'Entry'] as const;
/** People functions (departments), as the people table holds them (the demo world's list). */
export const FUNCTIONS = [
  'General Management',
  'Sales',
  'Marketing',
  'IT',
  'Engineering',
  'Finance',
  'HR',
  'Operations',
  'Legal',
  'Customer Success',
  'Product',
] as const;

export type EmployeeBand = (typeof EMPLOYEE_BANDS)[number];
export type RevenueBand = (typeof REVENUE_BANDS)[number];
export type Seniority = (typeof SENIORITIES)[number];
export type PeopleFunction = (typeof FUNCTIONS)[number];

const iso2 = z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 code');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD date');
const shortText = z.string().min(1).max(200);

const matchKindSchema = z
  .enum(['exact', 'alias', 'fuzzy'])
  .describe('exact: the entity name as written (any case); alias: a short name, alias, domain or plural; fuzzy: a close spelling (typo).');

export const entityMatchSchema = z
  .object({
    id: z.string().min(1).describe('Catalog identifier of the matched entity.'),
    name: shortText.describe('Catalog name of the entity.'),
    text: shortText.describe('The words of the prompt (or of the model answer) that matched.'),
    kind: matchKindSchema,
    score: z.number().min(0).max(1).describe('Match quality: 1 exact, 0.95 alias, 0.9 plural, lower for typos.'),
  })
  .strict();
export type EntityMatch = z.infer<typeof entityMatchSchema>;

export const countryMatchSchema = z
  .object({
    code: iso2,
    text: shortText,
    kind: z.enum(['name', 'code', 'demonym', 'region']),
  })
  .strict();
export type CountryMatch = z.infer<typeof countryMatchSchema>;

export const timeWindowSchema = z
  .object({
    field: z.enum(['adopted', 'verified']).describe('adopted: first verified in the window; verified: last verified in it.'),
    withinDays: z.number().int().min(1).max(36_500).optional().describe('Window ending now, in days.'),
    since: isoDate.optional(),
    until: isoDate.optional(),
  })
  .strict()
  .refine((t) => t.withinDays !== undefined || t.since !== undefined, 'withinDays or since is required');
export type TimeWindow = z.infer<typeof timeWindowSchema>;

export const companyRefSchema = z
  .object({
    domain: z.string().nullable().describe('Normalized company domain, when known.'),
    name: z.string().nullable(),
    id: z.string().nullable().describe('Company id when the company is in the database.'),
    text: shortText,
    kind: z.enum(['domain', 'name', 'vendor']),
  })
  .strict();
export type CompanyRef = z.infer<typeof companyRefSchema>;

export const parsedQuerySchema = z
  .object({
    mode: z.enum(PROMPT_MODES),
    products: z.array(entityMatchSchema),
    vendors: z.array(entityMatchSchema),
    categories: z.array(entityMatchSchema),
    industries: z.array(entityMatchSchema),
    countries: z.array(countryMatchSchema),
    employeeRanges: z.array(z.enum(EMPLOYEE_BANDS)),
    revenueRanges: z.array(z.enum(REVENUE_BANDS)),
    timeWindow: timeWindowSchema.nullable(),
    titles: z.array(shortText),
    seniority: z.array(z.enum(SENIORITIES)),
    functions: z.array(z.enum(FUNCTIONS)),
    companies: z.array(companyRefSchema),
    terms: z.array(z.string().min(1).max(100)).describe('Leftover words that matched nothing.'),
  })
  .strict();
export type ParsedQuery = z.infer<typeof parsedQuerySchema>;

/** The query a model must return: names instead of ids (grounded onto the catalog after). */
const names = z.array(z.string().max(200)).max(50).default([]);
export const modelQuerySchema = z.object({
  products: names,
  vendors: names,
  categories: names,
  industries: names,
  countries: names.describe('ISO-2 codes or English country names'),
  employeeRanges: z.array(z.enum(EMPLOYEE_BANDS)).max(8).default([]),
  revenueRanges: z.array(z.enum(REVENUE_BANDS)).max(9).default([]),
  timeWindow: timeWindowSchema.nullable().default(null),
  titles: names,
  seniority: z.array(z.enum(SENIORITIES)).max(6).default([]),
  functions: z.array(z.enum(FUNCTIONS)).max(12).default([]),
  companies: names.describe('company names or domains'),
  terms: names,
});
export type ModelQuery = z.infer<typeof modelQuerySchema>;

// The catalog, as plain data -------------------------------------------------------------

export interface CatalogProduct {
  id: string;
  name: string;
  shortName: string | null;
  aliases: string[];
  vendorId: string;
  categoryId: string;
}
export interface CatalogVendor {
  id: string;
  domain: string;
  name: string;
}
export interface CatalogCategory {
  id: string;
  name: string;
  parentId: string | null;
}
export interface CatalogIndustry {
  id: string;
  name: string;
}
/** A company the prompt may name (looked up per prompt, see store/catalog.ts). */
export interface CatalogCompany {
  id?: string | null;
  domain: string;
  name: string | null;
}

export interface PromptCatalog {
  products: CatalogProduct[];
  vendors: CatalogVendor[];
  categories: CatalogCategory[];
  industries: CatalogIndustry[];
}
