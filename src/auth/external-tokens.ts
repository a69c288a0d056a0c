// External identity provider mode (Auth0, Keycloak, ...): tokens are verified against the
// provider's JWKS, whose URL comes only from configuration (AUTH_JWKS_URL), never from a
// token header (jku/x5u are ignored). The token names its client by client_id, azp or
// sub (first present); an unknown client is a 403, since the token itself is genuine.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { AppError, ForbiddenError, UnauthorizedError } from '../errors.ts';
import { principalOfClient, type Principal } from './principal.ts';
import { now } from '../clock.ts';
import { cachedExternalClient } from './client-cache.ts';
import { CLOCK_TOLERANCE_SECONDS, tokenError } from './token-errors.ts';

/** Asymmetric algorithms only: an HMAC token could be forged with a public key. */
const EXTERNAL_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

type ExternalConfig = NonNullable<Config['auth']['external']>;
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetFor(url: string) {
  let set = keySets.get(url);
  if (!set) keySets.set(url, (set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 })));
  return set;
}

/** `audience`: the one the caller's door needs (AUTH_AUDIENCE for REST, the MCP resource for /mcp). */
export async function verifyExternalToken(db: Db, ext: ExternalConfig, token: string, audience = ext.audience): Promise<Principal> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keySetFor(ext.jwksUrl), {
      algorithms: EXTERNAL_ALGORITHMS,
      issuer: ext.issuer,
      audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now()),
      requiredClaims: ['exp'],
    }));
  } catch (err) {
    throw externalError(err);
  }
  const externalId = [payload.client_id, payload.azp, payload.sub].find((v): v is string => typeof v === 'string' && v.length > 0);
  if (!externalId) throw new UnauthorizedError('Invalid access token: it names no client (client_id, azp or sub)');
  const client = await cachedExternalClient(db, externalId);
  if (!client) {
    throw new ForbiddenError(
      `The identity provider's client '${externalId.slice(0, 200)}' is not registered here; an operator maps it with: stacklens clients create --name NAME --plan PLAN --external-id '${externalId.slice(0, 200)}'`,
    );
  }
  if (client.disabledAt) throw new UnauthorizedError('This client is disabled');
  return principalOfClient(client, 'access_token');
}

function externalError(err: unknown): unknown {
  const keysUnavailable =
    err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || !(err instanceof errors.JOSEError) || err.code === 'ERR_JOSE_GENERIC';
  if (keysUnavailable && !(err instanceof AppError)) {
    // Not the caller's fault, and never a reason to accept: the request fails as unavailable.
    return new AppError(503, 'unavailable', 'The identity provider keys (AUTH_JWKS_URL) could not be fetched; retry later');
  }
  if (err instanceof errors.JWKSNoMatchingKey) return new UnauthorizedError('Invalid access token: signed by a key the identity provider does not publish');
  return tokenError(err);
}
