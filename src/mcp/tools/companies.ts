// Company tools: search (page or CSV export), installed products, firmographics, feed.
import { z } from 'zod';
import { defineTool } from '../registry.ts';
import { MAX_RESULT_CHARS, withNextPage } from '../results.ts';
import { COMPANY_SUMMARY_COLUMNS, companySearchBodySchema } from '../../schemas/companies.ts';
import { companyProductsInputSchema } from '../../schemas/company-products.ts';
import { feedInputSchema } from '../../schemas/feed.ts';
import { companyParamsSchema } from '../../schemas/company-products.ts';
import { exportCompanySearch, searchCompanies } from '../../services/companies.ts';
import { companyProducts } from '../../services/company-products.ts';
import { companyFirmographics } from '../../services/firmographics.ts';
import { companyFeed } from '../../services/feed.ts';
import { csvStream } from '../../csv.ts';

export const companyTools = [
  defineTool({
    name: 'companies_search',
    title: 'Search companies',
    description:
      'Finds companies by firmographics and technology stack. `body` is the company search payload: free text `query`, `countries` ' +
      '(ISO-2), `industries`, `employeeRange`/`revenueRange` band labels, `domains`, `page`, `size`, and a structured `filter` ' +
      '(vendorDomainIn/NotIn, productIdIn/NotIn, mainCategoryIdIn/NotIn with their ...And booleans, intensityBucketIn LOW|MEDIUM|HIGH, ' +
      'dateLastVerifiedBucketIn RECENT|NEW|OLD|ANCIENT, companyNameContains, countryIn, industryIn, ...). Returns a page of company ' +
      'summaries with nextPage. export=true returns the matches as CSV text instead (needs the export permission and onBehalfOfUser; ' +
      'cut at about 25k tokens — use the REST export for whole files).',
    input: z.object({
      export: z.boolean().default(false).describe('true: CSV of every match instead of one page'),
      body: companySearchBodySchema.default({}).describe('The company search payload (both shapes, in any mix: top-level query and lists, and a structured filter)'),
    }),
    permission: (args) => (args.export ? 'export' : undefined),
    rateClass: (args) => (args.export ? 'export' : 'default'),
    run: async (args, ctx) => {
      if (!args.export) {
        const page = await searchCompanies(ctx.db, args.body);
        return withNextPage(page, { page: args.body.page ?? 0 }, (n) => ({ body: { ...args.body, page: n } }));
      }
      const rows = await exportCompanySearch(ctx.db, args.body, { clientId: ctx.principal.clientId, onBehalfOf: ctx.onBehalfOf! });
      return collectCsv(rows, COMPANY_SUMMARY_COLUMNS);
    },
  }),
  defineTool({
    name: 'company_products_paged',
    title: "A company's installed products",
    description:
      'The products a company (companyDomain) is seen using, with the evidence: first/last verified dates, hit count, intensity, ' +
      'category (main, parent, top level) and vendor. Optional mainCategory (names) / mainCategoryId (ids) narrow to categories and ' +
      'their subtrees. Paged (nextPage). To check specific products use products_in_use.',
    input: companyProductsInputSchema,
    run: async (args, ctx) => withNextPage(await companyProducts(ctx.db, args), args),
  }),
  defineTool({
    name: 'company_firmographics',
    title: 'Company firmographics',
    description:
      "A company's firmographic profile: name, industry, size and revenue, headquarters, founding, funding rounds, acquisitions, " +
      'CEO, stock, social links. Fields can be absent: check presence.',
    input: companyParamsSchema,
    run: (args, ctx) => companyFirmographics(ctx.db, args),
  }),
  defineTool({
    name: 'company_feed',
    title: 'Company news feed',
    description:
      "A company's news and activity (funding, acquisitions, people moves, press, blog, videos), newest first, 20 per call. Pass the " +
      'returned paginationId to get older items; no paginationId in the answer means the end.',
    input: feedInputSchema,
    run: (args, ctx) => companyFeed(ctx.db, args, ctx.config.cursorSecret),
  }),
];

/** CSV text of a row stream, stopped at the result bound (the stream's audit records what was sent). */
async function collectCsv<T>(rows: AsyncIterable<T>, columns: Parameters<typeof csvStream<T>>[1]) {
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
  const rowCount = Math.max(0, lines - 1);
  return complete
    ? { format: 'text/csv', rows: rowCount, complete, csv }
    : { format: 'text/csv', rows: rowCount, complete, csv, note: `Cut after ${rowCount} rows to fit one result: narrow the search, or use the REST export (POST /api/companies/search?export=true) for the whole file.` };
}
