// AI helper routes: POST /ai/find-customers-of-products, /ai/find-techstacks-for-company,
// /ai/find-people-profiles. Input in the query string, no body; the answer is the API's
// JSON array. What the prompt was understood as travels in response headers, so the body
// stays a plain array. Thin: transport → one service call → response.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { findCustomersOfProductsOp, findPeopleProfilesOp, findTechStacksForCompanyOp } from '../../schemas/ai.ts';
import { findCustomersOfProducts, findPeopleProfiles, findTechStacksForCompany, type AiAnswer } from '../../services/ai.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

/** Header values must be visible ASCII: anything else (and '%') is percent-encoded. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]|%/gu, (c) => encodeURIComponent(c));
}

function send<T>(reply: FastifyReply, answer: AiAnswer<T>): T[] {
  reply.header('x-stacklens-understood', headerSafe(answer.understood.described));
  reply.header('x-stacklens-parser', answer.understood.parser);
  if (answer.understood.fallbackReason) reply.header('x-stacklens-parser-fallback', answer.understood.fallbackReason);
  return answer.items;
}

export function aiRoutes(app: FastifyInstance) {
  return [
    route(findCustomersOfProductsOp, async (request, reply) =>
      send(reply, await findCustomersOfProducts(app.db, app.config, principalOf(request), onBehalfOf(request), request.query)),
    ),
    route(findTechStacksForCompanyOp, async (request, reply) =>
      send(reply, await findTechStacksForCompany(app.db, app.config, principalOf(request), onBehalfOf(request), request.query)),
    ),
    route(findPeopleProfilesOp, async (request, reply) =>
      send(reply, await findPeopleProfiles(app.db, app.config, principalOf(request), onBehalfOf(request), request.query)),
    ),
  ];
}
