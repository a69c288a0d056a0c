// Adoption trends: GET /products/{productId}/adoption, /categories/{categoryId}/adoption, /vendors/{vendorDomain}/adoption.
import type { FastifyInstance } from 'fastify';
import { categoryAdoptionOp, productAdoptionOp, vendorAdoptionOp } from '../../schemas/adoption.ts';
import { adoptionTrend } from '../../services/adoption.ts';
import { route } from '../route-config.ts';

export function adoptionRoutes(app: FastifyInstance) {
  const stale = app.config.detect.staleAfterDays;
  return [
    route(productAdoptionOp, (request) => adoptionTrend(app.db, { kind: 'product', productId: request.params.productId }, request.query, stale)),
    route(categoryAdoptionOp, (request) => adoptionTrend(app.db, { kind: 'category', categoryId: request.params.categoryId }, request.query, stale)),
    route(vendorAdoptionOp, (request) => adoptionTrend(app.db, { kind: 'vendor', vendorDomain: request.params.vendorDomain }, request.query, stale)),
  ];
}
