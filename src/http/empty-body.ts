// The one empty-body rule of the API: a POST whose JSON body is empty is a POST without a
// body (the API's existing clients send `Content-Type: application/json` with no body to the paged,
// search, details and AI calls). A route whose body is optional then runs; one that needs
// a body answers 400 naming `body`. Non-empty bodies go through Fastify's own
// (poisoning-safe) JSON parser.
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
