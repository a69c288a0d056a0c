// POST /companies/search: a page of Company summaries, or (export=true) the CSV of all matches.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onBehalfOfHeaders } from '../../schemas/params.ts';

import { commonErrors } from '../../schemas/common.ts';
import { COMPANY_SUMMARY_COLUMNS, companySearchBodySchema, companySearchPageSchema, companySearchQuerySchema } from '../../schemas/companies.ts';
import { exportCompanySearch, searchCompanies } from '../../services/companies.ts';
import { principalOf, requireAttributedAction } from '../plugins/auth.ts';
import { sendCsv } from '../replies.ts';
import { allowEmptyJsonBody } from '../empty-body.ts';

export async function companyRoutes(app: FastifyInstance): Promise<void> {
  allowEmptyJsonBody(app);
  app.withTypeProvider<ZodTypeProvider>().post('/companies/search', {
    schema: {
      operationId: 'searchCompanies',
      summary: 'Search companies by firmographics and technology stack',
      description: [
        'Accepts both body shapes of the spec in any mix: a structured `filter` and top-level `query`, `countries`, `industries`, `employeeRange`, `revenueRange`, `domains`. Everything given must hold.',
        'Results are sorted by name, then id (stable across pages). A filter that matches nothing is an empty page; unknown vendors, products, categories and company domains named in the body are 404, unknown industries and band labels 400.',
        `With \`export=true\` the answer is a CSV stream of every match (not one page), columns: ${COMPANY_SUMMARY_COLUMNS.map((c) => c.header).join(', ')}. It needs the export permission and X-On-Behalf-Of-User, and is audited.`,
      ].join('\n\n'),
      tags: ['Companies'],
      querystring: companySearchQuerySchema,
      headers: onBehalfOfHeaders,
      body: companySearchBodySchema.nullish(),
      response: {
        200: {
          description: 'A page of Company summaries, or the CSV export',
          content: {
            'application/json': { schema: companySearchPageSchema },
            'text/csv': { schema: z.string().describe('CSV with a header row') },
          },
        },
        ...commonErrors,
      },
    },
  }, async (request, reply) => {
    const q = request.query;
    const body = request.body ?? {};
    const input = { ...body, page: body.page ?? q.page, size: body.size ?? q.size };
    if (q.export) {
      const onBehalfOf = requireAttributedAction(request, 'export');
      const rows = await exportCompanySearch(app.db, input, { clientId: principalOf(request).clientId, onBehalfOf });
      return sendCsv(reply, 'companies.csv', rows, COMPANY_SUMMARY_COLUMNS);
    }
    return searchCompanies(app.db, input);
  });
}
