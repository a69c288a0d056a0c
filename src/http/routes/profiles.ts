// People routes: POST /profiles/search (page or CSV export), GET /profiles/{profileId},
// POST /profiles/purchase, GET /credits. Thin: transport → one service call → response.
import type { FastifyInstance } from 'fastify';
import { getCreditsOp, getProfileOp, purchaseProfilesOp, searchProfilesOp } from '../../schemas/profiles.ts';
import { exportProfiles, getProfile, searchProfiles } from '../../services/profiles.ts';
import { getCredits, purchaseProfiles } from '../../services/purchases.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { mergePaging } from '../paging.ts';
import { sendCsv } from '../replies.ts';
import { route } from '../route-config.ts';

export function profileRoutes(app: FastifyInstance) {
  return [
    route(searchProfilesOp, async (request, reply) => {
      const { page: _page, size: _size, ...filters } = request.body;
      const paging = mergePaging(request.query, request.body);
      if (!request.query.export) return searchProfiles(app.db, { ...filters, ...paging });
      const file = await exportProfiles(app.db, principalOf(request), onBehalfOf(request), filters);
      return sendCsv(
        reply,
        file.fileName,
        file.rows,
        file.columns.map((c) => ({ header: c, value: (r) => r[c] })),
      );
    }),

    route(getProfileOp, (request) => getProfile(app.db, principalOf(request).clientId, request.params.profileId)),

    route(purchaseProfilesOp, async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      const outcome = await purchaseProfiles(app.db, principalOf(request), onBehalfOf(request), request.body, {
        idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
      });
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(outcome.statusCode).send(outcome.body);
    }),

    route(getCreditsOp, (request) => getCredits(app.db, principalOf(request).clientId, request.query)),
  ];
}
