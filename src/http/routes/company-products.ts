// A company's installed products: paged JSON (POST/GET .../products/paged and
// GET .../products), the CSV export (export=true) and the JSONL stream (.../products/json).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onBehalfOfHeaders } from '../../schemas/params.ts';
import { commonErrors } from '../../schemas/common.ts';
import {
  COMPANY_PRODUCT_COLUMNS, companyParamsSchema, companyProductPageSchema, companyProductsJsonlQuerySchema, companyProductsQuerySchema,
} from '../../schemas/company-products.ts';
import { companyProducts, streamAllCompanyProducts } from '../../services/company-products.ts';
import { principalOf, requireAttributedAction } from '../plugins/auth.ts';
import { sendCsv, sendJsonLines } from '../replies.ts';
import { allowEmptyJsonBody } from '../empty-body.ts';
import { EXPORT_ROUTE } from '../route-config.ts';
import { describeDateBuckets, describeIntensityBuckets } from '../../intelligence/buckets.ts';

type Params = z.output<typeof companyParamsSchema>;
type Query = z.output<typeof companyProductsQuerySchema>;

const CSV_COLUMNS = COMPANY_PRODUCT_COLUMNS.map((c) => c.header).join(', ');
const PAGED_DESCRIPTION = [
  'One page of the Company product records of a company, sorted by product name then product id (stable). `mainCategory` (name, case-insensitive) and `mainCategoryId` select categories; a parent category selects its whole subtree; an unknown name or id is 404.',
  `\`intensityBucket\`: ${describeIntensityBuckets()}. \`dateLastVerifiedBucket\`: ${describeDateBuckets()}.`,
  `With \`export=true\` the answer is the CSV of every record, sorted by product id (needs the export permission and X-On-Behalf-Of-User; audited), columns: ${CSV_COLUMNS}.`,
].join('\n\n');

const pagedResponse = {
  200: {
    description: 'A page of Company product records, or the CSV export when export=true',
    content: {
      'application/json': { schema: companyProductPageSchema },
      'text/csv': { schema: z.string().describe(`CSV with a header row: ${CSV_COLUMNS}`) },
    },
  },
  ...commonErrors,
};

export async function companyProductRoutes(app: FastifyInstance): Promise<void> {
  allowEmptyJsonBody(app);
  const r = app.withTypeProvider<ZodTypeProvider>();

  const handler = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    const { companyDomain } = request.params;
    const q = request.query;
    if (q.export) {
      const onBehalfOf = requireAttributedAction(request, 'export');
      const rows = await streamAllCompanyProducts(app.db, { companyDomain, mainCategory: q.mainCategory, mainCategoryId: q.mainCategoryId }, { actor: { clientId: principalOf(request).clientId, onBehalfOf }, format: 'csv' });
      return sendCsv(reply, `${companyDomain}-products.csv`, rows, COMPANY_PRODUCT_COLUMNS);
    }
    return companyProducts(app.db, { companyDomain, ...q });
  };

  for (const method of ['POST', 'GET'] as const) {
    r.route({
      method,
      url: '/companies/:companyDomain/products/paged',
      schema: {
        operationId: method === 'POST' ? 'companyProductsPaged' : 'companyProductsPagedGet',
        summary: `A company's products, paged${method === 'POST' ? ' (POST with an empty body)' : ''}`,
        description: PAGED_DESCRIPTION,
        tags: ['Company products'],
        params: companyParamsSchema,
        querystring: companyProductsQuerySchema,
        headers: onBehalfOfHeaders,
        response: pagedResponse,
      },
      handler,
    });
  }

  r.get('/companies/:companyDomain/products', {
    schema: {
      operationId: 'companyProducts',
      summary: "A company's products: the CSV export (export=true, Accept: text/csv) or a JSON page",
      description: `${PAGED_DESCRIPTION}\n\nWithout \`export=true\` this is the same JSON page as .../products/paged.`,
      tags: ['Company products'],
      params: companyParamsSchema,
      querystring: companyProductsQuerySchema,
      headers: onBehalfOfHeaders,
      response: pagedResponse,
    },
  }, handler);

  r.get('/companies/:companyDomain/products/json', {
    config: EXPORT_ROUTE,
    schema: {
      operationId: 'companyProductsJsonl',
      summary: "Every product of a company as JSON Lines, streamed",
      description: 'application/jsonl: one full Company product record per line (the schema of CompanyProduct), sorted by product id; timestamps are full ISO 8601. `export=true` makes it an attributed export (export permission and X-On-Behalf-Of-User; audited).',
      tags: ['Company products'],
      params: companyParamsSchema,
      querystring: companyProductsJsonlQuerySchema,
      headers: onBehalfOfHeaders,
      response: {
        200: {
          description: 'One CompanyProduct JSON object per line',
          content: { 'application/jsonl': { schema: z.string().describe('JSON Lines of CompanyProduct records') } },
        },
        ...commonErrors,
      },
    },
  }, async (request, reply) => {
    const q = request.query;
    const exportedBy = q.export
      ? { actor: { clientId: principalOf(request).clientId, onBehalfOf: requireAttributedAction(request, 'export') }, format: 'jsonl' as const }
      : null;
    const rows = await streamAllCompanyProducts(app.db, { companyDomain: request.params.companyDomain, mainCategory: q.mainCategory, mainCategoryId: q.mainCategoryId }, exportedBy);
    return sendJsonLines(reply, rows);
  });
}
