// GET /vendors (exact or fuzzy search) and GET /vendors/{vendorDomain}/products.
import type { FastifyInstance } from 'fastify';
import { searchVendorsOp, vendorProductsOp } from '../../schemas/vendors.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { serve } from '../route-config.ts';

export async function vendorRoutes(app: FastifyInstance): Promise<void> {
  // Reference data (http.referenceData): answers kept until the catalog changes; a typeahead
  // asks the same prefixes again and again, and a fuzzy miss costs ≈ 1.6 ms of PostgreSQL.
  serve(app, searchVendorsOp, (request) => searchVendors(app.db, request.query));
  serve(app, vendorProductsOp, (request) => vendorProducts(app.db, { ...request.params, ...request.query }));
}
