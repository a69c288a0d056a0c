// GET /lookup: names → the ids the search filters take (also the MCP lookup tool).
import type { FastifyInstance } from 'fastify';
import { lookupOp } from '../../schemas/lookup.ts';
import { lookup } from '../../services/lookup.ts';
import { route } from '../route-config.ts';

export function lookupRoutes(app: FastifyInstance) {
  return [route(lookupOp, (request) => lookup(app.db, request.query))];
}
