// The one empty-body rule of the API: a POST whose JSON body is empty is a POST without a
// body (the API's existing clients send `Content-Type: application/json` with no body to the paged,
// search, details and AI calls). A route whose body is optional then runs; one that needs
// a body answers 400 naming `body`. Non-empty bodies go through Fastify's own
// (poisoning-safe) JSON parser; a body it refuses for a prototype key (valid JSON) is a 400
// saying which key, not "not valid JSON", and a JSON `null` body is a 400 (no operation takes one).
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../errors.ts';

export function allowEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (err, value) => {
      if (err) done(poisoningError(text) ?? err, undefined);
      // Fastify hands a route without a body `null`, so a JSON null would pass for no body.
      else if (value === null) done(new BadRequestError('body: must not be null; send no body instead'), undefined);
      else done(null, value);
    });
  });
}

/** Why the safe parser refused text that is valid JSON: a `__proto__` or `constructor.prototype` key. */
function poisoningError(text: string): BadRequestError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // JSON.parse makes `__proto__` an own key; the walk is linear in the (size-capped) body.
  const stack = [value];
  let key = 'constructor.prototype';
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) {
      key = '__proto__';
      break;
    }
    for (const child of Object.values(node)) stack.push(child);
  }
  return new BadRequestError(`body: must not contain the key ${key}`);
}
