// GET /companies/{companyDomain}/feed?paginationId: the company's news, newest first.
import type { FastifyInstance } from 'fastify';
import { companyFeedOp } from '../../schemas/feed.ts';
import { companyFeed } from '../../services/feed.ts';
import { route } from '../route-config.ts';

export function feedRoutes(app: FastifyInstance) {
  return [route(companyFeedOp, (request) => companyFeed(app.db, { ...request.params, ...request.query }, app.config.cursorSecret))];
}
