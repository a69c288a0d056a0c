// The client-credentials token exchange (RFC 6749 §4.4), as a short pipeline of checks:
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
import { MAX_TOKEN_PARAM } from '../schemas/oauth.ts';
import { isSafeText, TEXT_RULE } from '../schemas/text.ts';
import { hashSecret, secretMatches } from './secrets.ts';
import { addressGroup } from './client-address.ts';
import { countFailedAuthentication } from './failed-auth.ts';
import { issueAccessToken, type IssuedToken } from './tokens.ts';

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_target' | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
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
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="stacklens", charset="UTF-8"' };

const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);

function readParams(body: unknown): (name: string) => string | undefined {
  if (body === undefined || body === null) return () => undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object or form fields');
  const record = body as Record<string, unknown>;
  return (name) => {
    if (!Object.hasOwn(record, name)) return undefined;
    const v = record[name];
    if (Array.isArray(v)) throw invalidRequest(`Parameter '${name}' is repeated; send it once`);
    if (typeof v !== 'string') throw invalidRequest(`Parameter '${name}' must be a string`);
    if (v.length > MAX_TOKEN_PARAM) throw invalidRequest(`Parameter '${name}' must be at most ${MAX_TOKEN_PARAM} characters`);
    if (!isSafeText(v)) throw invalidRequest(`Parameter '${name}' ${TEXT_RULE}`);
    return v === '' ? undefined : v;
  };
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded before base64. */
function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  basic: boolean;
}

function clientCredentials(authorization: string | undefined, param: (name: string) => string | undefined): ClientCredentials {
  const bodyId = param('client_id');
  const bodySecret = param('client_secret');
  if (authorization !== undefined) {
    const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(authorization);
    if (!/^Basic\b/i.test(authorization)) throw invalidRequest('The Authorization header of a token request must use the Basic scheme');
    if (bodySecret !== undefined) throw invalidRequest('Use one client authentication method: Basic header or client_secret in the body, not both');
    let id: string | undefined;
    let secret: string | undefined;
    try {
      const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        id = formDecode(decoded.slice(0, colon));
        secret = formDecode(decoded.slice(colon + 1));
      }
    } catch {
      // malformed percent-encoding: handled as bad credentials below
    }
    if ((id && !isSafeText(id)) || (secret && !isSafeText(secret))) throw invalidRequest(`Basic credentials ${TEXT_RULE}`);
    if (!id || !secret) throw new OAuthError(401, 'invalid_client', 'Malformed Basic credentials: expected base64(client_id:client_secret)', BASIC_CHALLENGE);
    if (bodyId !== undefined && bodyId !== id) throw invalidRequest('client_id in the body differs from the one in the Basic header');
    return { clientId: id, clientSecret: secret, basic: true };
  }
  if (bodyId === undefined || bodySecret === undefined) {
    throw new OAuthError(401, 'invalid_client', 'Client authentication is required: send client_id and client_secret (in the body, or as HTTP Basic)');
  }
  return { clientId: bodyId, clientSecret: bodySecret, basic: false };
}

interface TokenEndpointDeps {
  db: Db;
  config: Config;
  counters: CounterStore;
  /** Told about refused client authentications (never the secret). */
  onFailure?: (clientId: string, reason: string) => void;
}

export async function exchangeClientCredentials(deps: TokenEndpointDeps, request: TokenRequest): Promise<IssuedToken> {
  const { db, config, counters } = deps;
  const param = readParams(request.params);

  const grantType = param('grant_type');
  if (grantType === undefined) throw invalidRequest("Parameter 'grant_type' is required (client_credentials)");
  const credentials = clientCredentials(request.authorization, param);
  if (grantType !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', `grant_type '${grantType.slice(0, 60)}' is not supported; use client_credentials`);
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
