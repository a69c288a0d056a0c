// Lookalikes: companies ranked by similarity to a seed set (given by domains, or as the
// companies a saved search matches), the seeds and an exclusion list left out, narrowed by the
// company-search filter; every result with the reasons it was chosen.
import { z } from 'zod';
import { companySearchBodySchema } from './companies.ts';
import { requestExamples } from './common.ts';
import { idInput } from './text.ts';
import { domainSchema } from './params.ts';
import { defineOperation } from './operation.ts';

export const MIN_SEEDS = 2;
export const MAX_SEEDS = 1000;
const MAX_EXCLUDED = 10_000;
const MAX_SIZE = 100;

const searchFields = companySearchBodySchema.omit({ page: true, size: true, sort: true, asOf: true });

const seedSearch = searchFields
  .optional()
  .describe(
    `Or the seeds as the companies a company search matches (the body of POST /companies/search without paging, sort and asOf; a monitor's \`search\` as it is): ${MIN_SEEDS}-${MAX_SEEDS} matches`,
  );

const seedAndPageFields = {
  seedDomains: z
    .array(domainSchema('Company domain'))
    .min(MIN_SEEDS)
    .max(MAX_SEEDS)
    .optional()
    .describe(`The seed companies (${MIN_SEEDS}-${MAX_SEEDS} domains, e.g. customers that bought); unknown → 404 naming them`),
  seedListId: idInput('lst_3fa1c2d4e5f60718')
    .optional()
    .describe(`Or the seeds as the matched companies of one of your account lists (its current version; POST /lists): ${MIN_SEEDS}-${MAX_SEEDS} of them`),
  excludeListId: idInput('lst_3fa1c2d4e5f60718').optional().describe('Leave out the matched companies of one of your account lists too (e.g. your customers)'),
  excludeDomains: z
    .array(domainSchema('Company domain'))
    .max(MAX_EXCLUDED)
    .optional()
    .describe(`Companies never returned (e.g. existing customers), up to ${MAX_EXCLUDED}; domains not on record are ignored (counted in excludedUnknown)`),
  minSeedSupport: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEEDS)
    .default(2)
    .describe('A signal (product, industry, band, region, description term) held by fewer seeds does not drive the ranking; default 2'),
  page: z.number().int().min(0).default(0).describe('0-based page of the ranking'),
  size: z.number().int().min(1).max(MAX_SIZE).default(20).describe(`Results per page, 1-${MAX_SIZE}, default 20`),
};

export const lookalikesBodySchema = searchFields.extend({ ...seedAndPageFields, seedSearch }).meta({
  id: 'LookalikesRequest',
  description:
    'The seeds (exactly one of `seedDomains`, `seedSearch` and `seedListId`), what to leave out, and the company-search filter the results must match (every field of POST /companies/search except paging, sort and asOf)',
  ...requestExamples({ seedDomains: ['acme.com', 'globex.com', 'initech.com'], excludeDomains: ['umbrella.com'], filter: { countryIn: ['US'] }, size: 10 }),
});
export type LookalikesInput = z.output<typeof lookalikesBodySchema>;

/**
 * The MCP arguments: the seeds by domain, paging, and four fields of the search filter (country,
 * industry, employee band, products). seedSearch and the rest of the filter are REST only: tools/list has a byte budget
 * (test/mcp/protocol.test.ts), and a model can run companies_search and pass the domains instead.
 */
const lookalikesToolInput = z.strictObject({
  ...seedAndPageFields,
  filter: searchFields.shape.filter
    .unwrap()
    .pick({ countryIn: true, industryIn: true, employeeRangeIn: true, productIdIn: true })
    .optional()
    .describe('What results must match (fields of the companies_search filter)'),
});

const sharedSignalSchema = z.object({
  productId: z.string(),
  product: z.string(),
  seeds: z.number().int().describe('Seeds using it, of `of` seeds'),
  of: z.number().int(),
});

