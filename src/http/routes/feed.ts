// GET /companies/{companyDomain}/feed?paginationId: the company's news, newest first.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { commonErrors } from '../../schemas/common.ts';
import { companyParamsSchema } from '../../schemas/company-products.ts';
import { FEED_PAGE_SIZE, feedQuerySchema, feedSchema } from '../../schemas/feed.ts';
import { companyFeed } from '../../services/feed.ts';

export async function feedRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/companies/:companyDomain/feed', {
    schema: {
      operationId: 'companyFeed',
      summary: "A company's news feed",
      description: `Newest first, ${FEED_PAGE_SIZE} items a page (ties on the date ordered by id). Pass the returned \`paginationId\` to get the next, older page; the last page has none. Following cursors to the end yields every item exactly once. The cursor is opaque, signed and bound to the company: an edited cursor, one issued for another company or a malformed one is 400. Unknown company → 404.`,
      tags: ['Feed'],
      params: companyParamsSchema,
      querystring: feedQuerySchema,
      response: { 200: feedSchema, ...commonErrors },
    },
  }, async (request) => companyFeed(app.db, { ...request.params, ...request.query }, app.config.cursorSecret));
}
