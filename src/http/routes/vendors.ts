// GET /vendors (exact or fuzzy search), GET /vendors/{vendorDomain}/products and GET /products (by name).
import type { FastifyInstance } from 'fastify';
import { searchProductsOp, searchVendorsOp, vendorProductsOp } from '../../schemas/vendors.ts';
import { searchProducts, searchVendors, vendorProducts } from '../../services/vendors.ts';
import { route } from '../route-config.ts';

export function vendorRoutes(app: FastifyInstance) {
  // Reference data (http.referenceData): answers kept until the catalog changes; a typeahead
  // asks the same prefixes again and again, and a fuzzy miss costs ≈ 1.6 ms of PostgreSQL.
  return [
    route(searchVendorsOp, (request) => searchVendors(app.db, request.query)),
    route(vendorProductsOp, (request) => vendorProducts(app.db, { ...request.params, ...request.query })),
    route(searchProductsOp, (request) => searchProducts(app.db, request.query)),
  ];
}
