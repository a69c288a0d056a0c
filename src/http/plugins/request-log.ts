// One JSON log line per request: request id, method, route, status, latency, client and,
// for a failed request, the error's stable code. (app.ts sets the X-Request-Id header.)
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
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?', 1)[0],
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        clientId: request.clientId,
        errorCode: request.errorCode,
      },
      'request',
    );
  });
});
