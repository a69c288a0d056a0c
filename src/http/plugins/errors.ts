// The one error handler: every 4xx/5xx leaves as { status, error, message, path, requestId }.
// Typed AppErrors keep their status; schema-validation failures become 400s naming the
// field; Fastify's own client errors keep their status; anything else is a logged 500
// whose details never reach the client.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, reasonPhrase } from '../../errors.ts';

interface ErrorBody {
  status: number;
  error: string;
  message: string;
  path: string;
  requestId: string;
}

function errorBody(request: FastifyRequest, status: number, message: string): ErrorBody {
  return { status, error: reasonPhrase(status), message, path: request.url.split('?', 1)[0]!, requestId: request.id };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(request, status, message));
}

/** At most this much of a refused body is read (and dropped) after its 413, for at most this long. */
export const REFUSED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;
const REFUSED_BODY_DRAIN_MS = 10_000;

/**
 * A 413. For a body that is still arriving, the answer is written at once, then the rest of
 * the body is read and dropped before the connection closes (up to REFUSED_BODY_DRAIN_BYTES
 * or REFUSED_BODY_DRAIN_MS). Closing at once would reset a connection the client is still
 * writing to, and a client that reads the answer only after sending (Node's http and fetch)
 * would see EPIPE instead of the 413.
 */
export function sendTooLarge(request: FastifyRequest, reply: FastifyReply, message: string) {
  const status = 413;
  // app.inject's request has no `complete` flag: nothing arrives later there.
  if (request.raw.complete !== false) return sendError(request, reply, status, message);
  const raw = request.raw;
  const text = JSON.stringify(errorBody(request, status, message));
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
  res.write(text);
  let read = 0;
  const done = () => {
    clearTimeout(timer);
    raw.off('data', onData).off('end', done).off('error', done).off('close', done);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > REFUSED_BODY_DRAIN_BYTES) done();
  };
  const timer = setTimeout(done, REFUSED_BODY_DRAIN_MS).unref();
  raw.on('data', onData).once('end', done).once('error', done).once('close', done);
  raw.resume();
  return reply;
}

/** Turns schema-validation issues into one readable line: "query.size: Too big: expected number to be <=200". */
function validationMessage(error: FastifyError): string {
  const part = error.validationContext ?? 'body';
  const issues = (error.validation ?? []).map((v) => {
    const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const where = part === 'querystring' ? 'query' : part;
    return `${where}${field ? `.${field}` : ''}: ${v.message ?? 'is invalid'}`;
  });
  return issues.length > 0 ? issues.join('; ') : error.message;
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      request.errorCode = error.code;
      if (error.status === 413) return sendTooLarge(request, reply, error.message);
      return sendError(request, reply, error.status, error.message, error.headers);
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      request.errorCode = 'bad_request';
      return sendError(request, reply, 400, validationMessage(error));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, unsupported media type, body too large...
      request.errorCode = error.code;
      if (status === 413) return sendTooLarge(request, reply, error.message);
      const message =
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? "body: Content-Type is application/json but the body is empty; send '{}' or no Content-Type"
          : error.message;
      return sendError(request, reply, status, message);
    }
    request.errorCode = 'internal';
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 500, 'Internal server error; retry later. Quote the requestId when reporting it.');
  });

  // Until startup work (demo-world generation) is done, the API and MCP answer 503 with
  // Retry-After instead of serving a half-built world; the probes still answer.
  app.addHook('onRequest', async (request, reply) => {
    if (app.readiness.ready || !/^\/(api|mcp)(\/|$|\?)/.test(request.url)) return;
    return sendError(request, reply, 503, app.readiness.message, { 'retry-after': '5' });
  });

  app.setNotFoundHandler((request, reply) => notServed(app, request, reply));
});

/** No route for this method and path: 405 with Allow on a known path (another method), else 404. */
export function notServed(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?', 1)[0];
  const allowed = app.allowedMethods(request.url);
  if (allowed.length > 0) {
    request.errorCode = 'method_not_allowed';
    return sendError(request, reply, 405, `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, { allow: allowed.join(', ') });
  }
  return sendError(request, reply, 404, `Route ${request.method} ${path} not found`);
}
