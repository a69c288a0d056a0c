// GET /vendors (exact or fuzzy search) and GET /vendors/{vendorDomain}/products.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { commonErrors } from '../../schemas/common.ts';
import { productPageSchema, vendorPageSchema, vendorParamsSchema, vendorProductsQuerySchema, vendorSearchInputSchema } from '../../schemas/vendors.ts';
import { searchVendors, vendorProducts } from '../../services/vendors.ts';
import { FUZZY_THRESHOLD } from '../../schemas/vendors.ts';

// The spec lists no 403 for the vendor calls: they need no permission beyond authentication.
const { 403: _forbidden, ...vendorErrors } = commonErrors;

export async function vendorRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/vendors', {
    schema: {
      operationId: 'searchVendors',
      summary: 'Search vendors by name or domain',
      description: `\`fuzzy=false\`: case-insensitive exact match on the name, or on the domain (normalized). \`fuzzy=true\`: vendors whose name or domain contains the text or has a trigram similarity of at least ${FUZZY_THRESHOLD} (pg_trgm similarity / word_similarity), best score first, then by name. Without \`vendor\`: every vendor by name. No match is an empty page.`,
      tags: ['Vendors'],
      querystring: vendorSearchInputSchema,
      response: { 200: vendorPageSchema, ...vendorErrors },
    },
  }, async (request) => searchVendors(app.db, request.query));

  r.get('/vendors/:vendorDomain/products', {
    schema: {
      operationId: 'vendorProducts',
      summary: "A vendor's products",
      description: 'Products of the vendor sorted by name then id; `productName` filters by case-insensitive substring. Unknown vendor → 404.',
      tags: ['Vendors'],
      params: vendorParamsSchema,
      querystring: vendorProductsQuerySchema,
      response: { 200: productPageSchema, ...vendorErrors },
    },
  }, async (request) => vendorProducts(app.db, { ...request.params, ...request.query }));
}
