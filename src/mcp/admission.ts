// Admission at /mcp, common to POST and DELETE: who is calling and whether they may be
// served now. Authentication (X-API-Key, or a Bearer token whose audience is the MCP
// resource), the count of refused credentials per address (past its limit a 429), the 401
// challenge that names the protected-resource metadata, and then the caller's share of
// requests in flight, counted as on REST once the caller is known.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, credentialsFromHeaders, type Credentials } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { countFailedAuthentication } from '../auth/failed-auth.ts';
import { AppError, UnauthorizedError } from '../errors.ts';
import { rpcError } from './rpc-error.ts';

/** A quoted-string value of a challenge parameter (RFC 7235): no quotes or backslashes. */
const quoted = (s: string) => `"${s.replace(/["\\\r\n]/g, "'")}"`;

/**
 * The 401 challenge (RFC 6750 §3, RFC 9728 §5.1): always where the resource's metadata
 * is; an error code only when a bearer token was sent and failed (none when no
 * credentials were sent at all).
 */
function challenge(resourceMetadata: string, credentials: Credentials | undefined, err: AppError): string {
  const metadata = `resource_metadata=${quoted(resourceMetadata)}`;
  // Credentials unread: the Authorization header was malformed (a request error, not a token's).
  const code = credentials === undefined ? 'invalid_request' : credentials.bearerToken !== undefined ? 'invalid_token' : undefined;
  if (!code) return `Bearer ${metadata}`;
  return `Bearer error="${code}", error_description=${quoted(err.message)}, ${metadata}`;
}

/**
 * The request's principal, or undefined when it is refused and the JSON-RPC error is
 * written. A bearer token must be for the MCP resource; `resourceMetadata` is the URL of
 * that resource's metadata (RFC 9728), named by every 401.
 */
export async function admit(app: FastifyInstance, resourceMetadata: string, request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const { config } = app;
  let credentials: Credentials | undefined;
  let principal: Principal;
  try {
    credentials = credentialsFromHeaders(request.headers, request.raw.rawHeaders);
    principal = await authenticate(app.db, config, credentials, config.mcp.resource);
    request.principal = principal;
    request.clientId = principal.clientId;
  } catch (caught) {
    let err = caught;
    // A credential sent and refused counts against the address (auth/failed-auth.ts); past its limit the answer is a 429.
    const presented = request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
    if (err instanceof UnauthorizedError && presented) err = await countFailedAuthentication(app.counters, config, request.ip, err);
    if (!(err instanceof AppError)) throw err;
    request.errorCode = err.code;
    const headers = err.status === 401 ? { ...err.headers, 'www-authenticate': challenge(resourceMetadata, credentials, err) } : err.headers;
    rpcError(reply, err.status, -32001, err.message, headers);
    return undefined;
  }
  // The caller's share of requests in flight, counted as on REST once it is known (a
  // refusal is a 429 in the service's error shape, thrown to the app's error handler).
  await app.admitCaller(request, reply, principal);
  return principal;
}
