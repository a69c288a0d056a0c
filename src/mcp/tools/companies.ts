// Company tools: search (page, or an export as a link to a CSV resource), installed
// products, firmographics, feed. Compact records by default (detail="full" for the whole
// record), pages with nextPage.
import { z } from 'zod';
import { defineTool, onBehalfOf } from '../registry.ts';
import { compactOf, detailArgument, named, nextPageSchema, pageAnswer, pageOutput, toolPage } from '../shapes.ts';
import { companySearchExport, links } from '../resources.ts';
import { createExportLink } from '../exports.ts';
import { companySummarySchema, searchCompaniesOp } from '../../schemas/companies.ts';
import { companyProductSchema, companyProductsPagedOp } from '../../schemas/company-products.ts';
import { companyFeedOp, feedItemSchema } from '../../schemas/feed.ts';
import { companyFirmographicsOp, firmographicsSchema } from '../../schemas/firmographics.ts';
import { companyFacets, searchCompanies } from '../../services/companies.ts';
import { facetDimensionSchema, facetsBodySchema, facetsSchema, type Facets } from '../../schemas/facets.ts';
import { companyProducts } from '../../services/company-products.ts';
import { companyFirmographics } from '../../services/firmographics.ts';
import { companyFeed } from '../../services/feed.ts';
import { companyConsoleUrl, searchConsoleUrl } from '../console-links.ts';
import type { ToolAnswer } from '../registry.ts';

const company = compactOf(companySummarySchema, ['domain', 'name', 'industry', 'employeeRange', 'revenueRange', 'country']);
const csvExport = z.object({
  format: z.literal('text/csv'),
  rows: z.number().int().describe('Companies matching now'),
  uri: z.string().describe('The CSV: read it with resources/read'),
  expiresAt: z.string(),
});

// Count mode (market sizing, POST /companies/facets): the matches counted, no rows and no credits;
// one of the plan's facetsPerDay like the REST call.
const countArgument = z
  .union([z.literal(true), z.array(facetDimensionSchema).min(1).max(2)])
  .optional()
  .describe(
    'true: count the matches instead (no rows); or 1-2 of country, industry, employeeBand, revenueBand, technology, category: counts per cell with 3 samples',
  );

const product = compactOf(companyProductSchema, ['productId', 'product', 'vendorDomain', 'mainCategory', 'dateLastVerified', 'intensity']);

const firmographics = compactOf(firmographicsSchema, [
  'domain',
  'name',
  'industry',
  'employeeRange',
  'revenueRange',
  'foundedYear',
  'hqCountry',
  'hqCity',
  'description',
  'company_type',
  'funding',
  'linkedinUrl',
]);

const feedItem = compactOf(feedItemSchema, ['date', 'category', 'title', 'sourceUrl']);

