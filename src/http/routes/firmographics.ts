// GET /companies/{companyDomain}/firmographics: the company's profile in the native shape.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { commonErrors } from '../../schemas/common.ts';
import { companyParamsSchema } from '../../schemas/company-products.ts';
import { firmographicsSchema } from '../../schemas/firmographics.ts';
import { companyFirmographics } from '../../services/firmographics.ts';

export async function firmographicsRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/companies/:companyDomain/firmographics', {
    schema: {
      operationId: 'companyFirmographics',
      summary: "A company's firmographic profile",
      description: 'The native profile (acquisition, ceo, funding, hq_address, industries, stock...) when one was imported; otherwise the native fields the company record can fill. The simplified common fields (domain, industry, employeeRange, revenueRange, foundedYear, hqCountry, hqCity, linkedinUrl, crunchbaseUrl) are always present. Unknown company → 404.',
      tags: ['Firmographics'],
      params: companyParamsSchema,
      response: { 200: firmographicsSchema, ...commonErrors },
    },
  }, async (request) => companyFirmographics(app.db, request.params));
}
