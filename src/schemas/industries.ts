// The industry taxonomy: Industry item, list, params (also the MCP industries_list tool).
import { z } from 'zod';
import { idInput } from './text.ts';
import { defineOperation } from './operation.ts';

export const industrySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sector: z.string().nullable().describe('Broader sector the industry belongs to'),
  })
  .meta({
    id: 'Industry',
    description: 'An industry; company search accepts its id or name',
    examples: [{ id: 'ind_software', name: 'Software', sector: 'Technology' }],
  });
export type Industry = z.output<typeof industrySchema>;

const industryListSchema = z.array(industrySchema).meta({ id: 'IndustryList' });

const industryParamsSchema = z.object({ industryId: idInput('ind_software').describe('Industry id') });

// Operations -----------------------------------------------------------------------------------
export const listIndustriesOp = defineOperation({
  id: 'listIndustries',
  summary: 'Every industry',
  description: 'The whole industry taxonomy, sorted by name. Company search accepts these ids or names in `industries` / `filter.industryIn`.',
  tag: 'Taxonomy',
  input: z.object({}),
  output: industryListSchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/industries', referenceData: true },
  mcp: {
    name: 'industries_list',
    title: 'Industries',
    description:
      'The industries { id, name, sector } (also the resource stacklens://reference/industries). Names or ids feed companies_search and profiles_search.',
  },
});

export const getIndustryOp = defineOperation({
  id: 'getIndustry',
  summary: 'One industry',
  description: 'One industry by id. Unknown id → 404.',
  tag: 'Taxonomy',
  input: industryParamsSchema,
  output: industrySchema,
  readOnly: true,
  attributed: false,
  http: { method: 'GET', path: '/industries/:industryId', params: industryParamsSchema, referenceData: true },
});

export const industryOperations = [listIndustriesOp, getIndustryOp];
