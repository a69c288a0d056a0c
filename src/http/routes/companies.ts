// POST /companies/search: a page of Company summaries, or (export=true) the CSV of all matches;
// POST /companies/facets: the matches counted by one or two dimensions.
import type { FastifyInstance } from 'fastify';
import { COMPANY_SUMMARY_COLUMNS, searchCompaniesOp } from '../../schemas/companies.ts';
import { companyFacets, exportCompanySearch, searchCompanies } from '../../services/companies.ts';
import { companyFacetsOp } from '../../schemas/facets.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { mergePaging } from '../paging.ts';
import { sendCsv } from '../replies.ts';
import { route } from '../route-config.ts';

export function companyRoutes(app: FastifyInstance) {
  return [
    route(searchCompaniesOp, async (request, reply) => {
      const body = request.body ?? {};
      const input = { ...body, ...mergePaging(request.query, body) };
      if (!request.query.export) return searchCompanies(app.db, input);
      const actor = { clientId: principalOf(request).clientId, onBehalfOf: onBehalfOf(request) };
      return sendCsv(reply, 'companies.csv', await exportCompanySearch(app.db, input, actor), COMPANY_SUMMARY_COLUMNS);
    }),
    route(companyFacetsOp, (request) =>
      companyFacets(app.db, request.body, { clientId: principalOf(request).clientId }, { maxStalenessMs: app.config.facetsMaxStalenessMs }),
    ),
  ];
}