export const companyTools = [
  defineTool(searchCompaniesOp, {
    args: { detail: detailArgument, count: countArgument },
    output: z.union([pageOutput(company.schema), csvExport, facetsSchema]),
    run: async ({ export: asCsv, detail, count, ...search }, ctx) => {
      if (count) {
        const { page: _page, size: _size, ...filter } = search;
        const facets = await companyFacets(
          ctx.db,
          facetsBodySchema.parse({ ...filter, dimensions: count === true ? [] : count }),
          { clientId: ctx.principal.clientId },
          { maxStalenessMs: ctx.config.facetsMaxStalenessMs },
        );
        return withLink({ structured: facets, summary: facetsSummary(facets) }, searchConsoleUrl(ctx.config.publicUrl, search, facets.dimensions));
      }
      if (!asCsv) {
        const page = toolPage(await searchCompanies(ctx.db, search), { ...search, ...(detail === 'full' ? { detail } : {}) }, (c) => company.pick(c, detail));
        return withLink(
          pageAnswer(page, 'companies', (c) => named(c.name as string, c.domain as string)),
          searchConsoleUrl(ctx.config.publicUrl, search),
        );
      }
      // The search runs once here (its arguments checked, the matches counted); the CSV is made when the link is read.
      onBehalfOf(ctx);
      const { totalElements: rows } = await searchCompanies(ctx.db, { ...search, page: 0, size: 1 });
      const link = await createExportLink(ctx, companySearchExport, search);
      return {
        structured: { format: 'text/csv', rows, ...link },
        summary: `Export of ${rows} companies as CSV: read ${link.uri} with resources/read (until ${link.expiresAt}).`,
        links: [links.companyExport(link, rows)],
      };
    },
  }),
  defineTool(companyProductsPagedOp, {
    args: { detail: detailArgument },
    output: pageOutput(product.schema),
    run: async ({ detail, ...input }, ctx) => {
      const page = toolPage(await companyProducts(ctx.db, input, { staleAfterDays: ctx.config.detect.staleAfterDays }), withDetail(input, detail), (p) =>
        product.pick(p, detail),
      );
      const more = page.totalPages > 1 ? [links.companyProducts(input.companyDomain)] : undefined;
      return withLink(
        pageAnswer(page, `products used by ${input.companyDomain}`, (p) => `${p.product} (${p.mainCategory})`, {}, more),
        companyConsoleUrl(ctx.config.publicUrl, input.companyDomain),
      );
    },
  }),
  defineTool(companyFirmographicsOp, {
    args: { detail: detailArgument },
    output: firmographics.schema,
    run: async ({ detail, ...input }, ctx) => {
      const profile = await companyFirmographics(ctx.db, input);
      const f = profile as Record<string, unknown>;
      const facts = [
        f.industry,
        f.employeeRange && `${f.employeeRange} employees`,
        f.revenueRange && `revenue ${f.revenueRange}`,
        [f.hqCity, f.hqCountry].filter(Boolean).join(', '),
        f.foundedYear && `founded ${f.foundedYear}`,
      ];
      return withLink(
        {
          structured: firmographics.pick(f, detail),
          summary: `${named(f.name as string, input.companyDomain)}: ${facts.filter(Boolean).join('; ') || 'no firmographics on record'}.`,
        },
        companyConsoleUrl(ctx.config.publicUrl, input.companyDomain),
      );
    },
  }),
  defineTool(companyFeedOp, {
    args: { detail: detailArgument },
    output: z.object({ items: z.array(feedItem.schema), nextPage: nextPageSchema }),
    run: async ({ detail, ...input }, ctx) => {
      const feed = await companyFeed(ctx.db, input, ctx.config.cursorSecret);
      const items = feed.feeds.map((item) => feedItem.pick(item, detail));
      const nextPage = feed.paginationId ? { ...withDetail({ companyDomain: input.companyDomain }, detail), paginationId: feed.paginationId } : null;
      const latest = feed.feeds
        .slice(0, 3)
        .map((i) => `${i.date.slice(0, 10)} ${i.category}: ${i.title}`)
        .join('; ');
      const summary =
        items.length === 0
          ? `No news for ${input.companyDomain}.`
          : `${items.length} news items for ${input.companyDomain}, newest first: ${latest}${items.length > 3 ? '; …' : ''}.${nextPage ? ' Older items: call again with the arguments in nextPage.' : ''}`;
      return { structured: { items, nextPage }, summary };
    },
  }),
];

/** The answer with a last line a person can open: the same search or company in the console. */
function withLink(answer: ToolAnswer, url: string | null): ToolAnswer {
  return url ? { ...answer, summary: `${answer.summary}\nOpen in the console: ${url}` } : answer;
}

/** "412 companies. By country × employeeBand (14 cells): US, 51-200 180 (acme.com, …); …" */
function facetsSummary(f: Facets): string {
  const head = `${f.total} companies match.`;
  if (f.dimensions.length === 0) return head;
  const label = (v: Facets['cells'][number]['values'][number]) => v.name ?? v.value ?? 'unknown';
  const shown = f.cells.slice(0, 10).map((c) => {
    const sample = c.sample.length ? ` (${c.sample.map((s) => s.domain).join(', ')})` : '';
    return `${c.values.map(label).join(', ')}: ${c.companies}${sample}`;
  });
  const more = f.cellCount > shown.length ? `; … (${f.cellCount} cells in all, the largest first in the structured answer)` : '';
  return `${head} By ${f.dimensions.join(' × ')}: ${shown.join('; ')}${more}.`;
}

/** The arguments of the next page keep detail only when it is not the default. */
function withDetail<T extends object>(args: T, detail: string): T & { detail?: string } {
  return detail === 'full' ? { ...args, detail } : args;
}
