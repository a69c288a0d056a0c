// POST /companies/lookalikes: companies ranked by similarity to a seed set, each explained.
import type { FastifyInstance } from 'fastify';
import { findLookalikesOp } from '../../schemas/lookalikes.ts';
import { findLookalikes } from '../../services/lookalikes.ts';
import { route } from '../route-config.ts';
import { principalOf } from '../plugins/auth.ts';

export function lookalikeRoutes(app: FastifyInstance) {
  return [route(findLookalikesOp, (request) => findLookalikes(app.db, request.body, principalOf(request).clientId))];
}
