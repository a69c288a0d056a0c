// GET /industries and GET /industries/{industryId}: the taxonomy behind industries_list.
import type { FastifyInstance } from 'fastify';
import { getIndustryOp, listIndustriesOp } from '../../schemas/industries.ts';
import { getIndustry, listIndustries } from '../../services/industries.ts';
import { route } from '../route-config.ts';

export function industryRoutes(app: FastifyInstance) {
  return [route(listIndustriesOp, () => listIndustries(app.db)), route(getIndustryOp, (request) => getIndustry(app.db, request.params.industryId))];
}
