// GET /vendors (exact or fuzzy search) and GET /vendors/{vendorDomain}/products.
import type { FastifyInstance } from 'fastify';
import { searchVendorsOp, vendorProductsOp } from '../../schemas/vendors.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { serve } from '../route-config.ts';

export async function vendorRoutes(app: FastifyInstance): Promise<void> {
  // Reference data: answers kept until the catalog changes (a typeahead asks the same prefixes
  // again and again; a fuzzy miss costs ≈ 1.6 ms of PostgreSQL on 300 vendors).
  serve(app, searchVendorsOp, (request, reply) => app.referenceCache.reply(request, reply, () => searchVendors(app.db, request.query)));
  serve(app, vendorProductsOp, (request, reply) =>
    app.referenceCache.reply(request, reply, () => vendorProducts(app.db, { ...request.params, ...request.query })),
  );
}
