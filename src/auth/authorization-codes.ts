// Sign-in for people (OAuth 2.1 authorization code with PKCE): the authorization request's
// checks, the code a person's consent gives, its exchange, refresh-token rotation and
// revocation (RFC 7009).
//
// - The authorization request is checked in two stages: until client_id and redirect_uri are
//   known good (registered client, exact redirect URI), an error is shown to the person and
//   never redirected (an open redirector otherwise); after, errors go back to the client.
// - PKCE is S256 only: a request without code_challenge_method (meaning plain) is refused.
// - A code lives CODE_TTL_SECONDS, once: exchanging it again revokes the grant its first
//   exchange started (RFC 6749 §4.1.2).
// - A refresh token is used once: each refresh answers a new one. Presenting a used one again
//   means it leaked (or the client lost a reply): the whole grant is revoked, and every
//   access token of it dies with it (tokens name their grant, person-principal.ts).
import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { CounterStore } from './counters.ts';
import { decodeJwt } from 'jose';
import { now } from '../clock.ts';
import {
  claimCode,
  claimRefreshToken,
  deleteExpiredCodes,
  findGrant,
  findOAuthClient,
  findRefreshToken,
  insertCode,
  insertGrant,
  insertRefreshToken,
  revokeGrant,
  setCodeFamily,
  type OAuthClientRow,
} from '../store/oauth.ts';
import { findConsoleUser } from '../store/console-users.ts';
import { authenticateOAuthClient, OAUTH_CLIENT_PREFIX } from './oauth-clients.ts';
import { invalidRequest, OAuthError, readParams, type Params, type PresentedClient } from './oauth-params.ts';
import { hashSecret, randomToken } from './secrets.ts';
import { PERSON_SCOPES } from '../schemas/oauth.ts';
import { issuePersonAccessToken, type IssuedToken } from './tokens.ts';

const CODE_TTL_SECONDS = 60;
const SCOPE_TEXT: Record<(typeof PERSON_SCOPES)[number], string> = {
  read: 'Read company, technology and market data as you (searches, profiles, lists, monitors)',
  write: 'Make changes as you: upload lists, create monitors, buy profiles (spends credits), as your role allows',
};
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

export interface AuthorizationRequest {
  client: OAuthClientRow;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  scopes: string[];
  resource: string;
}

/** The answer to a checked authorization request. */
export type AuthorizationCheck =
  | { ok: true; request: AuthorizationRequest }
  /** Shown to the person: the client or its redirect URI cannot be trusted. */
  | { ok: false; show: string }
  /** Sent back to the client at its redirect URI. */
  | { ok: false; redirect: string };

/** The client's redirect URI with the answer's parameters (and iss, RFC 9207). */
function redirectWith(config: Config, redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', config.auth.issuer);
  return url.toString();
}

/** The targets a person's token may be for (RFC 8707): the MCP server, or the REST API. */
function resourceOf(config: Config, resource: string | undefined): string | undefined {
  if (resource === undefined) return config.mcp.resource;
  return resource === config.mcp.resource || resource === config.auth.audience ? resource : undefined;
}

