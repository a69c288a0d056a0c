// OAuth 2.0 endpoints at the service origin: POST /oauth/token (client credentials),
// GET /.well-known/jwks.json and GET /.well-known/oauth-authorization-server (RFC 8414).
// Token responses and errors use the RFC 6749 shapes (`{ error, error_description }`),
// except the throttle's 429, which has the service's usual error body.
import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { exchangeClientCredentials, OAuthError } from '../../auth/token-endpoint.ts';
import { publishedJwks } from '../../auth/signing-keys.ts';
import { sendError } from '../plugins/errors.ts';

const tokenBody = z
  .object({
    grant_type: z.string().describe('Always `client_credentials`'),
    client_id: z.string().optional().describe('Client id (or send it with the secret as HTTP Basic)'),
    client_secret: z.string().optional().describe('Client secret (or HTTP Basic; not both)'),
    audience: z.string().describe("The API audience: this service's API_AUDIENCE (by default its public origin)"),
  })
  .describe('JSON or application/x-www-form-urlencoded');

const tokenResponse = z.object({
  access_token: z.string().describe('JWT access token (RFC 9068); send as `Authorization: Bearer <token>`'),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Lifetime in seconds (TOKEN_TTL_SECONDS)'),
});

const oauthError = z.object({
  error: z.string().describe('RFC 6749 §5.2 code: invalid_request, invalid_client, unsupported_grant_type, invalid_target'),
  error_description: z.string(),
});

/** Form fields into a null-prototype object; a repeated field becomes an array (refused later). */
function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const tokenEndpoint = `${config.auth.issuer}/oauth/token`;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, parseForm(body as string)));

  // RFC 6749 §5.1/§5.2: never cache a token response, success or failure.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/oauth/')) reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.code(error.status).send({ error: error.code, error_description: error.description });
    }
    if (error instanceof AppError) return sendError(request, reply, error.status, error.message, error.headers);
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Unparsable JSON, unsupported media type, oversized body, prototype poisoning...
      return reply.code(400).send({ error: 'invalid_request', error_description: error.message });
    }
    request.log.error({ err: error }, 'token endpoint error');
    return reply.code(500).send({ error: 'server_error', error_description: 'Internal error; retry later' });
  });

  if (config.auth.external) {
    const issuer = config.auth.external.issuer;
    app.post('/oauth/token', { schema: { hide: true } }, async () => {
      throw new OAuthError(400, 'invalid_request', `This service accepts access tokens from the identity provider ${issuer}; request tokens there`);
    });
    return;
  }

  app.post('/oauth/token', {
    bodyLimit: 16 * 1024,
    attachValidation: true, // the pipeline checks parameters itself and answers in RFC 6749 terms
    schema: {
      summary: 'Get an access token (OAuth 2.0 client credentials)',
      description:
        'Client authentication by HTTP Basic (client_secret_basic) or by client_id and client_secret in the body (client_secret_post), not both. ' +
        'Repeated failures for one client_id are answered with 429 and Retry-After for a while.',
      tags: ['Authentication'],
      security: [],
      body: tokenBody,
      response: { 200: tokenResponse, 400: oauthError, 401: oauthError },
    },
  }, async (request) => {
    const token = await exchangeClientCredentials(
      {
        db: app.db,
        config,
        counters: app.counters,
        onFailure: (clientId, reason) => request.log.warn({ clientId, reason }, 'token request refused'),
      },
      { params: request.body, authorization: request.headers.authorization },
    );
    return { access_token: token.accessToken, token_type: 'Bearer' as const, expires_in: token.expiresIn };
  });

  app.get('/.well-known/jwks.json', {
    schema: {
      summary: 'Public keys that sign access tokens (JWKS)',
      tags: ['Authentication'],
      security: [],
      response: { 200: z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string().optional(), use: z.string().optional() })) }).describe('JSON Web Key Set (RFC 7517): current and recently retired public keys') },
    },
  }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return publishedJwks(app.db);
  });

  app.get('/.well-known/oauth-authorization-server', {
    schema: {
      summary: 'Authorization server metadata (RFC 8414)',
      tags: ['Authentication'],
      security: [],
      response: {
        200: z.object({
          issuer: z.string(),
          token_endpoint: z.string(),
          jwks_uri: z.string(),
          grant_types_supported: z.array(z.string()),
          token_endpoint_auth_methods_supported: z.array(z.string()),
          response_types_supported: z.array(z.string()),
          scopes_supported: z.array(z.string()),
        }).describe('Where and how to get access tokens'),
      },
    },
  }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return {
      issuer: config.auth.issuer,
      token_endpoint: tokenEndpoint,
      jwks_uri: `${config.auth.issuer}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      response_types_supported: [],
      scopes_supported: [],
    };
  });
}
