// GET /companies/{companyDomain}/firmographics: the company's profile in the native shape.
import type { FastifyInstance } from 'fastify';
import { companyFirmographicsOp } from '../../schemas/firmographics.ts';
import { companyFirmographics } from '../../services/firmographics.ts';
import { route } from '../route-config.ts';

export function firmographicsRoutes(app: FastifyInstance) {
  return [route(companyFirmographicsOp, (request) => companyFirmographics(app.db, request.params))];
}
