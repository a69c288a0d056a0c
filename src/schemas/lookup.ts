// Lookup: a name as a person says it ("hubspt", "germany", "fintech", "200-500 people") → the
// ids and labels the search filters take, each with the filter field it goes into. The
// first call of a model that must search by a technology, category, industry, country or
// size it only knows by name.
import { z } from 'zod';
import { textInput } from './text.ts';
import { intParam } from './common.ts';
import { repeatableParam } from './params.ts';
import { defineOperation } from './operation.ts';

export const LOOKUP_KINDS = ['technology', 'vendor', 'category', 'industry', 'country', 'employeeBand', 'revenueBand'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** The company-search filter field each kind's `id` goes into. */
export const LOOKUP_FILTER: Record<LookupKind, string> = {
  technology: 'productIdIn',
  vendor: 'vendorDomainIn',
  category: 'mainCategoryIdIn',
  industry: 'industryIn',
  country: 'countryIn',
  employeeBand: 'employeeRangeIn',
  revenueBand: 'revenueRangeIn',
};

export const lookupInputSchema = z.object({
  q: textInput(100).trim().min(1, 'must not be empty').describe('The name to look up, as a person would say it; typos and partial names match'),
  kind: repeatableParam(z.enum(LOOKUP_KINDS), `Only these kinds (repeatable): ${LOOKUP_KINDS.join(' | ')}. Absent: every kind`, LOOKUP_KINDS.length),
  size: intParam('size', 1, 20, 5).describe('Matches per kind, 1-20'),
});
export type LookupInput = z.output<typeof lookupInputSchema>;

export const lookupMatchSchema = z.object({
  kind: z.enum(LOOKUP_KINDS),
  id: z.string().describe('What the filter field takes: a product, category or industry id, a vendor domain, an ISO-2 code or a band label'),
  name: z.string(),
  filter: z.string().describe('The company-search filter field the id goes into (e.g. productIdIn)'),
  score: z.number().describe('1 for an exact name; else the trigram similarity, 0.3-1'),
  detail: z.string().nullable().describe("A word of context: a technology's vendor and category, a category's parent, an industry's sector"),
});
export type LookupMatch = z.output<typeof lookupMatchSchema>;

export const lookupResultSchema = z
  .object({
    q: z.string(),
    matches: z.array(lookupMatchSchema).describe('Best first across kinds; at most `size` of each kind'),
  })
  .meta({
    id: 'LookupResult',
    examples: [
      {
        q: 'hubspt',
        matches: [
          { kind: 'vendor', id: 'hubspot.com', name: 'HubSpot', filter: 'vendorDomainIn', score: 0.67, detail: null },
          { kind: 'technology', id: 'prd_hubspot_crm', name: 'HubSpot CRM', filter: 'productIdIn', score: 0.5, detail: 'HubSpot · CRM' },
        ],
      },
    ],
  });
export type LookupResult = z.output<typeof lookupResultSchema>;

export const lookupOp = defineOperation({
  id: 'lookup',
  summary: 'Resolve names to the ids the filters take',
  description:
    'Technologies, vendors, categories, industries, countries and size bands whose name matches `q` (exact, prefix, or trigram-similar: typos match), ' +
    'best first, each with the id and the company-search filter field it goes into. No match is an empty list.',
  tag: 'Taxonomy',
  input: lookupInputSchema,
  output: lookupResultSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/lookup', query: lookupInputSchema, referenceData: true },
  mcp: {
    name: 'lookup',
    title: 'Look up ids by name',
    description:
      'Turn names into the ids search filters take: technologies (productIdIn), vendors, categories, industries, countries, employee/revenue bands. Fuzzy; call it before companies_search.',
  },
});

export const lookupOperations = [lookupOp];
