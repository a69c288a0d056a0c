// GET /vendors (exact or fuzzy search) and GET /vendors/{vendorDomain}/products.
import type { FastifyInstance } from 'fastify';
import { searchVendorsOp, vendorProductsOp } from '../../schemas/vendors.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { serve } from '../route-config.ts';

export async function vendorRoutes(app: FastifyInstance): Promise<void> {
  serve(app, searchVendorsOp, (request) => searchVendors(app.db, request.query));
  serve(app, vendorProductsOp, (request) => vendorProducts(app.db, { ...request.params, ...request.query }));
}
