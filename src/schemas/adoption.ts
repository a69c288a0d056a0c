// Adoption trends: per month, how many companies used a product (or any product of a category
// or vendor), how many adopted and dropped it, and the net change; filterable like company
// search by country, industry and size band. Answered from the observation log and the events.
import { z } from 'zod';
import { EMPLOYEE_BAND_LABELS } from '../bands.ts';
import { countrySchema, dayParam, domainSchema, repeatableParam } from './params.ts';
import { idInput, textInput } from './text.ts';
import { defineOperation } from './operation.ts';

/** The longest trend one call answers. */
export const MAX_ADOPTION_PERIODS = 60;
export const DEFAULT_ADOPTION_MONTHS = 12;

const adoptionQuery = z.object({
  from: dayParam(`First day of the trend (default: ${DEFAULT_ADOPTION_MONTHS} months before \`to\`); the month it falls in is the first period`),
  to: dayParam('Last day of the trend (default: today); the month it falls in is the last period'),
  interval: z.enum(['month']).default('month').describe('The period: month (the only one for now)'),
  countries: repeatableParam(countrySchema(), 'Only companies in these countries (ISO-2; repeat the parameter)'),
  industries: repeatableParam(textInput(200).min(1), 'Only companies in these industries (names or ids; unknown → 400)'),
  employeeRange: repeatableParam(z.enum(EMPLOYEE_BAND_LABELS), `Only companies in these employee bands: ${EMPLOYEE_BAND_LABELS.join(' | ')}`),
});
export type AdoptionQuery = z.output<typeof adoptionQuery>;

const pointSchema = z.object({
  period: z.string().describe('YYYY-MM'),
  companies: z
    .number()
    .int()
    .describe(
      'Companies using it at the end of the period: between two sightings, or within the staleness window after the last, and not dropped in between; or an imported install since before it',
    ),
  adoptions: z.number().int().describe('technology.adopted events that happened (occurredAt) in the period'),
  drops: z.number().int().describe('technology.dropped events that happened in the period'),
  netChange: z.number().int().describe('adoptions − drops'),
});

export const adoptionSchema = z
  .object({
    subject: z.object({ kind: z.enum(['product', 'category', 'vendor']), id: z.string(), name: z.string() }),
    interval: z.literal('month'),
    points: z.array(pointSchema).describe('Oldest first, one per period'),
  })
  .meta({
    id: 'AdoptionTrend',
    description:
      'For a category or vendor, a company counts once whichever of its products it uses; adoptions and drops are those of its products (moving between two of them is one of each).',
  });
export type AdoptionTrend = z.output<typeof adoptionSchema>;

const productParams = z.object({ productId: idInput('prd_hubspot_crm').describe('Product id') });
const categoryParams = z.object({ categoryId: idInput('cat_crm').describe('Category id') });
const vendorParams = z.object({ vendorDomain: domainSchema('Vendor domain') });

const description = (what: string) =>
  `Per month from \`from\` to \`to\` (at most ${MAX_ADOPTION_PERIODS} months): companies using ${what} at the month's end, adoptions and drops that happened in it, and the net change. Filter the companies by countries, industries and employeeRange. Unknown ${what.split(' ')[0]} → 404.`;

export const productAdoptionOp = defineOperation({
  id: 'productAdoption',
  summary: "A product's adoption trend",
  description: description('the product'),
  tag: 'Events',
  // The MCP tool's arguments: the range and countries (the other filters stay REST-only, to
  // keep tools/list within its budget).
  input: productParams.extend(adoptionQuery.pick({ from: true, to: true, countries: true }).shape),
  output: adoptionSchema,
  readOnly: true,
  attributed: false,
  bulkhead: 'search',
  http: { method: 'GET', path: '/products/:productId/adoption', params: productParams, query: adoptionQuery },
  mcp: {
    name: 'product_adoption',
    title: "A product's adoption trend",
    description:
      'Month by month: how many companies use a product, how many adopted or dropped it, net change; optionally only in some countries, industries or size bands. Use it for "is X growing or losing customers".',
  },
});

export const categoryAdoptionOp = defineOperation({
  id: 'categoryAdoption',
  summary: "A category's adoption trend",
  description: description('any product of the category (or of its subcategories)'),
  tag: 'Events',
  input: categoryParams.extend(adoptionQuery.shape),
  output: adoptionSchema,
  readOnly: true,
  attributed: false,
  bulkhead: 'search',
  http: { method: 'GET', path: '/categories/:categoryId/adoption', params: categoryParams, query: adoptionQuery },
});

export const vendorAdoptionOp = defineOperation({
  id: 'vendorAdoption',
  summary: "A vendor's adoption trend",
  description: description("any of the vendor's products"),
  tag: 'Events',
  input: vendorParams.extend(adoptionQuery.shape),
  output: adoptionSchema,
  readOnly: true,
  attributed: false,
  bulkhead: 'search',
  http: { method: 'GET', path: '/vendors/:vendorDomain/adoption', params: vendorParams, query: adoptionQuery },
});

export const adoptionOperations = [productAdoptionOp, categoryAdoptionOp, vendorAdoptionOp];
