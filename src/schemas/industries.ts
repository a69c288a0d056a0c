// The industry taxonomy: Industry item, list, params (also the MCP industries_list tool).
import { z } from 'zod';

export const industrySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sector: z.string().nullable().describe('Broader sector the industry belongs to'),
  })
  .meta({ id: 'Industry', description: 'An industry; company search accepts its id or name', examples: [{ id: 'ind_software', name: 'Software', sector: 'Technology' }] });
export type Industry = z.output<typeof industrySchema>;

export const industryListSchema = z.array(industrySchema).meta({ id: 'IndustryList' });

export const industryParamsSchema = z.object({ industryId: z.string().min(1).max(100).meta({ examples: ['ind_software'] }).describe('Industry id') });
