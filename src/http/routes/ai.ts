// AI helper routes: POST /ai/find-customers-of-products, /ai/find-techstacks-for-company,
// /ai/find-people-profiles. Input in the query string, no body; the answer is the API's
// JSON array. What the prompt was understood as travels in response headers, so the body
// stays a plain array. Thin: transport → one service call → response.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, requireAttributedAction } from '../plugins/auth.ts';
import { commonErrors } from '../../schemas/common.ts';
import {
  aiHeaders, customerItemSchema, customersInput, peopleInput, peopleItemSchema, techStackInput, techStackItemSchema,
} from '../../schemas/ai.ts';
import { findCustomersOfProducts, findPeopleProfiles, findTechStacksForCompany, type AiAnswer } from '../../services/ai.ts';

const TAG = 'AI helpers';

/** Header values must be visible ASCII: anything else (and '%') is percent-encoded. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]|%/gu, (c) => encodeURIComponent(c));
}

const UNDERSTOOD_DOC =
  'Response headers: X-Stacklens-Understood (what the prompt was understood as, one line; non-ASCII characters percent-encoded), ' +
  'X-Stacklens-Parser (embedded or model) and, when a configured model was not used, X-Stacklens-Parser-Fallback (timeout, http_error, network_error, invalid_output, ungrounded).';

function send<T>(reply: FastifyReply, answer: AiAnswer<T>): T[] {
  reply.header('x-stacklens-understood', headerSafe(answer.understood.described));
  reply.header('x-stacklens-parser', answer.understood.parser);
  if (answer.understood.fallbackReason) reply.header('x-stacklens-parser-fallback', answer.understood.fallbackReason);
  return answer.items;
}

const noBody = z.unknown().optional().describe('Not used: input is in the query string');

export const aiRoutes: FastifyPluginAsyncZod = async (app) => {
  // These POSTs carry no body; accept an empty JSON body rather than failing on the Content-Type.
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    (body as string).trim() === '' ? done(null, undefined) : json(req, body as string, done));

  app.post('/ai/find-customers-of-products', {
    // Read by the rate limiter: AI calls have their own, lower limit.
    config: { rateClass: 'ai' },
    // Permission and attribution before input validation: a client without AI learns nothing more.
    preValidation: async (request) => {
      requireAttributedAction(request, 'ai');
    },
    schema: {
      summary: 'Companies that use (or are likely to use) the products a prompt names',
      description:
        'Companies with install evidence of the products (probability from the in-use confidence model), then companies whose nearest ' +
        'peers use them (probability from peer inference, calibrated on held-out evidence; evidence "inferred", no dates). One item per ' +
        'company, sorted by probability descending, then company id. Needs the ai permission and X-On-Behalf-Of-User; audited. ' + UNDERSTOOD_DOC,
      tags: [TAG], querystring: customersInput, headers: aiHeaders, body: noBody,
      response: { 200: z.array(customerItemSchema), ...commonErrors },
    },
  }, async (request, reply) =>
    send(reply, await findCustomersOfProducts(app.db, app.config, principalOf(request), requireAttributedAction(request, 'ai'), request.query)));

  app.post('/ai/find-techstacks-for-company', {
    // Read by the rate limiter: AI calls have their own, lower limit.
    config: { rateClass: 'ai' },
    // Permission and attribution before input validation: a client without AI learns nothing more.
    preValidation: async (request) => {
      requireAttributedAction(request, 'ai');
    },
    schema: {
      summary: 'The evidenced and the likely tech stack of a company',
      description:
        'prompt and/or companyDomain (companyDomain wins over a company named in the prompt; products, vendors or categories named in the ' +
        'prompt restrict the answer). Evidenced installs with their in-use probability and dates, plus products its nearest peers run that it ' +
        'shows no evidence of (evidence "inferred"). Sorted by probability descending. Needs the ai permission and X-On-Behalf-Of-User; audited. ' + UNDERSTOOD_DOC,
      tags: [TAG], querystring: techStackInput, headers: aiHeaders, body: noBody,
      response: { 200: z.array(techStackItemSchema), ...commonErrors },
    },
  }, async (request, reply) =>
    send(reply, await findTechStacksForCompany(app.db, app.config, principalOf(request), requireAttributedAction(request, 'ai'), request.query)));

  app.post('/ai/find-people-profiles', {
    // Read by the rate limiter: AI calls have their own, lower limit.
    config: { rateClass: 'ai' },
    // Permission and attribution before input validation: a client without AI learns nothing more.
    preValidation: async (request) => {
      requireAttributedAction(request, 'ai');
    },
    schema: {
      summary: 'People profiles matching a prompt',
      description:
        'Profiles at the companies, places, industries and sizes the prompt names that meet the most of its titles, seniority and functions, ' +
        'with a confidence 0-1 from match quality. Sorted by confidence descending, then id. Never emails or phones (buy them with ' +
        'POST /profiles/purchase). Needs the ai permission and X-On-Behalf-Of-User; audited. ' + UNDERSTOOD_DOC,
      tags: [TAG], querystring: peopleInput, headers: aiHeaders, body: noBody,
      response: { 200: z.array(peopleItemSchema), ...commonErrors },
    },
  }, async (request, reply) =>
    send(reply, await findPeopleProfiles(app.db, app.config, principalOf(request), requireAttributedAction(request, 'ai'), request.query)));
};
