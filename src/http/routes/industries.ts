// GET /industries and GET /industries/{industryId}: the taxonomy behind industries_list.
import type { FastifyInstance } from 'fastify';
import { getIndustryOp, listIndustriesOp } from '../../schemas/industries.ts';
import { getIndustry, listIndustries } from '../../services/industries.ts';
import { serve } from '../route-config.ts';

export async function industryRoutes(app: FastifyInstance): Promise<void> {
  serve(app, listIndustriesOp, () => listIndustries(app.db));
  serve(app, getIndustryOp, (request) => getIndustry(app.db, request.params.industryId));
}
