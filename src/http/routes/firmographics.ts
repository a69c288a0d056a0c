// GET /companies/{companyDomain}/firmographics: the company's profile in the native shape.
import type { FastifyInstance } from 'fastify';
import { companyFirmographicsOp } from '../../schemas/firmographics.ts';
import { companyFirmographics } from '../../services/firmographics.ts';
import { serve } from '../route-config.ts';

export async function firmographicsRoutes(app: FastifyInstance): Promise<void> {
  serve(app, companyFirmographicsOp, (request) => companyFirmographics(app.db, request.params));
}
