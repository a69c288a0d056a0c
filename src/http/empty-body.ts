// Lets the routes of one plugin scope accept POSTs whose JSON body is empty: the API's
// existing clients send `Content-Type: application/json` with no body to the paged-products and
// search calls. Non-empty bodies go through Fastify's own (poisoning-safe) JSON parser.
import type { FastifyInstance } from 'fastify';

export function allowEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