const matchSchema = z.object({
  field: z.enum(['industry', 'employeeRange', 'revenueRange', 'region']),
  value: z.string().nullable(),
  seeds: z.number().int(),
  of: z.number().int(),
});

const featureSchema = z.object({
  feature: z.string().describe('e.g. "uses HubSpot CRM", "industry Software"'),
  share: z.number(),
});

export const lookalikeSchema = z.object({
  domain: z.string(),
  name: z.string().nullable(),
  industry: z.string().nullable(),
  employeeRange: z.string().nullable(),
  revenueRange: z.string().nullable(),
  country: z.string().nullable(),
  score: z.number().describe('Similarity to the seed set, 0-1'),
  sharedSignals: z.array(sharedSignalSchema).describe('Products it shares with ≥ minSeedSupport seeds (≤ 10)'),
  matches: z.array(matchSchema),
  topFeatures: z.array(featureSchema).describe('Largest shares of the score (≤ 5)'),
});
export type Lookalike = z.output<typeof lookalikeSchema>;

export const lookalikesSchema = z
  .object({
    seeds: z.object({
      count: z.number().int(),
      minSeedSupport: z.number().int(),
      signals: z.array(sharedSignalSchema).describe('Products ≥ minSeedSupport seeds use (≤ 20)'),
    }),
    excluded: z.number().int().describe('Seeds and excluded companies left out'),
    excludedUnknown: z.number().int().describe('excludeDomains not on record'),
    totalPages: z.number().int(),
    totalElements: z.number().int(),
    content: z.array(lookalikeSchema),
  })
  .meta({
    id: 'Lookalikes',
    examples: [
      {
        seeds: { count: 3, minSeedSupport: 2, signals: [{ productId: 'prd_hubspot_crm', product: 'HubSpot CRM', seeds: 3, of: 3 }] },
        excluded: 4,
        excludedUnknown: 0,
        totalPages: 40,
        totalElements: 400,
        content: [
          {
            domain: 'hooli.com',
            name: 'Hooli',
            industry: 'Software',
            employeeRange: '50 - 199',
            revenueRange: null,
            country: 'US',
            score: 0.71,
            sharedSignals: [{ productId: 'prd_hubspot_crm', product: 'HubSpot CRM', seeds: 3, of: 3 }],
            matches: [{ field: 'industry', value: 'Software', seeds: 3, of: 3 }],
            topFeatures: [
              { feature: 'industry Software', share: 0.35 },
              { feature: 'uses HubSpot CRM', share: 0.3 },
            ],
          },
        ],
      },
    ],
  });
export type Lookalikes = z.output<typeof lookalikesSchema>;

export const findLookalikesOp = defineOperation({
  id: 'findLookalikes',
  summary: 'Rank companies by similarity to a seed set (lookalikes)',
  description: [
    'Scores every company against the seed set in the feature space of cohorts and competitors (industry, size and revenue bands, region, the in-use stack weighted by rarity, category mix, description terms; weights in docs/intelligence.md) and returns the most alike first. The seeds and `excludeDomains` are never returned; the company-search filter narrows the candidates.',
    'A product, industry, band, region or description term held by fewer than `minSeedSupport` seeds does not count. Every result explains itself: the shared products with their support among the seeds, its industry, bands and region with the seeds that share them, and the features with the largest share of its score.',
    'Stacks are those of the latest intelligence refresh (as cohorts). Unknown seed domains → 404 naming them; fewer than 2 or more than 1000 seeds → 400.',
  ].join('\n\n'),
  tag: 'Companies',
  input: lookalikesToolInput,
  output: lookalikesSchema,
  readOnly: true,
  attributed: true,
  bulkhead: 'search',
  http: { method: 'POST', path: '/companies/lookalikes', body: lookalikesBodySchema },
  mcp: {
    name: 'find_lookalikes',
    title: 'Find lookalike companies',
    description:
      'Companies most like a seed set (seedDomains), seeds and excludeDomains left out. Each result lists shared products ("4 of 5 seeds"), firmographic matches and top features.',
  },
});

export const lookalikeOperations = [findLookalikesOp];
