// Access tokens (RFC 9068 JWTs, ES256, `typ: at+jwt`): issued by the token endpoint and
// verified on every bearer request. Verification runs jose's jwtVerify with a fixed
// algorithm allowlist and a key chosen only by `kid` among our published keys, so the
// signature is checked before any claim is trusted; then issuer, audience, typ, expiry
// (small clock tolerance), and finally the client (enabled, token newer than its secret).
// With AUTH_ISSUER/AUTH_JWKS_URL/AUTH_AUDIENCE set, tokens come from the external identity
// provider instead (external-tokens.ts). Any failure is a 401; nothing fails open.
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { UnauthorizedError } from '../errors.ts';
import { principalOfClient, type Principal } from './principal.ts';
import { now } from '../clock.ts';
import { cachedClient } from './client-cache.ts';
import { currentSigningKey, publicKeyFor, SIGNING_ALG } from './signing-keys.ts';
import { verifyExternalToken } from './external-tokens.ts';
import { CLOCK_TOLERANCE_SECONDS, tokenError } from './token-errors.ts';
import { personPrincipal } from './person-principal.ts';

const MAX_TOKEN_LENGTH = 8192;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const REQUIRED_CLAIMS = ['iss', 'sub', 'aud', 'exp', 'iat', 'jti', 'client_id'];

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

/**
 * Signs an access token for a client (the token endpoint checked the client), for one
 * audience: the REST API's (API_AUDIENCE) or the MCP server's resource (RFC 8707).
 */
export async function issueAccessToken(db: Db, config: Config, clientId: string, audience = config.auth.audience): Promise<IssuedToken> {
  const key = await currentSigningKey(db);
  const iat = Math.floor(now() / 1000);
  const ttl = config.auth.tokenTtlSeconds;
  const accessToken = await new SignJWT({ client_id: clientId })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(config.auth.issuer)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { accessToken, expiresIn: ttl };
}

/** What one person's consent gave one client: the claims of its access tokens. */
interface PersonGrant {
  grantId: string;
  userId: string;
  /** The OAuth client the person signed in to (oauth_clients). */
  clientId: string;
  resource: string;
  scope: string;
}

/**
 * Signs a person's access token (authorization code or refresh grant): sub is the person,
 * client_id the OAuth client, aud the resource the person consented to, scope what they
 * granted, and sid the grant, which verification checks is still live.
 */
export async function issuePersonAccessToken(db: Db, config: Config, grant: PersonGrant): Promise<IssuedToken> {
  const key = await currentSigningKey(db);
  const iat = Math.floor(now() / 1000);
  const ttl = config.auth.tokenTtlSeconds;
  const accessToken = await new SignJWT({ client_id: grant.clientId, scope: grant.scope, sid: grant.grantId })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(config.auth.issuer)
    .setSubject(grant.userId)
    .setAudience(grant.resource)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { accessToken, expiresIn: ttl };
}

/**
 * Verifies a bearer token for one audience: the REST API's by default; the MCP door asks
 * for its resource identifier, so a token issued for one is refused by the other.
 */
export async function verifyAccessToken(db: Db, config: Config, token: string, audience = config.auth.audience): Promise<Principal> {
  if (token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) {
    throw new UnauthorizedError('Malformed access token: expected a JWT from the token endpoint');
  }
  if (config.auth.external)
    return verifyExternalToken(db, config.auth.external, token, audience === config.auth.audience ? config.auth.external.audience : audience);

  const payload = (await verifiedPayload(db, config, token, audience)) ?? (await verifySignedToken(db, config, token, audience));
  // A person's token names its grant (sid): the person acts, through the console's client.
  if (payload.sid !== undefined) return personPrincipal(db, config, payload);
  const clientId = payload.client_id;
  if (typeof clientId !== 'string' || payload.sub !== clientId || typeof payload.jti !== 'string') {
    throw new UnauthorizedError('Invalid access token: client_id and sub must name the same client');
  }
  const client = await cachedClient(db, clientId);
  if (!client) throw new UnauthorizedError('Invalid access token: its client no longer exists');
  if (client.disabledAt) throw new UnauthorizedError('This client is disabled');
  // iat has whole seconds: a token from the same second as the rotation still passes.
  if (payload.iat! < Math.floor(client.secretRotatedAt.getTime() / 1000)) {
    throw new UnauthorizedError('Access token was issued before the client secret was rotated; request a new one');
  }
  return principalOfClient(client, 'access_token');
}

/**
 * Tokens whose signature and claims verified, by their exact text. The ES256 check is the
 * largest cost of a bearer request (≈ 0.06 ms of the 0.2 ms a firmographics call costs in
 * node); a client sends the same token for its whole lifetime. A kept token is used only
 * while it is inside the validity window it was verified for (issued no later than now,
 * not yet expired, both with no tolerance) and its key is still published; anything else
 * goes through the full check again, which gives the precise error. The client checks
 * (disabled, secret rotated) run on every request either way.
 */
type VerifiedToken = { payload: JWTPayload; kid: string; issuer: string; audience: string };
const verifiedTokens = new WeakMap<Db, Map<string, VerifiedToken>>();
const MAX_VERIFIED_TOKENS = 10_000;

async function verifiedPayload(db: Db, config: Config, token: string, audience: string): Promise<JWTPayload | undefined> {
  const kept = verifiedTokens.get(db);
  const hit = kept?.get(token);
  if (!hit) return undefined;
  const seconds = now() / 1000;
  if (
    hit.issuer === config.auth.issuer &&
    hit.audience === audience &&
    hit.payload.iat! <= seconds &&
    seconds < hit.payload.exp! &&
    seconds - hit.payload.iat! <= config.auth.tokenTtlSeconds &&
    (await publicKeyFor(db, hit.kid)) !== undefined
  ) {
    return hit.payload;
  }
  kept!.delete(token);
  return undefined;
}

async function verifySignedToken(db: Db, config: Config, token: string, audience: string): Promise<JWTPayload> {
  let verified;
  try {
    verified = await jwtVerify(token, (header: JWTHeaderParameters) => keyFor(db, header), {
      algorithms: [SIGNING_ALG],
      issuer: config.auth.issuer,
      audience,
      typ: 'at+jwt',
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now()),
      // Also refuses an iat in the future; a token never outlives the configured lifetime.
      maxTokenAge: config.auth.tokenTtlSeconds,
      requiredClaims: REQUIRED_CLAIMS,
    });
  } catch (err) {
    throw tokenError(err);
  }
  let kept = verifiedTokens.get(db);
  if (!kept) verifiedTokens.set(db, (kept = new Map()));
  if (kept.size >= MAX_VERIFIED_TOKENS) kept.clear();
  kept.set(token, { payload: verified.payload, kid: verified.protectedHeader.kid!, issuer: config.auth.issuer, audience });
  return verified.payload;
}

async function keyFor(db: Db, header: JWTHeaderParameters) {
  if (typeof header.kid !== 'string' || header.kid.length > 200) throw new UnauthorizedError('Invalid access token: no key id (kid) in its header');
  const found = await publicKeyFor(db, header.kid);
  if (!found || found.alg !== header.alg) throw new UnauthorizedError('Invalid access token: signed by an unknown key');
  return found.key;
}
