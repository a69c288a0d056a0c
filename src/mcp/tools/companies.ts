// Company tools: search (page or CSV export), installed products, firmographics, feed.
import { defineTool, onBehalfOf } from '../registry.ts';
import { MAX_RESULT_CHARS, withNextPage } from '../results.ts';
import { COMPANY_SUMMARY_COLUMNS, searchCompaniesOp } from '../../schemas/companies.ts';
import { companyProductsPagedOp } from '../../schemas/company-products.ts';
import { companyFeedOp } from '../../schemas/feed.ts';
import { companyFirmographicsOp } from '../../schemas/firmographics.ts';
import { exportCompanySearch, searchCompanies } from '../../services/companies.ts';
import { companyProducts } from '../../services/company-products.ts';
import { companyFirmographics } from '../../services/firmographics.ts';
import { companyFeed } from '../../services/feed.ts';
import { csvStream } from '../../csv.ts';

export const companyTools = [
  defineTool(searchCompaniesOp, async (args, ctx) => {
    if (!args.export) {
      const page = await searchCompanies(ctx.db, args.body);
      return withNextPage(page, { page: args.body.page ?? 0 }, (n) => ({ body: { ...args.body, page: n } }));
    }
    const rows = await exportCompanySearch(ctx.db, args.body, { clientId: ctx.principal.clientId, onBehalfOf: onBehalfOf(ctx) });
    return collectCsv(rows, COMPANY_SUMMARY_COLUMNS);
  }),
  defineTool(companyProductsPagedOp, async (args, ctx) => withNextPage(await companyProducts(ctx.db, args), args)),
  defineTool(companyFirmographicsOp, (args, ctx) => companyFirmographics(ctx.db, args)),
  defineTool(companyFeedOp, (args, ctx) => companyFeed(ctx.db, args, ctx.config.cursorSecret)),
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
