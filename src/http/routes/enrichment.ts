// POST /companies/enrich: the enriched rows of up to 10,000 domains, streamed as JSON Lines or CSV.
import type { FastifyInstance } from 'fastify';
import { enrichCompaniesOp, enrichCsvColumns } from '../../schemas/enrichment.ts';
import { enrichCompanies, enrichTargets } from '../../services/enrichment.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { sendCsv, sendJsonLines } from '../replies.ts';
import { route } from '../route-config.ts';

export function enrichmentRoutes(app: FastifyInstance) {
  return [
    route(enrichCompaniesOp, async (request, reply) => {
      const { domains, listId, columns, format } = request.body;
      const actor = { clientId: principalOf(request).clientId, onBehalfOf: onBehalfOf(request) };
      const rows = await enrichCompanies(app.db, await enrichTargets(app.db, actor.clientId, { domains, listId, columns }), { actor, format });
      return format === 'csv' ? sendCsv(reply, 'enriched-companies.csv', rows, enrichCsvColumns(columns)) : sendJsonLines(reply, rows);
    }),
  ];
}
