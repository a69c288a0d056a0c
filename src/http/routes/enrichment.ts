// POST /companies/enrich: the enriched rows of up to 10,000 domains, streamed as JSON Lines or CSV.
import type { FastifyInstance } from 'fastify';
import { enrichCompaniesOp, enrichCsvColumns, OBSERVE_DOMAINS_HEADER, OBSERVE_JOB_HEADER } from '../../schemas/enrichment.ts';
import { detectDepsOf } from '../../services/detect.ts';
import { enrichCompanies, enrichTargets } from '../../services/enrichment.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { sendCsv, sendJsonLines } from '../replies.ts';
import { route } from '../route-config.ts';

export function enrichmentRoutes(app: FastifyInstance) {
  return [
    route(enrichCompaniesOp, async (request, reply) => {
      const { domains, listId, columns, format, observeMissing } = request.body;
      const actor = { clientId: principalOf(request).clientId, onBehalfOf: onBehalfOf(request) };
      const observe = observeMissing ? { deps: detectDepsOf(app.config.detect, app.detector), staleAfterDays: app.config.detect.staleAfterDays } : undefined;
      const { rows, observeJob } = await enrichCompanies(app.db, await enrichTargets(app.db, actor.clientId, { domains, listId, columns }), {
        actor,
        format,
        ...(observe ? { observeMissing: observe } : {}),
      });
      // The body is the rows: the detection job is named in headers (its progress: GET /api/admin/jobs/{id}).
      if (observeJob) reply.header(OBSERVE_JOB_HEADER, observeJob.id).header(OBSERVE_DOMAINS_HEADER, String(observeJob.domains));
      return format === 'csv' ? sendCsv(reply, 'enriched-companies.csv', rows, enrichCsvColumns(columns)) : sendJsonLines(reply, rows);
    }),
  ];
}
