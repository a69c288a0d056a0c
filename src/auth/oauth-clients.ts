// The clients people sign in to over OAuth (a hosted MCP connector, an IDE agent): dynamic
// registration (RFC 7591) with its limits, and the authentication of such a client at the
// token and revocation endpoints.
//
// Registration is open when OAUTH_DYNAMIC_REGISTRATION is on (the default): a client gets
// nothing by registering; a person must still sign in and consent. Limits: registrations
// per address per hour (OAUTH_REGISTRATIONS_PER_HOUR), registered clients in all
// (OAUTH_MAX_CLIENTS: at the limit the oldest unused one makes room), and redirect URIs that are https, or http on a loopback host only
// (RFC 8252 §7.3), with no fragment and no credentials in them.
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { CounterStore } from './counters.ts';
import { RateLimitedError } from '../errors.ts';
import { rateLimitRejections } from '../telemetry/metrics.ts';
import { findOAuthClient, insertOAuthClient, type OAuthAuthMethod, type OAuthClientRow } from '../store/oauth.ts';
import { isSafeText } from '../schemas/text.ts';
import { addressGroup } from './client-address.ts';
import { countFailedAuthentication } from './failed-auth.ts';
import { BASIC_CHALLENGE, OAuthError, type PresentedClient } from './oauth-params.ts';
import { hashSecret, randomToken, secretMatches } from './secrets.ts';

export const OAUTH_CLIENT_PREFIX = 'oac_';
const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 512;
const MAX_CLIENT_NAME = 100;
/** A client nobody signed in through is kept at least this long (its person may be on the consent screen). */
const UNUSED_CLIENT_KEPT_MS = 3_600_000;
const AUTH_METHODS: readonly OAuthAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// Compared against when the client is unknown, so both answers take the same time.
const DUMMY_HASH = hashSecret('stacklens-no-such-oauth-client');

const badMetadata = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);
const badRedirect = (description: string) => new OAuthError(400, 'invalid_redirect_uri', description);

/** The redirect-URI rule of registration (the authorization request then matches a registered URI exactly). */
function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment (#…)';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'must use https, or http on localhost, 127.0.0.1 or [::1] only';
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badMetadata(`${field}: must be an array of strings`);
  return value as string[];
}

interface RegisteredClient {
  client: OAuthClientRow;
  /** Shown once, to a confidential client; only its hash is kept. */
  secret?: string;
}

/** Reads RFC 7591 client metadata; a 400 naming the field and its rule otherwise. */
function clientMetadata(body: unknown): { name: string; redirectUris: string[]; authMethod: OAuthAuthMethod } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badMetadata('The body must be a JSON object of client metadata (RFC 7591)');
  const m = body as Record<string, unknown>;
  const redirectUris = stringList(m.redirect_uris, 'redirect_uris');
  if (!redirectUris || redirectUris.length === 0) throw badRedirect('redirect_uris: at least one redirect URI is required');
  if (redirectUris.length > MAX_REDIRECT_URIS) throw badRedirect(`redirect_uris: at most ${MAX_REDIRECT_URIS}`);
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw badRedirect(`redirect_uris: '${uri.slice(0, 80)}' ${problem}`);
  }
  const name = m.client_name ?? 'Unnamed client';
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_CLIENT_NAME || !isSafeText(name)) {
    throw badMetadata(`client_name: must be 1 to ${MAX_CLIENT_NAME} characters of plain text`);
  }
  const authMethod = m.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof authMethod !== 'string' || !(AUTH_METHODS as readonly string[]).includes(authMethod)) {
    throw badMetadata(`token_endpoint_auth_method: must be one of ${AUTH_METHODS.join(', ')}`);
  }
  const grantTypes = stringList(m.grant_types, 'grant_types') ?? ['authorization_code'];
  const unknownGrant = grantTypes.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unknownGrant !== undefined) throw badMetadata(`grant_types: '${unknownGrant.slice(0, 60)}' is not offered; use authorization_code and refresh_token`);
  const responseTypes = stringList(m.response_types, 'response_types') ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) throw badMetadata("response_types: only 'code' is offered");
  return { name: name.trim(), redirectUris: [...new Set(redirectUris)], authMethod: authMethod as OAuthAuthMethod };
}

export async function registerClient(deps: { db: Db; config: Config; counters: CounterStore }, body: unknown, address: string): Promise<RegisteredClient> {
  const { db, config, counters } = deps;
  const people = config.auth.people;
  const metadata = clientMetadata(body);
  const { allowed, states } = await counters.consume([{ key: `reg:{${addressGroup(address)}}`, limit: people.registrationsPerHour }], 3_600_000);
  if (!allowed) {
    rateLimitRejections.inc({ policy: 'oauth_registrations' });
    const retry = Math.max(1, Math.ceil(states[0]!.resetMs / 1000));
    throw new RateLimitedError(`Too many client registrations from this address (${people.registrationsPerHour} an hour); retry after ${retry} s`, retry);
  }
  const secret = metadata.authMethod === 'none' ? undefined : randomToken(32);
  const client = {
    id: `${OAUTH_CLIENT_PREFIX}${randomToken(12)}`,
    name: metadata.name,
    redirectUris: metadata.redirectUris,
    secretHash: secret === undefined ? null : hashSecret(secret),
    authMethod: metadata.authMethod,
  };
  if (!(await insertOAuthClient(db, client, people.maxClients, UNUSED_CLIENT_KEPT_MS))) {
    throw new OAuthError(
      403,
      'access_denied',
      `This server holds its limit of ${people.maxClients} registered OAuth clients (OAUTH_MAX_CLIENTS), all in use or registered within the hour; ask its operator to raise the limit`,
    );
  }
  return { client: { ...client, createdAt: new Date() }, ...(secret !== undefined ? { secret } : {}) };
}

/**
 * The OAuth client of a token or revocation request: a public client by its client_id (and no
 * secret), a confidential one by its secret (Basic or in the body). Unknown client, wrong
 * secret and wrong method answer alike (401 invalid_client), and count as failed
 * authentications of the address.
 */
export async function authenticateOAuthClient(
  deps: { config: Config; db: Db; counters: CounterStore },
  presented: PresentedClient | undefined,
  address: string,
): Promise<OAuthClientRow> {
  if (!presented)
    throw new OAuthError(401, 'invalid_client', 'Client authentication is required: send client_id (and client_secret, if the client was registered with one)');
  const client =
    presented.clientId.startsWith(OAUTH_CLIENT_PREFIX) && presented.clientId.length <= 100 ? await findOAuthClient(deps.db, presented.clientId) : undefined;
  let ok: boolean;
  if (client?.authMethod === 'none') ok = presented.clientSecret === undefined;
  else {
    const secretOk = secretMatches(presented.clientSecret ?? '', client?.secretHash ?? DUMMY_HASH);
    // Basic or the body, whichever it registered: both carry the same secret over TLS.
    ok = !!client && secretOk && presented.clientSecret !== undefined;
  }
  if (client && ok) return client;
  throw await countFailedAuthentication(
    deps.counters,
    deps.config,
    address,
    new OAuthError(401, 'invalid_client', 'Client authentication failed', presented.basic ? BASIC_CHALLENGE : {}),
  );
}