export async function checkAuthorizationRequest(db: Db, config: Config, params: unknown): Promise<AuthorizationCheck> {
  let param: Params;
  let clientId: string | undefined;
  let redirectParam: string | undefined;
  try {
    param = readParams(params);
    clientId = param('client_id');
    redirectParam = param('redirect_uri');
  } catch (err) {
    return { ok: false, show: err instanceof OAuthError ? err.description : 'Malformed authorization request' };
  }
  if (clientId === undefined) return { ok: false, show: 'The sign-in request has no client_id: the application that sent you here is misconfigured' };
  const client = clientId.startsWith(OAUTH_CLIENT_PREFIX) && clientId.length <= 100 ? await findOAuthClient(db, clientId) : undefined;
  if (!client) return { ok: false, show: 'The application that sent you here is not registered with this server (unknown client_id)' };
  const redirectUri = redirectParam ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (redirectUri === undefined) return { ok: false, show: 'The sign-in request has no redirect_uri, and the application registered several' };
  if (!client.redirectUris.includes(redirectUri)) {
    return { ok: false, show: `The redirect_uri is not one the application ${client.name} registered (exact match required)` };
  }

  let state: string | undefined;
  const fail = (error: string, description: string) => ({
    ok: false as const,
    redirect: redirectWith(config, redirectUri, { error, error_description: description, state }),
  });
  try {
    state = param('state');
    const responseType = param('response_type');
    if (responseType !== 'code') return fail('unsupported_response_type', "response_type: must be 'code'");
    const challenge = param('code_challenge');
    const method = param('code_challenge_method');
    if (challenge === undefined) return fail('invalid_request', 'code_challenge: PKCE is required (S256)');
    if (method !== 'S256')
      return fail(
        'invalid_request',
        `code_challenge_method: must be S256 (${method === undefined ? 'absent means plain, which' : `'${method.slice(0, 20)}'`} is refused)`,
      );
    if (!CHALLENGE_PATTERN.test(challenge))
      return fail('invalid_request', 'code_challenge: must be the base64url SHA-256 of the code verifier (43 characters)');
    const scopes = (param('scope') ?? PERSON_SCOPES.join(' ')).split(' ').filter(Boolean);
    const unknown = scopes.find((s) => !(PERSON_SCOPES as readonly string[]).includes(s));
    if (unknown !== undefined) return fail('invalid_scope', `scope: '${unknown.slice(0, 40)}' is not offered; use ${PERSON_SCOPES.join(', ')}`);
    if (scopes.length === 0) return fail('invalid_scope', `scope: name at least one of ${PERSON_SCOPES.join(', ')}`);
    const resource = resourceOf(config, param('resource'));
    if (resource === undefined)
      return fail('invalid_target', `resource: this server issues tokens for ${config.mcp.resource} (MCP) or ${config.auth.audience} (REST API)`);
    return { ok: true, request: { client, redirectUri, codeChallenge: challenge, state, scopes: [...new Set(scopes)], resource } };
  } catch (err) {
    if (err instanceof OAuthError) return fail(err.code, err.description);
    throw err;
  }
}

/** What the consent screen says each scope lets the client do. */
export function scopeText(scope: string): string {
  return SCOPE_TEXT[scope as (typeof PERSON_SCOPES)[number]] ?? scope;
}

/** The person allowed: a code for the client, at its redirect URI. */
export async function approve(db: Db, config: Config, request: AuthorizationRequest, userId: string): Promise<string> {
  const code = randomToken(32);
  const at = now();
  await deleteExpiredCodes(db, new Date(at));
  await insertCode(db, hashSecret(code), {
    clientId: request.client.id,
    userId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    scope: request.scopes.join(' '),
    expiresAt: new Date(at + CODE_TTL_SECONDS * 1000),
  });
  return redirectWith(config, request.redirectUri, { code, state: request.state });
}

/** The person said no (RFC 6749 §4.1.2.1 access_denied). */
export function deny(config: Config, request: AuthorizationRequest): string {
  return redirectWith(config, request.redirectUri, { error: 'access_denied', error_description: 'The person declined', state: request.state });
}

interface GrantDeps {
  db: Db;
  config: Config;
  counters: CounterStore;
}

export interface PersonTokens extends IssuedToken {
  refreshToken: string;
  scope: string;
}

const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

async function tokensOf(deps: GrantDeps, grant: { id: string; userId: string; clientId: string; resource: string; scope: string }): Promise<PersonTokens> {
  const refreshToken = randomToken(32);
  await insertRefreshToken(deps.db, hashSecret(refreshToken), grant.id, new Date(now() + deps.config.auth.people.refreshTtlSeconds * 1000));
  const issued = await issuePersonAccessToken(deps.db, deps.config, { ...grant, grantId: grant.id });
  return { ...issued, refreshToken, scope: grant.scope };
}

/** The person must still be able to sign in: a disabled or deleted person's grant gives nothing. */
async function requireLivePerson(db: Db, userId: string): Promise<void> {
  const user = await findConsoleUser(db, userId);
  if (!user || user.disabledAt) throw invalidGrant('The person who signed in is disabled or no longer exists');
}

