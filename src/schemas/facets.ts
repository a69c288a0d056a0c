// Market sizing: how many companies a company-search filter matches, broken down by up to two
// dimensions (country, industry, size band, revenue band, technology, category) in one call,
// with each dimension's own totals and a few sample companies per cell.
import { z } from 'zod';
import { companySearchBodySchema } from './companies.ts';
import { defineOperation } from './operation.ts';

/** What a count can be broken down by. */
export const FACET_DIMENSIONS = ['country', 'industry', 'employeeBand', 'revenueBand', 'technology', 'category'] as const;
export type FacetDimension = (typeof FACET_DIMENSIONS)[number];

const MAX_FACET_VALUES = 200;
const DEFAULT_FACET_VALUES = 50;
const MAX_SAMPLE = 10;
const DEFAULT_SAMPLE = 3;

export const facetDimensionSchema = z.enum(FACET_DIMENSIONS);

export const facetsBodySchema = companySearchBodySchema
  .omit({ page: true, size: true, sort: true })
  .extend({
    dimensions: z
      .array(facetDimensionSchema)
      .max(2)
      .refine((d) => new Set(d).size === d.length, 'dimensions: give two different dimensions')
      .default([])
      .describe(
        `None (count mode: the total alone), one or two of ${FACET_DIMENSIONS.join(', ')}. technology and category count a company in the cell of every product (category) it uses; the total counts it once`,
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_FACET_VALUES)
      .default(DEFAULT_FACET_VALUES)
      .describe(
        `The largest cells (and values per dimension) returned, 1-${MAX_FACET_VALUES}, default ${DEFAULT_FACET_VALUES}; cellCount says how many there are`,
      ),
    sample: z
      .number()
      .int()
      .min(0)
      .max(MAX_SAMPLE)
      .default(DEFAULT_SAMPLE)
      .describe(`Sample companies per cell, by name, 0-${MAX_SAMPLE}, default ${DEFAULT_SAMPLE}`),
  })
  .meta({
    id: 'CompanyFacetsRequest',
    description: 'The company-search filter (both body shapes, as POST /companies/search) and the dimensions to count by',
    examples: [{ filter: { productIdIn: ['prd_hubspot_crm'] }, dimensions: ['country', 'employeeBand'], limit: 20, sample: 2 }],
  });
export type FacetsInput = z.output<typeof facetsBodySchema>;

const facetValueSchema = z.object({
  dimension: facetDimensionSchema,
  value: z.string().nullable().describe('ISO-2 country, industry id, band label, product id or category id; null: unknown (technology: no known product)'),
  name: z.string().nullable().describe('The industry, product or category name (null for countries and bands)'),
});

export const facetsSchema = z
  .object({
    total: z.number().int().describe('Companies the filter matches (each once)'),
    dimensions: z.array(facetDimensionSchema),
    cells: z
      .array(
        z.object({
          values: z.array(facetValueSchema).describe('One per dimension, in the order asked'),
          companies: z.number().int().describe('Matching companies in the cell'),
          sample: z.array(z.object({ domain: z.string(), name: z.string().nullable() })).describe('A few of them, by name'),
        }),
      )
      .describe('The largest cells first (ties by value)'),
    cellCount: z.number().int().describe('Non-empty cells in all (cells holds the `limit` largest)'),
    totals: z
      .array(
        z.object({
          dimension: facetDimensionSchema,
          values: z.array(z.object({ value: z.string().nullable(), name: z.string().nullable(), companies: z.number().int() })),
        }),
      )
      .describe('Per dimension, its values alone (the other summed out), largest first, at most `limit`'),
    countedAt: z
      .string()
      .datetime()
      .describe(
        'The world the counts describe: every write committed before this time. Counts may come from an index read up to FACETS_MAX_STALENESS_SECONDS (60 s) before the request while a newer one is read',
      ),
  })
  .meta({
    id: 'CompanyFacets',
    examples: [
      {
        total: 412,
        dimensions: ['country'],
        cells: [{ values: [{ dimension: 'country', value: 'US', name: null }], companies: 180, sample: [{ domain: 'acme.com', name: 'Acme' }] }],
        cellCount: 14,
        totals: [{ dimension: 'country', values: [{ value: 'US', name: null, companies: 180 }] }],
        countedAt: '2026-11-28T09:30:00.000Z',
      },
    ],
  });
export type Facets = z.output<typeof facetsSchema>;

export const companyFacetsOp = defineOperation({
  id: 'companyFacets',
  summary: 'Count companies by up to two dimensions (market sizing)',
  description: [
    'Takes the company-search filter (every field of POST /companies/search except paging and sort) and counts the matching companies by one or two dimensions in one call: every cell, each dimension alone, and the total, with a few sample companies per cell. Without dimensions it is the count mode: the total alone (cells and totals empty).',
    'A cell of `technology` or `category` counts the companies with an install of that product (in that category) — the same rule as the search filter `productIdIn`, so a cell equals the total of that search. Unknown names in the filter → 404/400 as in search.',
  ].join('\n\n'),
  tag: 'Companies',
  input: facetsBodySchema,
  output: facetsSchema,
  readOnly: true,
  attributed: false,
  bulkhead: 'search',
  http: { method: 'POST', path: '/companies/facets', body: facetsBodySchema },
});

export const facetOperations = [companyFacetsOp];
