// OAuth 2.0 at the service origin: the client-credentials token request and response, the
// RFC 6749 error body, the JWKS and the authorization-server metadata (RFC 8414).
import { z } from 'zod';
import { textInput } from './text.ts';

/** Longest value of a token-request parameter (a longer one is an invalid_request). */
export const MAX_TOKEN_PARAM = 512;
/** What a person may grant an OAuth client: read (read-only tools and routes) and write (those that change something). */
export const PERSON_SCOPES = ['read', 'write'] as const;
/** Largest body of an OAuth endpoint (token, revoke, register, the consent form): its few parameters fit many times over. */
export const TOKEN_BODY_LIMIT = 16 * 1024;

export const tokenRequestSchema = z
  .object({
    grant_type: textInput(MAX_TOKEN_PARAM).describe("`client_credentials` (API clients), `authorization_code` or `refresh_token` (a person's sign-in)"),
    client_id: textInput(MAX_TOKEN_PARAM).optional().describe('Client id (or send it with the secret as HTTP Basic)'),
    client_secret: textInput(MAX_TOKEN_PARAM)
      .optional()
      .describe('Client secret (or HTTP Basic; not both); a public OAuth client (token_endpoint_auth_method none) sends none'),
    code: textInput(MAX_TOKEN_PARAM).optional().describe('authorization_code: the code from /oauth/authorize (single use, 60 s)'),
    redirect_uri: textInput(MAX_TOKEN_PARAM).optional().describe('authorization_code: the redirect_uri of the authorization request, exactly'),
    code_verifier: textInput(MAX_TOKEN_PARAM).optional().describe('authorization_code: the PKCE verifier whose S256 hash was the code_challenge'),
    refresh_token: textInput(MAX_TOKEN_PARAM).optional().describe('refresh_token: the latest refresh token (each is used once)'),
    scope: textInput(MAX_TOKEN_PARAM).optional().describe('refresh_token: ask for fewer of the granted scopes (read, write)'),
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
  refresh_token: z.string().optional().describe("A person's sign-in: the next refresh token (the one sent is spent)"),
  scope: z.string().optional().describe("A person's sign-in: the scopes granted (read, write)"),
});

export const oauthErrorSchema = z.object({
  error: z.string().describe('RFC 6749 §5.2 code: invalid_request, invalid_client, invalid_grant, invalid_scope, unsupported_grant_type, invalid_target'),
  error_description: z.string(),
});

export const jwksSchema = z
  .object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string().optional(), use: z.string().optional() })) })
  .describe('JSON Web Key Set (RFC 7517): current and recently retired public keys');

export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    registration_endpoint: z.string().optional().describe('Absent when dynamic client registration is off (OAUTH_DYNAMIC_REGISTRATION=false)'),
    revocation_endpoint: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
  })
  .describe('Where and how to get access tokens');
