// Company tools: search (page or CSV export), installed products, firmographics, feed.
// Compact records by default (detail="full" for the whole record), pages with nextPage.
import { z } from 'zod';
import { defineTool, onBehalfOf } from '../registry.ts';
import { MAX_RESULT_CHARS } from '../results.ts';
import { compactOf, detailArgument, named, nextPageSchema, pageAnswer, pageOutput, toolPage } from '../shapes.ts';
import { links } from '../resources.ts';
import { COMPANY_SUMMARY_COLUMNS, companySummarySchema, searchCompaniesOp } from '../../schemas/companies.ts';
import { companyProductSchema, companyProductsPagedOp } from '../../schemas/company-products.ts';
import { companyFeedOp, feedItemSchema } from '../../schemas/feed.ts';
import { companyFirmographicsOp, firmographicsSchema } from '../../schemas/firmographics.ts';
import { exportCompanySearch, searchCompanies } from '../../services/companies.ts';
import { companyProducts } from '../../services/company-products.ts';
import { companyFirmographics } from '../../services/firmographics.ts';
import { companyFeed } from '../../services/feed.ts';
import { csvStream } from '../../csv.ts';

const company = compactOf(companySummarySchema, ['domain', 'name', 'industry', 'employeeRange', 'revenueRange', 'country']);
const csvExport = z.object({
  format: z.literal('text/csv'),
  rows: z.number().int().describe('Data rows in csv'),
  complete: z.boolean().describe('false: cut to fit one result (note says how to get the rest)'),
  csv: z.string().describe('Header row, then one row per company'),
});

const product = compactOf(companyProductSchema, [
  'productId', 'product', 'vendorDomain', 'mainCategory', 'dateLastVerified', 'intensity',
]);

const firmographics = compactOf(firmographicsSchema, [
  'domain', 'name', 'industry', 'employeeRange', 'revenueRange', 'foundedYear', 'hqCountry', 'hqCity', 'description', 'company_type', 'funding', 'linkedinUrl',
]);

const feedItem = compactOf(feedItemSchema, ['date', 'category', 'title', 'sourceUrl']);

export const companyTools = [
  defineTool(searchCompaniesOp, {
    args: { detail: detailArgument },
    output: z.union([pageOutput(company.schema), csvExport]),
    run: async ({ export: asCsv, detail, ...search }, ctx) => {
      if (!asCsv) {
        const page = toolPage(await searchCompanies(ctx.db, search), { ...search, ...(detail === 'full' ? { detail } : {}) }, (c) => company.pick(c, detail));
        return pageAnswer(page, 'companies', (c) => named(c.name as string, c.domain as string));
      }
      const rows = await exportCompanySearch(ctx.db, search, { clientId: ctx.principal.clientId, onBehalfOf: onBehalfOf(ctx) });
      const csv = await collectCsv(rows, COMPANY_SUMMARY_COLUMNS);
      return { structured: csv, summary: `CSV of ${csv.rows} companies${csv.complete ? '' : ` (cut: ${csv.note})`}, in structuredContent.csv.` };
    },
  }),
  defineTool(companyProductsPagedOp, {
    args: { detail: detailArgument },
    output: pageOutput(product.schema),
    run: async ({ detail, ...input }, ctx) => {
      const page = toolPage(await companyProducts(ctx.db, input), withDetail(input, detail), (p) => product.pick(p, detail));
      const more = page.totalPages > 1 ? [links.companyProducts(input.companyDomain)] : undefined;
      return pageAnswer(page, `products used by ${input.companyDomain}`, (p) => `${p.product} (${p.mainCategory})`, {}, more);
    },
  }),
  defineTool(companyFirmographicsOp, {
    args: { detail: detailArgument },
    output: firmographics.schema,
    run: async ({ detail, ...input }, ctx) => {
      const profile = await companyFirmographics(ctx.db, input);
      const f = profile as Record<string, unknown>;
      const facts = [f.industry, f.employeeRange && `${f.employeeRange} employees`, f.revenueRange && `revenue ${f.revenueRange}`, [f.hqCity, f.hqCountry].filter(Boolean).join(', '), f.foundedYear && `founded ${f.foundedYear}`];
      return { structured: firmographics.pick(f, detail), summary: `${named(f.name as string, input.companyDomain)}: ${facts.filter(Boolean).join('; ') || 'no firmographics on record'}.` };
    },
  }),
  defineTool(companyFeedOp, {
    args: { detail: detailArgument },
    output: z.object({ items: z.array(feedItem.schema), nextPage: nextPageSchema }),
    run: async ({ detail, ...input }, ctx) => {
      const feed = await companyFeed(ctx.db, input, ctx.config.cursorSecret);
      const items = feed.feeds.map((item) => feedItem.pick(item, detail));
      const nextPage = feed.paginationId ? { ...withDetail({ companyDomain: input.companyDomain }, detail), paginationId: feed.paginationId } : null;
      const latest = feed.feeds.slice(0, 3).map((i) => `${i.date.slice(0, 10)} ${i.category}: ${i.title}`).join('; ');
      const summary = items.length === 0 ? `No news for ${input.companyDomain}.` : `${items.length} news items for ${input.companyDomain}, newest first: ${latest}${items.length > 3 ? '; …' : ''}.${nextPage ? ' Older items: call again with the arguments in nextPage.' : ''}`;
      return { structured: { items, nextPage }, summary };
    },
  }),
];

/** The arguments of the next page keep detail only when it is not the default. */
function withDetail<T extends object>(args: T, detail: string): T & { detail?: string } {
  return detail === 'full' ? { ...args, detail } : args;
}

/** CSV text of a row stream, stopped at the result bound (the stream's audit records what was sent). */
async function collectCsv<T>(rows: AsyncIterable<T>, columns: Parameters<typeof csvStream<T>>[1]): Promise<z.output<typeof csvExport> & { note?: string }> {
  let csv = '';
  let lines = 0;
  let complete = true;
  const stream = csvStream(rows, columns);
  for await (const chunk of stream) {
    const text = chunk.toString();
    if (csv.length + text.length > MAX_RESULT_CHARS) {
      complete = false;
      stream.destroy();
      break;
    }
    csv += text;
    lines += (text.match(/\r\n/g) ?? []).length;
  }
  const rows_ = Math.max(0, lines - 1);
  return complete
    ? { format: 'text/csv', rows: rows_, complete, csv }
    : { format: 'text/csv', rows: rows_, complete, csv, note: `Cut after ${rows_} rows to fit one result: narrow the search, or use the REST export (POST /api/companies/search?export=true) for the whole file.` };
}
