// Intelligence tools: cohorts and competitors, usage benchmarks, related products and
// products in use. Each calls the same service as its REST route with the same input;
// lists are paged with a total and nextPage, and the whole tables are resource links.
import { z } from 'zod';
import { defineTool } from '../registry.ts';
import { compactOf, detailArgument, named, pageAnswer, pageArguments, pageOutput, slicePage, toolPage } from '../shapes.ts';
import { links } from '../resources.ts';
import {
  companyCohortOp,
  companyCompetitorsOp,
  peerSchema,
  productInUseSchema,
  productsInUseOp,
  relatedProductSchema,
  relatedProductsOp,
  usageDetailRowSchema,
  usageDetailSchema,
  usageMetricSchema,
  usageMetricsDetailsOp,
  usageMetricsOp,
} from '../../schemas/intelligence.ts';
import { listCohort, listCompetitors } from '../../services/cohorts.ts';
import { usageDetails, usageMetrics } from '../../services/metrics.ts';
import { productsInUse } from '../../services/products-in-use.ts';
import { relatedProductsPage } from '../../services/related.ts';

// Peers without their logo: a model has no use for the image address (the only field left out).
const peer = compactOf(peerSchema, ['domain', 'name']);
const usage = compactOf(usageMetricSchema, ['percentage', 'product', 'productId', 'vendorDomain', 'category']);
const related = compactOf(relatedProductSchema, ['id', 'name', 'category', 'coUsage', 'lift']);
// Compact rows are the categories that differ or are missing, so `similar` is left out.
const detailRow = compactOf(usageDetailRowSchema, ['category', 'categoryId', 'different', 'missing', 'product']);

/** Above this many characters a comparison leaves its rows to the linked table. */
const COMPARISON_BUDGET = 24_000;

const comparedCompany = z.object({
  companyDomain: usageDetailSchema.shape.companyDomain,
  counts: z
    .object({ similar: z.number().int(), different: z.number().int(), missing: z.number().int() })
    .describe("The company's categories by how this company covers them"),
  products: z.array(detailRow.schema).describe('compact: the categories that differ or are missing; full: every category'),
});

const full = (detail: string) => (detail === 'full' ? { detail } : {});
const peerLabel = (p: Record<string, unknown>) => named(p.name as string, p.domain as string);

export const intelligenceTools = [
  defineTool(companyCohortOp, {
    output: pageOutput(peer.schema),
    run: async (input, ctx) =>
      pageAnswer(
        toolPage(await listCohort(ctx.db, input), input, (p) => peer.pick(p, 'compact')),
        `members in the ${input.cohort} cohort of ${input.companyDomain}`,
        peerLabel,
      ),
  }),
  defineTool(companyCompetitorsOp, {
    output: pageOutput(peer.schema),
    run: async (input, ctx) =>
      pageAnswer(
        toolPage(await listCompetitors(ctx.db, input), input, (p) => peer.pick(p, 'compact')),
        `competitors of ${input.companyDomain}`,
        peerLabel,
      ),
  }),
  defineTool(usageMetricsOp, {
    args: { ...pageArguments, detail: detailArgument },
    output: pageOutput(usage.schema, { cohortSize: z.number().int().optional().describe('Members in the cohort') }),
    run: async ({ detail, page, size, ...input }, ctx) => {
      const rows = await usageMetrics(ctx.db, input);
      const list = slicePage(rows, { ...input, page, size, ...full(detail) }, (m) => usage.pick(m, detail));
      const more = list.totalPages > 1 ? [links.cohortUsage(input.companyDomain, input.cohort)] : undefined;
      const cohortSize = rows[0]?.cohortSize;
      return pageAnswer(
        list,
        `products used in the ${input.cohort} cohort of ${input.companyDomain}${cohortSize ? ` (${cohortSize} members)` : ''}`,
        (m) => `${m.product} ${m.percentage}%`,
        cohortSize === undefined ? {} : { cohortSize },
        more,
      );
    },
  }),
  defineTool(usageMetricsDetailsOp, {
    args: { detail: detailArgument },
    // rowsLeftOut: true (unlisted) when the rows did not fit and only the counts came inline.
    output: z.object({ items: z.array(comparedCompany) }),
    run: async ({ detail, ...input }, ctx) => {
      const details = await usageDetails(ctx.db, input);
      let items = details.map((d) => ({
        companyDomain: d.companyDomain,
        counts: {
          similar: d.products.filter((r) => r.similar).length,
          different: d.products.filter((r) => r.different).length,
          missing: d.products.filter((r) => r.missing).length,
        },
        products: d.products.filter((r) => detail === 'full' || !r.similar).map((r) => detailRow.pick(r, detail)),
      }));
      const rowsLeftOut = JSON.stringify(items).length > COMPARISON_BUDGET;
      if (rowsLeftOut) items = items.map((i) => ({ ...i, products: [] }));
      const lines = items
        .slice(0, 5)
        .map((i) => `${i.companyDomain}: ${i.counts.similar} similar, ${i.counts.different} different, ${i.counts.missing} missing`);
      const summary = `${input.companyDomain} compared with ${items.length} companies over its categories: ${lines.join('; ')}${items.length > 5 ? '; …' : ''}.${rowsLeftOut ? ' The rows did not fit: read the linked table.' : ''}`;
      return {
        structured: rowsLeftOut ? { items, rowsLeftOut } : { items },
        summary,
        links: [links.comparison(input.companyDomain, input.cohortCompanyDomain)],
      };
    },
  }),
  defineTool(relatedProductsOp, {
    args: { detail: detailArgument },
    output: pageOutput(related.schema),
    run: async ({ detail, ...input }, ctx) =>
      pageAnswer(
        toolPage(await relatedProductsPage(ctx.db, input), { ...input, ...full(detail) }, (p) => related.pick(p, detail)),
        `products related to ${input.productId}`,
        (p) => `${p.name} (lift ${(p.lift as number).toFixed(1)})`,
      ),
  }),
  defineTool(productsInUseOp, {
    output: z.object({ items: z.array(productInUseSchema) }),
    run: async (input, ctx) => {
      const items = await productsInUse(ctx.db, input);
      const inUse = items.filter((i) => i.inUse).map((i) => `${i.productId} (${i.confidence.toFixed(2)})`);
      return {
        structured: { items },
        summary: `${input.companyDomain} uses ${inUse.length} of ${items.length} products checked${inUse.length ? `: ${inUse.join(', ')}` : ''}.`,
      };
    },
  }),
];
