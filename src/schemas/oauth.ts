// OAuth 2.0 at the service origin: the client-credentials token request and response, the
// RFC 6749 error body, the JWKS and the authorization-server metadata (RFC 8414).
import { z } from 'zod';
import { textInput } from './text.ts';

/** Longest value of a token-request parameter (a longer one is an invalid_request). */
export const MAX_TOKEN_PARAM = 512;

export const tokenRequestSchema = z
  .object({
    grant_type: textInput(MAX_TOKEN_PARAM).describe('Always `client_credentials`'),
    client_id: textInput(MAX_TOKEN_PARAM).optional().describe('Client id (or send it with the secret as HTTP Basic)'),
    client_secret: textInput(MAX_TOKEN_PARAM).optional().describe('Client secret (or HTTP Basic; not both)'),
    audience: textInput(MAX_TOKEN_PARAM)
      .optional()
      .describe(
        "The token's audience: this service's API_AUDIENCE (by default its public origin) for the REST API, or its MCP resource (PUBLIC_URL/mcp). Send `audience` or `resource`",
      ),
    resource: textInput(MAX_TOKEN_PARAM)
      .optional()
      .describe(
        'RFC 8707 resource indicator, the alternative to `audience`: the MCP resource (PUBLIC_URL/mcp, as `/.well-known/oauth-protected-resource/mcp` names it) or the API audience. The token is valid only there',
      ),
  })
  .describe('JSON or application/x-www-form-urlencoded')
  .meta({
    examples: [
      { grant_type: 'client_credentials', client_id: 'cli_4f9c2a7d1e', client_secret: 'q7Xp2LwR9sVt4YbN8mKd3HfJ6cGz1AeU', audience: 'http://127.0.0.1:8080' },
      {
        grant_type: 'client_credentials',
        client_id: 'cli_4f9c2a7d1e',
        client_secret: 'q7Xp2LwR9sVt4YbN8mKd3HfJ6cGz1AeU',
        resource: 'http://127.0.0.1:8080/mcp',
      },
    ],
  });

export const tokenResponseSchema = z.object({
  access_token: z.string().describe('JWT access token (RFC 9068); send as `Authorization: Bearer <token>`'),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Lifetime in seconds (TOKEN_TTL_SECONDS)'),
});

export const oauthErrorSchema = z.object({
  error: z.string().describe('RFC 6749 §5.2 code: invalid_request, invalid_client, unsupported_grant_type, invalid_target'),
  error_description: z.string(),
});

export const jwksSchema = z
  .object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string().optional(), use: z.string().optional() })) })
  .describe('JSON Web Key Set (RFC 7517): current and recently retired public keys');

export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
  })
  .describe('Where and how to get access tokens');
