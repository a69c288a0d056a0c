// Intelligence tools: cohorts and competitors, usage benchmarks, related products and
// products in use. Each calls the same service as its REST route with the same input.
import { defineTool } from '../registry.ts';
import {
  companyCohortOp, companyCompetitorsOp, productsInUseOp, relatedProductsOp, usageMetricsDetailsOp, usageMetricsOp,
} from '../../schemas/intelligence.ts';
import { listCohort, listCompetitors } from '../../services/cohorts.ts';
import { usageDetails, usageMetrics } from '../../services/metrics.ts';
import { productsInUse } from '../../services/products-in-use.ts';
import { relatedProducts } from '../../services/related.ts';

export const intelligenceTools = [
  defineTool(companyCohortOp, (args, ctx) => listCohort(ctx.db, args)),
  defineTool(companyCompetitorsOp, (args, ctx) => listCompetitors(ctx.db, args)),
  defineTool(usageMetricsOp, (args, ctx) => usageMetrics(ctx.db, args)),
  defineTool(usageMetricsDetailsOp, (args, ctx) => usageDetails(ctx.db, args)),
  defineTool(relatedProductsOp, (args, ctx) => relatedProducts(ctx.db, args)),
  defineTool(productsInUseOp, (args, ctx) => productsInUse(ctx.db, args)),
];
