// What every OAuth endpoint shares: the OAuthError (an RFC 6749 §5.2 / RFC 7591 §3.2.2 code
// and a description that names the parameter), the strict reading of parameters (once, a
// string, bounded, safe text), and the client credentials a request presents (HTTP Basic or
// the body, not both; a public client sends its client_id alone).
import { MAX_TOKEN_PARAM } from '../schemas/oauth.ts';
import { isSafeText, TEXT_RULE } from '../schemas/text.ts';

type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'server_error';

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

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);

export type Params = (name: string) => string | undefined;

/** `longer`: parameters allowed past MAX_TOKEN_PARAM (an access token sent for revocation). */
export function readParams(body: unknown, longer: Readonly<Record<string, number>> = {}): Params {
  if (body === undefined || body === null) return () => undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object or form fields');
  const record = body as Record<string, unknown>;
  return (name) => {
    if (!Object.hasOwn(record, name)) return undefined;
    const v = record[name];
    if (Array.isArray(v)) throw invalidRequest(`Parameter '${name}' is repeated; send it once`);
    if (typeof v !== 'string') throw invalidRequest(`Parameter '${name}' must be a string`);
    const max = longer[name] ?? MAX_TOKEN_PARAM;
    if (v.length > max) throw invalidRequest(`Parameter '${name}' must be at most ${max} characters`);
    if (!isSafeText(v)) throw invalidRequest(`Parameter '${name}' ${TEXT_RULE}`);
    return v === '' ? undefined : v;
  };
}

export const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="stacklens", charset="UTF-8"' };

/** RFC 6749 §2.3.1: Basic credentials are form-encoded before base64. */
function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

export interface PresentedClient {
  clientId: string;
  /** Absent: a public client (RFC 6749 §2.1), identified by its client_id alone. */
  clientSecret?: string;
  basic: boolean;
}

/** The client credentials of a request (Basic or body, not both); undefined when it names no client at all. */
export function presentedClient(authorization: string | undefined, param: Params): PresentedClient | undefined {
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
  if (bodyId === undefined) {
    if (bodySecret !== undefined) throw invalidRequest("Parameter 'client_id' is required with client_secret");
    return undefined;
  }
  return { clientId: bodyId, ...(bodySecret !== undefined ? { clientSecret: bodySecret } : {}), basic: false };
}
