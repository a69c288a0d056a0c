// The token endpoint. People's grants (authorization code, refresh token) are in
// authorization-codes.ts. The client-credentials exchange (RFC 6749 §4.4) is a short pipeline of checks:
// parameters → grant type → audience (or RFC 8707 resource) → client authentication (Basic or body, not both)
// → failed-attempt throttle → client check → token. Errors are OAuthErrors carrying the
// RFC 6749 §5.2 code; unknown client, wrong secret and disabled client answer alike.
//
// The throttle counts failures per (client_id, client address): a guesser is slowed without
// denying the client to its rightful owner elsewhere, which a count per client_id alone did
// (anyone knowing a client id could keep it refused). Failures are counted after the check,
// not as slots taken before it: client secrets are 256-bit random, so concurrent guesses
// gain nothing, and a busy client's concurrent token requests are never refused. Every
// failure also counts against the address (failed-auth.ts), which stops one address from
// spraying many client ids.
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { CounterStore } from './counters.ts';
import { findClient } from '../store/access.ts';
import { RateLimitedError } from '../errors.ts';
import { rateLimitRejections } from '../telemetry/metrics.ts';
import { BASIC_CHALLENGE, invalidRequest, OAuthError, presentedClient, readParams, type Params, type PresentedClient } from './oauth-params.ts';
import { hashSecret, secretMatches } from './secrets.ts';
import { addressGroup } from './client-address.ts';
import { countFailedAuthentication } from './failed-auth.ts';
import { issueAccessToken, type IssuedToken } from './tokens.ts';
import { exchangeCode, refresh, type PersonTokens } from './authorization-codes.ts';

/** The confidential client's credentials: both parts, or a 401. */
function clientCredentials(authorization: string | undefined, param: Params): PresentedClient & { clientSecret: string } {
  const presented = presentedClient(authorization, param);
  if (presented?.clientSecret === undefined) {
    throw new OAuthError(401, 'invalid_client', 'Client authentication is required: send client_id and client_secret (in the body, or as HTTP Basic)');
  }
  return presented as PresentedClient & { clientSecret: string };
}

interface TokenRequest {
  /** Parsed body: JSON object or form fields (a repeated form field arrives as an array). */
  params: unknown;
  authorization: string | undefined;
  /** The client's address (request.ip). */
  address: string;
}

const MAX_CREDENTIAL_LENGTH = 512;
// Compared against when the client is unknown, so both answers take the same time.
const DUMMY_HASH = hashSecret('stacklens-no-such-client');

interface TokenEndpointDeps {
  db: Db;
  config: Config;
  counters: CounterStore;
  /** Told about refused client authentications (never the secret). */
  onFailure?: (clientId: string, reason: string) => void;
}

/**
 * The token endpoint: client credentials for API clients; authorization code and refresh
 * token for people's sign-ins (authorization-codes.ts), unless an external identity provider
 * issues tokens (then only client credentials is served here... and refused by the route).
 */
export async function exchangeToken(deps: TokenEndpointDeps, request: TokenRequest): Promise<IssuedToken | PersonTokens> {
  const param = readParams(request.params);
  const grantType = param('grant_type');
  if (grantType === undefined) throw invalidRequest("Parameter 'grant_type' is required (client_credentials, authorization_code or refresh_token)");
  if (grantType === 'authorization_code' || grantType === 'refresh_token') {
    const presented = presentedClient(request.authorization, param);
    const grant = grantType === 'authorization_code' ? exchangeCode : refresh;
    return grant(deps, param, presented, request.address);
  }
  return exchangeClientCredentials(deps, request, param, grantType);
}

async function exchangeClientCredentials(deps: TokenEndpointDeps, request: TokenRequest, param: Params, grantType: string): Promise<IssuedToken> {
  const { db, config, counters } = deps;
  const credentials = clientCredentials(request.authorization, param);
  if (grantType !== 'client_credentials') {
    throw new OAuthError(
      400,
      'unsupported_grant_type',
      `grant_type '${grantType.slice(0, 60)}' is not supported; use client_credentials, authorization_code or refresh_token`,
    );
  }
  const audience = tokenAudience(config, param('audience'), param('resource'));

  const { maxFailures, windowSeconds } = config.auth.failedAttempts;
  const throttleKey = `tf:{${credentials.clientId.slice(0, 128)}}:${addressGroup(request.address)}`;
  const failures = await counters.peek(throttleKey);
  if (failures.count >= maxFailures) {
    rateLimitRejections.inc({ policy: 'token_failures' });
    const retry = Math.max(1, Math.ceil(failures.resetMs / 1000));
    throw new RateLimitedError(`Too many failed authentications for this client_id from this address; retry after ${retry} s`, retry);
  }

  const tooLong = credentials.clientId.length > MAX_CREDENTIAL_LENGTH || credentials.clientSecret.length > MAX_CREDENTIAL_LENGTH;
  const client = tooLong ? undefined : await findClient(db, credentials.clientId);
  const secretOk = secretMatches(credentials.clientSecret, client?.secretHash ?? DUMMY_HASH);
  if (!client || !secretOk || client.disabledAt) {
    await counters.consume([{ key: throttleKey, limit: Infinity }], windowSeconds * 1000);
    deps.onFailure?.(credentials.clientId.slice(0, 128), !client ? 'unknown client' : !secretOk ? 'wrong secret' : 'client disabled');
    throw await countFailedAuthentication(
      counters,
      config,
      request.address,
      new OAuthError(401, 'invalid_client', 'Client authentication failed', credentials.basic ? BASIC_CHALLENGE : {}),
    );
  }
  if (failures.count > 0) await counters.reset(throttleKey);
  return issueAccessToken(db, config, client.id, audience);
}

/**
 * The token's audience: named by `audience` (the REST API's) or by the RFC 8707 `resource`
 * parameter (the MCP server's resource identifier, PUBLIC_URL/mcp, as its protected-resource
 * metadata says; or the API audience). Either may name either target; both, the same one.
 */
function tokenAudience(config: Config, audience: string | undefined, resource: string | undefined): string {
  const targets = [config.auth.audience, config.mcp.resource];
  const known = `the API audience '${config.auth.audience}' or the MCP resource '${config.mcp.resource}'`;
  if (audience === undefined && resource === undefined) {
    throw invalidRequest(`Parameter 'audience' (or 'resource', RFC 8707) is required: ${known}`);
  }
  for (const [name, value] of [
    ['audience', audience],
    ['resource', resource],
  ] as const) {
    if (value !== undefined && !targets.includes(value)) {
      throw new OAuthError(400, 'invalid_target', `Unknown ${name}; this service issues tokens for ${known}`);
    }
  }
  if (audience !== undefined && resource !== undefined && audience !== resource) {
    throw new OAuthError(400, 'invalid_target', "Parameters 'audience' and 'resource' name different targets; a token has one audience: send one of them");
  }
  return (resource ?? audience)!;
}