/** grant_type=authorization_code (RFC 6749 §4.1.3, with PKCE, RFC 7636 §4.6). */
export async function exchangeCode(deps: GrantDeps, param: Params, presented: PresentedClient | undefined, address: string): Promise<PersonTokens> {
  const code = param('code');
  const redirectUri = param('redirect_uri');
  const verifier = param('code_verifier');
  if (code === undefined) throw invalidRequest("Parameter 'code' is required");
  if (redirectUri === undefined) throw invalidRequest("Parameter 'redirect_uri' is required: the one the authorization request sent");
  if (verifier === undefined) throw invalidRequest("Parameter 'code_verifier' is required (PKCE)");
  if (!VERIFIER_PATTERN.test(verifier)) throw invalidRequest("Parameter 'code_verifier': 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
  const client = await authenticateOAuthClient(deps, presented, address);
  const at = now();
  const hash = hashSecret(code);
  const found = await claimCode(deps.db, hash, new Date(at));
  if (!found || found.code.clientId !== client.id) throw invalidGrant('Unknown authorization code, or it was issued to another client');
  if (!found.claimed) {
    if (found.code.familyId) await revokeGrant(deps.db, found.code.familyId, new Date(at));
    throw invalidGrant('This authorization code was used already; what its first use gave is revoked. Sign in again');
  }
  const { code: row } = found;
  if (row.expiresAt.getTime() <= at) throw invalidGrant(`This authorization code expired (codes live ${CODE_TTL_SECONDS} s); sign in again`);
  if (row.redirectUri !== redirectUri) throw invalidGrant('redirect_uri differs from the one of the authorization request');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  if (challenge !== row.codeChallenge) throw invalidGrant('code_verifier does not match the code_challenge (PKCE S256)');
  const resource = param('resource');
  if (resource !== undefined && resource !== row.resource) throw new OAuthError(400, 'invalid_target', `resource: this code is for ${row.resource}`);
  await requireLivePerson(deps.db, row.userId);
  const grant = { id: `grt_${randomUUID()}`, clientId: client.id, userId: row.userId, resource: row.resource, scope: row.scope };
  await insertGrant(deps.db, grant);
  await setCodeFamily(deps.db, hash, grant.id);
  return tokensOf(deps, grant);
}

/** grant_type=refresh_token (RFC 6749 §6), rotating: the token sent is spent, a new one answered. */
export async function refresh(deps: GrantDeps, param: Params, presented: PresentedClient | undefined, address: string): Promise<PersonTokens> {
  const token = param('refresh_token');
  if (token === undefined) throw invalidRequest("Parameter 'refresh_token' is required");
  const client = await authenticateOAuthClient(deps, presented, address);
  const at = new Date(now());
  const found = await claimRefreshToken(deps.db, hashSecret(token), at);
  const grant = found && (await findGrant(deps.db, found.token.grantId));
  if (!found || !grant || grant.clientId !== client.id) throw invalidGrant('Unknown refresh token, or it was issued to another client');
  if (!found.claimed) {
    if (found.token.usedAt) {
      await revokeGrant(deps.db, grant.id, at);
      throw invalidGrant('This refresh token was used already: the sign-in is revoked, as the token may have leaked. Sign in again');
    }
    throw invalidGrant('This refresh token expired; sign in again');
  }
  if (grant.revokedAt) throw invalidGrant('This sign-in was revoked; sign in again');
  const resource = param('resource');
  if (resource !== undefined && resource !== grant.resource) throw new OAuthError(400, 'invalid_target', `resource: this grant is for ${grant.resource}`);
  // RFC 6749 §6: a refresh may ask for less than was granted, never more.
  const asked = param('scope')?.split(' ').filter(Boolean);
  const granted = grant.scope.split(' ');
  if (asked && asked.some((s) => !granted.includes(s))) throw new OAuthError(400, 'invalid_scope', `scope: this grant holds '${grant.scope}' only`);
  await requireLivePerson(deps.db, grant.userId);
  return tokensOf(deps, { ...grant, scope: asked && asked.length > 0 ? [...new Set(asked)].join(' ') : grant.scope });
}

/**
 * RFC 7009: revokes the grant of a refresh token or of a person's access token, when it is
 * the authenticated client's. Unknown or foreign tokens are answered alike (200, nothing done).
 */
export async function revoke(deps: GrantDeps, param: Params, presented: PresentedClient | undefined, address: string): Promise<void> {
  const token = param('token');
  if (token === undefined) throw invalidRequest("Parameter 'token' is required");
  const client = await authenticateOAuthClient(deps, presented, address);
  let grantId: string | undefined;
  const refreshRow = await findRefreshToken(deps.db, hashSecret(token));
  if (refreshRow) grantId = refreshRow.grantId;
  else if (token.split('.').length === 3) {
    try {
      const sid = decodeJwt(token).sid;
      if (typeof sid === 'string') grantId = sid;
    } catch {
      // not a JWT of ours: nothing to revoke
    }
  }
  if (grantId === undefined) return;
  // The grant id of an access token is a 122-bit random UUID the client holds; it is trusted
  // only for the client the grant belongs to.
  const grant = await findGrant(deps.db, grantId);
  if (grant && grant.clientId === client.id) await revokeGrant(deps.db, grant.id, new Date(now()));
}
