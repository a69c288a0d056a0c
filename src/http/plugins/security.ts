// Baseline hardening headers (@fastify/helmet) for every response. The Content-Security-
// Policy is strict for the API (JSON never needs to load anything) and relaxed for the
// Swagger UI under /docs (own scripts, inline styles, data: images).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

export const API_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: validator.swagger.io",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
].join('; ');

const DOCS_PATH = /^\/docs(\/|\?|$)/;

export const securityPlugin = fp(async (app: FastifyInstance) => {
  // helmet also removes X-Powered-By (Fastify never sets it; a proxy or plugin might).
  await app.register(helmet, { global: true, contentSecurityPolicy: false });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', DOCS_PATH.test(request.url) ? DOCS_CSP : API_CSP);
  });
});
