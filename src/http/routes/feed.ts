// GET /companies/{companyDomain}/feed?paginationId: the company's news, newest first.
import type { FastifyInstance } from 'fastify';
import { companyFeedOp } from '../../schemas/feed.ts';
import { companyFeed } from '../../services/feed.ts';
import { serve } from '../route-config.ts';

export async function feedRoutes(app: FastifyInstance): Promise<void> {
  serve(app, companyFeedOp, (request) => companyFeed(app.db, { ...request.params, ...request.query }, app.config.cursorSecret));
}
