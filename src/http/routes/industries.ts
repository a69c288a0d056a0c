// GET /industries and GET /industries/{industryId}: the taxonomy behind industries_list.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { commonErrors } from '../../schemas/common.ts';
import { industryListSchema, industryParamsSchema, industrySchema } from '../../schemas/industries.ts';
import { getIndustry, listIndustries } from '../../services/industries.ts';

export async function industryRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/industries', {
    schema: {
      operationId: 'listIndustries',
      summary: 'Every industry',
      description: 'The whole industry taxonomy, sorted by name. Company search accepts these ids or names in `industries` / `filter.industryIn`.',
      tags: ['Taxonomy'],
      response: { 200: industryListSchema, ...commonErrors },
    },
  }, async () => listIndustries(app.db));

  r.get('/industries/:industryId', {
    schema: {
      operationId: 'getIndustry',
      summary: 'One industry',
      tags: ['Taxonomy'],
      params: industryParamsSchema,
      response: { 200: industrySchema, ...commonErrors },
    },
  }, async (request) => getIndustry(app.db, request.params.industryId));
}
