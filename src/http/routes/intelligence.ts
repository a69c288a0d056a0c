// Intelligence endpoints: competitors, cohorts, usage metrics (simple and detailed),
// products in use and related products. Thin: transport → one service call → response.
import type { FastifyInstance } from 'fastify';
import {
  companyCohortOp,
  companyCompetitorsOp,
  productsInUseOp,
  relatedProductsOp,
  usageMetricsDetailsOp,
  usageMetricsOp,
  type DetailsQuery,
} from '../../schemas/intelligence.ts';
import { listCohort, listCompetitors } from '../../services/cohorts.ts';
import { usageDetails, usageMetrics } from '../../services/metrics.ts';
import { productsInUse } from '../../services/products-in-use.ts';
import { relatedProducts } from '../../services/related.ts';
import { route } from '../route-config.ts';

export function intelligenceRoutes(app: FastifyInstance) {
  return [
    route(companyCompetitorsOp, (request) => listCompetitors(app.db, { ...request.params, ...request.query })),
    route(companyCohortOp, (request) => listCohort(app.db, { ...request.params, ...request.query })),
    route(usageMetricsOp, (request) => usageMetrics(app.db, { ...request.params, ...request.query })),
    // The compared domains: the body of the first form, the repeated query parameter of the second.
    route(usageMetricsDetailsOp, (request) => {
      const query = request.query as DetailsQuery;
      return usageDetails(app.db, { ...query, ...request.params, cohortCompanyDomain: request.body ?? query.cohortCompanyDomain });
    }),
    route(productsInUseOp, (request) => productsInUse(app.db, { ...request.params, ...request.body })),
    route(relatedProductsOp, (request) => relatedProducts(app.db, { ...request.params, ...request.query })),
  ];
}
