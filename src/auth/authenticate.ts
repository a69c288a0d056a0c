// One authentication step for every door (REST and MCP): credentials in, Principal out.
// Never fails open: anything but a verified, enabled client is an UnauthorizedError.
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { BadRequestError, UnauthorizedError } from '../errors.ts';
import { principalOfClient, type Principal } from './principal.ts';
import { verifyApiKey } from './api-keys.ts';
import { verifyAccessToken } from './tokens.ts';

export interface Credentials {
  /** From `X-API-Key` or `Authorization: API-Key <key>`. */
  apiKey?: string;
  /** From `Authorization: Bearer <token>`. */
  bearerToken?: string;
}

/** The credential headers, each of which may be sent once. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key'] as const;

/**
 * Refuses a credential header sent twice (400). Node keeps only the first Authorization and
 * joins repeated X-API-Key values, so which credential counts would depend on the proxy in
 * front; the raw header list (name, value, name, value...) shows every occurrence.
 */
function refuseRepeatedCredentials(rawHeaders: readonly string[]): void {
  for (const name of CREDENTIAL_HEADERS) {
    let seen = 0;
    for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) seen++;
    if (seen > 1)
      throw new BadRequestError(`${name === 'authorization' ? 'Authorization' : 'X-API-Key'}: the header is sent ${seen} times; send one credential, once`);
  }
}

/**
 * Reads credentials from request headers (any case; `rawHeaders` is the request's raw list);
 * a malformed Authorization header is a 401, a repeated credential header a 400.
 */
export function credentialsFromHeaders(headers: Record<string, string | string[] | undefined>, rawHeaders: readonly string[]): Credentials {
  refuseRepeatedCredentials(rawHeaders);
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const credentials: Credentials = {};
  const apiKeyHeader = header('x-api-key');
  if (apiKeyHeader !== undefined) credentials.apiKey = apiKeyHeader.trim();
  const authorization = header('authorization');
  if (authorization !== undefined) {
    const match = /^(\S+)\s+(\S+)\s*$/.exec(authorization);
    const scheme = match?.[1]?.toLowerCase();
    if (scheme === 'bearer') credentials.bearerToken = match![2];
    else if (scheme === 'api-key' || scheme === 'apikey') credentials.apiKey ??= match![2];
    else throw new UnauthorizedError('Authorization header must be "Bearer <access token>" or "API-Key <key>"');
  }
  return credentials;
}

/** RFC 6750 §3.1: a request that sent no credentials is challenged without an error code. */
const NO_CREDENTIALS_CHALLENGE = 'Bearer realm="stacklens"';

/**
 * `audience`: the audience a bearer token must carry (default the REST API's, API_AUDIENCE;
 * the MCP door passes its resource identifier). API keys are not bound to an audience.
 */
export async function authenticate(db: Db, config: Config, credentials: Credentials, audience?: string): Promise<Principal> {
  if (credentials.bearerToken !== undefined) {
    return verifyAccessToken(db, config, credentials.bearerToken, audience);
  }
  if (credentials.apiKey !== undefined) {
    const client = await verifyApiKey(db, credentials.apiKey);
    if (!client) throw new UnauthorizedError('Invalid, revoked or unknown API key');
    return principalOfClient(client, 'api_key');
  }
  throw new UnauthorizedError('Missing credentials: send "Authorization: Bearer <access token>" or "X-API-Key: <key>"', {
    'www-authenticate': NO_CREDENTIALS_CHALLENGE,
  });
}
