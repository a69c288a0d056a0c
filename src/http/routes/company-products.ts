// A company's installed products: paged JSON (POST/GET .../products/paged and
// GET .../products), the CSV export (export=true), the JSONL stream (.../products/json) and the evidence of one product (.../products/{productId}/evidence).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMPANY_PRODUCT_COLUMNS, companyProductsJsonlOp, companyProductsOp, companyProductsPagedOp } from '../../schemas/company-products.ts';
import { companyProducts, streamAllCompanyProducts } from '../../services/company-products.ts';
import { companyProductEvidenceOp } from '../../schemas/evidence.ts';
import { companyProductEvidence } from '../../services/evidence.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { sendCsv, sendJsonLines } from '../replies.ts';
import { route, type RestHandler } from '../route-config.ts';

export function companyProductRoutes(app: FastifyInstance) {
  const actorOf = (request: FastifyRequest) => ({ clientId: principalOf(request).clientId, onBehalfOf: onBehalfOf(request) });
  // The paged products and their GET form answer alike.
  const productsPage: RestHandler<typeof companyProductsPagedOp | typeof companyProductsOp> = async (request, reply) => {
    const { companyDomain } = request.params;
    const { export: isExport, include, ...query } = request.query;
    const stale = app.config.detect.staleAfterDays;
    if (!isExport) return companyProducts(app.db, { companyDomain, ...query }, { evidence: include === 'evidence', staleAfterDays: stale });
    const rows = await streamAllCompanyProducts(app.db, { companyDomain, ...query }, { actor: actorOf(request), format: 'csv' }, stale);
    return sendCsv(reply, `${companyDomain}-products.csv`, rows, COMPANY_PRODUCT_COLUMNS);
  };

  return [
    route(companyProductsPagedOp, productsPage),
    route(companyProductsOp, productsPage),
    route(companyProductsJsonlOp, async (request, reply) => {
      const { export: isExport, ...query } = request.query;
      // The plain stream is an export too (every record), audited without an on-behalf user.
      const actor = isExport ? actorOf(request) : { clientId: principalOf(request).clientId, onBehalfOf: null };
      const exportedBy = { actor, format: 'jsonl' as const };
      const stale = app.config.detect.staleAfterDays;
      return sendJsonLines(reply, await streamAllCompanyProducts(app.db, { companyDomain: request.params.companyDomain, ...query }, exportedBy, stale));
    }),
    route(companyProductEvidenceOp, (request) => companyProductEvidence(app.db, { ...request.params, ...request.query })),
  ];
}
