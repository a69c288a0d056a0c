// OAuth 2.0 endpoints at the service origin: POST /oauth/token (client credentials for API
// clients; authorization code and refresh token for people: oauth-people.ts holds sign-in,
// revocation and registration), GET /.well-known/jwks.json and
// GET /.well-known/oauth-authorization-server (RFC 8414). Token responses and errors use the
// RFC 6749 shapes (`{ error, error_description }`), except the throttles' 429, which have
// the service's usual error body.
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { exchangeToken } from '../../auth/token-endpoint.ts';
import { OAuthError } from '../../auth/oauth-params.ts';
import { PERSON_SCOPES } from '../../schemas/oauth.ts';
import { oauthPeopleRoutes } from './oauth-people.ts';
import { publishedJwks } from '../../auth/signing-keys.ts';
import { sendError, sendTooLarge } from '../plugins/errors.ts';
import { strictQuery } from '../route-config.ts';
import { errorBodySchema } from '../../schemas/common.ts';
import {
  TOKEN_BODY_LIMIT,
  authorizationServerMetadataSchema,
  jwksSchema,
  oauthErrorSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../../schemas/oauth.ts';

/** Form fields into a null-prototype object; a repeated field becomes an array (refused later). */
function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** The routes that answer errors in RFC 6749 / RFC 7591 terms. */
const OAUTH_ANSWERING = new Set(['/oauth/token', '/oauth/revoke', '/oauth/register']);

export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const tokenEndpoint = `${config.auth.issuer}/oauth/token`;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, parseForm(body as string)));

  // RFC 6749 §5.1/§5.2: never cache a token response, success or failure.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/oauth/')) reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Only the token endpoint answers in RFC 6749 terms; the others go to the service's handler.
    if (!OAUTH_ANSWERING.has(request.routeOptions.url ?? '')) throw error;
    if (error instanceof OAuthError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.code(error.status).send({ error: error.code, error_description: error.description });
    }
    if (error instanceof AppError) return sendError(request, reply, error.status, error.message, error.headers);
    const status = error.statusCode ?? 500;
    // A body over the limit is a 413 here as on every route, in the service's error shape.
    if (status === 413) return sendTooLarge(request, reply, `body: larger than the OAuth endpoints' limit of ${TOKEN_BODY_LIMIT} bytes`);
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

  app.post(
    '/oauth/token',
    {
      bodyLimit: TOKEN_BODY_LIMIT,
      attachValidation: true, // the pipeline checks parameters itself and answers in RFC 6749 terms
      schema: {
        operationId: 'getAccessToken',
        summary: 'Get an access token (OAuth 2.0 client credentials, authorization code, refresh token)',
        description:
          'client_credentials: an API client authenticates by HTTP Basic (client_secret_basic) or by client_id and client_secret in the body (client_secret_post), not both. ' +
          "authorization_code (with PKCE code_verifier) and refresh_token: a person's sign-in through an OAuth client registered at /oauth/register; the answer holds a new refresh_token each time (the old one is spent; sending it again revokes the sign-in). " +
          'Repeated failures for one client_id from one address, or many failures from one address, are answered with 429 and Retry-After for a while.',
        tags: ['Authentication'],
        security: [],
        querystring: strictQuery(undefined),
        body: tokenRequestSchema,
        response: {
          200: tokenResponseSchema,
          400: oauthErrorSchema.describe(
            'invalid_request, invalid_grant, invalid_scope, unsupported_grant_type or invalid_target: the description names the parameter',
          ),
          401: oauthErrorSchema.describe('invalid_client: unknown client, wrong secret or disabled client'),
          413: errorBodySchema.describe(`The body is larger than ${TOKEN_BODY_LIMIT} bytes`),
          429: errorBodySchema.describe('Too many failed authentications for this client_id from this address, or from this address; wait Retry-After seconds'),
        },
      },
    },
    async (request) => {
      // The schema allows no query parameter, but attachValidation leaves the refusal to us.
      const unknown = Object.keys((request.query ?? {}) as object);
      if (unknown.length > 0)
        throw new OAuthError(400, 'invalid_request', `Unknown query parameter '${unknown[0]!.slice(0, 60)}': send the parameters in the body`);
      const token = await exchangeToken(
        {
          db: app.db,
          config,
          counters: app.counters,
          onFailure: (clientId, reason) => request.log.warn({ clientId, reason }, 'token request refused'),
        },
        { params: request.body, authorization: request.headers.authorization, address: request.ip },
      );
      return {
        access_token: token.accessToken,
        token_type: 'Bearer' as const,
        expires_in: token.expiresIn,
        ...('refreshToken' in token ? { refresh_token: token.refreshToken, scope: token.scope } : {}),
      };
    },
  );

  await oauthPeopleRoutes(app);

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        operationId: 'getJwks',
        summary: 'Public keys that sign access tokens (JWKS)',
        description: 'The current and recently retired public keys (RFC 7517) that verify access tokens issued here; cacheable for a minute.',
        tags: ['Authentication'],
        security: [],
        querystring: strictQuery(undefined),
        response: { 200: jwksSchema, 400: errorBodySchema.describe('An undocumented query parameter') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return publishedJwks(app.db);
    },
  );

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        description:
          "The token endpoint, the JWKS address, the supported grant and client-authentication methods, and people's sign-in: the authorization endpoint (PKCE S256), revocation and, when on, dynamic client registration.",
        tags: ['Authentication'],
        security: [],
        querystring: strictQuery(undefined),
        response: { 200: authorizationServerMetadataSchema, 400: errorBodySchema.describe('An undocumented query parameter') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        issuer: config.auth.issuer,
        authorization_endpoint: `${config.auth.issuer}/oauth/authorize`,
        token_endpoint: tokenEndpoint,
        jwks_uri: `${config.auth.issuer}/.well-known/jwks.json`,
        ...(config.auth.people.registration ? { registration_endpoint: `${config.auth.issuer}/oauth/register` } : {}),
        revocation_endpoint: `${config.auth.issuer}/oauth/revoke`,
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: [...PERSON_SCOPES],
        authorization_response_iss_parameter_supported: true,
      };
    },
  );
}
