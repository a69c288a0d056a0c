// Intelligence endpoints: competitors, cohorts, usage metrics (simple and detailed),
// products in use and related products. Thin: transport → one service call → response.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commonErrors } from '../../schemas/common.ts';
import {
  payloadTooLarge, peerPageSchema, productInUseSchema, relatedProductSchema, usageDetailSchema, usageMetricSchema,
} from '../../schemas/intelligence.ts';
import { listCohort, listCompetitors } from '../../services/cohorts.ts';
import { cohortInput, competitorsInput, detailsBody, detailsFilters, detailsInput, detailsQuery, productsInUseInput, relatedInput, usageInput } from '../../schemas/intelligence.ts';
import { usageDetails, usageMetrics } from '../../services/metrics.ts';
import { productsInUse } from '../../services/products-in-use.ts';
import { relatedProducts } from '../../services/related.ts';

const tags = ['Intelligence'];
const params = <T extends z.ZodRawShape>(shape: T) => z.object(shape);

export async function intelligenceRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The second details form is a POST with an empty body; accept an empty JSON body
  // there (and only in this scope) instead of failing on the Content-Type.
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    (body as string).trim() === '' ? done(null, undefined) : json(req, body as string, done));

  app.get('/companies/:companyDomain/competitors', {
    schema: {
      summary: 'Competitors: up to 50 similar companies', tags,
      params: competitorsInput.pick({ companyDomain: true }), querystring: competitorsInput.omit({ companyDomain: true }),
      response: { 200: peerPageSchema, ...commonErrors },
    },
  }, (req) => listCompetitors(app.db, { ...req.params, ...req.query }));

  app.get('/companies/:companyDomain/cohort/:cohort', {
    schema: {
      summary: 'Members of a Default, Defined or Aspirational cohort', tags,
      params: cohortInput.pick({ companyDomain: true, cohort: true }), querystring: cohortInput.pick({ page: true, size: true }),
      response: { 200: peerPageSchema, ...commonErrors },
    },
  }, (req) => listCohort(app.db, { ...req.params, ...req.query }));

  app.get('/companies/:companyDomain/cohort/:cohort/metrics/usage', {
    schema: {
      summary: 'Share of cohort members using each product (1-100)', tags,
      params: usageInput.pick({ companyDomain: true, cohort: true }), querystring: usageInput.pick({ vendorDomain: true, productId: true }),
      response: { 200: z.array(usageMetricSchema), ...commonErrors },
    },
  }, (req) => usageMetrics(app.db, { ...req.params, ...req.query }));

  const detailsResponse = { 200: z.array(usageDetailSchema), ...commonErrors, 413: payloadTooLarge };
  app.post('/companies/:companyDomain/cohort/:cohort/metrics/details', {
    schema: {
      summary: 'Compare the company with chosen peers, category by category', tags,
      params: params({ companyDomain: detailsInput.shape.companyDomain, cohort: detailsInput.shape.cohort.unwrap() }),
      querystring: detailsFilters, body: detailsBody, response: detailsResponse,
    },
  }, (req) => usageDetails(app.db, { ...req.query, ...req.params, cohortCompanyDomain: req.body }));

  app.post('/companies/:companyDomain/metrics/details', {
    schema: {
      summary: 'Compare the company with chosen peers (domains as repeated cohortCompanyDomain query parameters)', tags,
      params: detailsInput.pick({ companyDomain: true }), querystring: detailsQuery, response: detailsResponse,
    },
  }, (req) => usageDetails(app.db, { ...req.query, ...req.params }));

  app.post('/companies/:companyDomain/products-in-use', {
    schema: {
      summary: 'Whether the company uses each product now, with a calibrated confidence', tags,
      params: productsInUseInput.pick({ companyDomain: true }), body: productsInUseInput.pick({ productIds: true }),
      response: { 200: z.array(productInUseSchema), ...commonErrors, 413: payloadTooLarge },
    },
  }, (req) => productsInUse(app.db, { ...req.params, ...req.body }));

  app.get('/companies/:companyDomain/products/:productId/related', {
    schema: {
      summary: 'Products co-used with the anchor product in the cohort, ranked', tags,
      params: relatedInput.pick({ companyDomain: true, productId: true }), querystring: relatedInput.pick({ cohort: true, page: true, size: true }),
      response: { 200: z.array(relatedProductSchema), ...commonErrors },
    },
  }, (req) => relatedProducts(app.db, { ...req.params, ...req.query }));
}
