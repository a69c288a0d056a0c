// One JSON log line per request: request id, method, route, status, latency, client, its
// address and, for a failed request, the error's stable code (at warn, with the reason, for
// a request refused by a limit or shedding). (app.ts sets the X-Request-Id header.)
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin once the caller is known; logged with the request. */
    clientId?: string;
    /** Set by the error handler: the AppError's code, or Fastify's own for its client errors. */
    errorCode?: string;
  }
}

export const requestLogPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', async (request, reply) => {
    const line = {
      method: request.method,
      url: request.url.split('?', 1)[0],
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      clientId: request.clientId,
      // The client's address (behind a TRUST_PROXY proxy, the one X-Forwarded-For names).
      ip: request.ip,
      errorCode: request.errorCode,
      refused: request.refusal,
    };
    // A request refused to protect the service (a limit, shedding) is worth an operator's look.
    if (request.refusal) request.log.warn(line, 'request refused');
    else request.log.info(line, 'request');
  });
});
