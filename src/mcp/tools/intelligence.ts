// Intelligence tools: cohorts and competitors, usage benchmarks, related products and
// products in use. Each calls the same service as its REST route with the same input.
import { defineTool } from '../registry.ts';
import { listCohort, listCompetitors } from '../../services/cohorts.ts';
import { cohortInput, competitorsInput, detailsInput, MAX_COMPARED_COMPANIES, MAX_PRODUCT_IDS, productsInUseInput, relatedInput, usageInput } from '../../schemas/intelligence.ts';
import { usageDetails, usageMetrics } from '../../services/metrics.ts';
import { productsInUse } from '../../services/products-in-use.ts';
import { relatedProducts } from '../../services/related.ts';

export const intelligenceTools = [
  defineTool({
    name: 'company_cohort',
    title: 'Peer cohort of a company',
    description:
      'Members of a company\'s cohort as a page of { domain, name, logo }: Default (nearest peers by industry, size, region and stack), ' +
      'Defined (the operator\'s curated list; error 404 "not configured" when there is none) or Aspirational (same market, one or two ' +
      'size bands larger, more mature stack). Use usage_metrics next to benchmark the cohort\'s technology usage.',
    input: cohortInput,
    run: (args, ctx) => listCohort(ctx.db, args),
  }),
  defineTool({
    name: 'company_competitors',
    title: 'Competitors of a company',
    description: 'Up to 50 companies most like this one in what it does (industry, size, description), as a page of { domain, name, logo }.',
    input: competitorsInput,
    run: (args, ctx) => listCompetitors(ctx.db, args),
  }),
  defineTool({
    name: 'usage_metrics',
    title: 'Technology usage in a cohort',
    description:
      'For each product used in the company\'s cohort: percentage (1-100) of cohort members using it, with product, category, productId, ' +
      'vendorDomain, companiesUsing and cohortSize. Optional vendorDomain or productId narrow the list.',
    input: usageInput,
    run: (args, ctx) => usageMetrics(ctx.db, args),
  }),
  defineTool({
    name: 'usage_metrics_details',
    title: 'Compare a company\'s stack with chosen companies',
    description:
      `Category by category over the company's categories, for each of 1-${MAX_COMPARED_COMPANIES} compared domains (cohortCompanyDomain): ` +
      'similar (runs one of the company\'s products there), different (runs another product, named) or missing. Optional vendorDomain, productId, categoryId filters.',
    input: detailsInput,
    run: (args, ctx) => usageDetails(ctx.db, args),
  }),
  defineTool({
    name: 'products_related_in_cohort',
    title: 'Products related to an anchor product',
    description:
      'Products co-used with the anchor product (productId) by the company\'s cohort, falling back on all companies when the cohort is small; ' +
      'ranked by lift, each with coUsage (share of anchor users also using it) and lift. Never the anchor itself.',
    input: relatedInput,
    run: (args, ctx) => relatedProducts(ctx.db, args),
  }),
  defineTool({
    name: 'products_in_use',
    title: 'Check whether a company uses products',
    description:
      `For 1-${MAX_PRODUCT_IDS} product ids: inUse and a calibrated confidence (0-1) from the install evidence, with lastVerified and hitCount ` +
      'where evidence exists. Ids without evidence (or unknown) answer inUse false, confidence 0. Deterministic: use it to verify AI suggestions.',
    input: productsInUseInput,
    run: (args, ctx) => productsInUse(ctx.db, args),
  }),
];
