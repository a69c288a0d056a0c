// People routes: POST /profiles/search (page or CSV export), GET /profiles/{profileId},
// POST /profiles/purchase, GET /credits. Thin: transport → one service call → response.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf, requireAttributedAction } from '../plugins/auth.ts';
import { sendCsv } from '../replies.ts';
import { BadRequestError } from '../../errors.ts';
import { commonErrors, errorBodySchema } from '../../schemas/common.ts';
import {
  creditsQuery,
  creditsSchema,
  onBehalfHeaders,
  profileCsvSchema,
  profileDetailSchema,
  profileIdParams,
  profilePageSchema,
  profilePurchaseInput,
  profileSearchBody,
  profileSearchQuery,
  purchaseHeaders,
  purchaseResponseSchema,
} from '../../schemas/profiles.ts';
import { exportProfiles, getProfile, searchProfiles } from '../../services/profiles.ts';
import { getCredits, purchaseProfiles } from '../../services/purchases.ts';

const TAG = 'People';

/** page/size may come from the query or the body; both given and different is ambiguous. */
function pick(name: 'page' | 'size', fromQuery: number | undefined, fromBody: number | undefined, def: number): number {
  if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
    throw new BadRequestError(`${name}: given in both the query string (${fromQuery}) and the body (${fromBody}); send it once`);
  }
  return fromQuery ?? fromBody ?? def;
}

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/profiles/search', {
    // No rateClass: the rate limiter counts `?export=true` requests as exports by itself;
    // marking the route 'export' would spend the export quota on every plain search.
    schema: {
      summary: 'Search people profiles',
      description:
        'Filters combine with AND; values inside a list with OR. At least one meaningful filter is required. ' +
        'Results are ordered by profile id and never include emails or phones. ' +
        'With export=true every match streams as CSV (text/csv) instead, which needs the export permission and X-On-Behalf-Of-User and is audited.',
      tags: [TAG],
      querystring: profileSearchQuery,
      headers: onBehalfHeaders,
      body: profileSearchBody,
      response: {
        200: {
          description: 'A page of profile summaries, or the CSV file when export=true',
          content: { 'application/json': { schema: profilePageSchema }, 'text/csv': { schema: profileCsvSchema } },
        },
        ...commonErrors,
      },
    },
  }, async (request, reply) => {
    const { export: isExport, page: qPage, size: qSize } = request.query;
    const { page: bPage, size: bSize, ...filters } = request.body;
    const paging = { page: pick('page', qPage, bPage, 0), size: pick('size', qSize, bSize, 20) };
    if (isExport) {
      const onBehalfOf = requireAttributedAction(request, 'export');
      const file = await exportProfiles(app.db, principalOf(request), onBehalfOf, filters);
      return sendCsv(reply, file.fileName, file.rows, file.columns.map((c) => ({ header: c, value: (r) => r[c] })));
    }
    return searchProfiles(app.db, { ...filters, ...paging });
  });

  app.get('/profiles/:profileId', {
    schema: {
      summary: 'One people profile; emails and phones once purchased by this client',
      tags: [TAG],
      params: profileIdParams,
      response: { 200: profileDetailSchema, ...commonErrors },
    },
  }, async (request) => getProfile(app.db, principalOf(request).clientId, request.params.profileId));

  app.post('/profiles/purchase', {
    // Permission and attribution come before body validation: a client that may not buy
    // learns nothing more from its request.
    preValidation: async (request) => {
      requireAttributedAction(request, 'purchase');
    },
    schema: {
      summary: 'Buy the contact details of profiles (one credit per new profile)',
      description:
        'All-or-nothing: when the credits do not cover the profiles not yet bought, 402 and nothing is charged. ' +
        'already_purchased and not_found cost nothing. Exactly once per client and profile, also under concurrency. ' +
        'An Idempotency-Key makes retries safe: the same key and body return the stored response (header Idempotent-Replayed: true).',
      tags: [TAG],
      headers: purchaseHeaders,
      body: profilePurchaseInput,
      response: {
        200: purchaseResponseSchema,
        ...commonErrors,
        402: errorBodySchema.describe('Not enough credits for the profiles not yet bought; nothing was charged'),
        413: errorBodySchema.describe('More than 100 distinct profile ids'),
        422: errorBodySchema.describe('The Idempotency-Key was already used with a different request'),
      },
    },
  }, async (request, reply) => {
    const onBehalfOf = requireAttributedAction(request, 'purchase');
    const outcome = await purchaseProfiles(app.db, principalOf(request), onBehalfOf, request.body, {
      idempotencyKey: request.headers['idempotency-key'],
    });
    if (outcome.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(outcome.statusCode).send(outcome.body);
  });

  app.get('/credits', {
    schema: {
      summary: 'Credit balance and the most recent ledger entries',
      tags: [TAG],
      querystring: creditsQuery,
      response: { 200: creditsSchema, ...commonErrors },
    },
  }, async (request) => getCredits(app.db, principalOf(request).clientId, request.query));
};
