// Shared by own-token and external-token verification: clock tolerance and the mapping
// of jose failures to 401s whose message says what is wrong, never echoing the token.
// Only a verdict on the token is a 401: a failure to check it (the database holding the
// signing keys is down: a 503 from the store) passes through unchanged, so a valid token
// is never answered "invalid" because it could not be checked now.
import { errors } from 'jose';
import { AppError, UnauthorizedError } from '../errors.ts';

/** Seconds of clock skew tolerated on exp/iat/nbf. */
export const CLOCK_TOLERANCE_SECONDS = 10;

export function tokenError(err: unknown): unknown {
  if (err instanceof AppError || !(err instanceof errors.JOSEError)) return err;
  if (err instanceof errors.JWTExpired) return new UnauthorizedError('Access token has expired; request a new one from the token endpoint');
  if (err instanceof errors.JWTClaimValidationFailed) {
    return new UnauthorizedError(`Invalid access token: the '${err.claim}' claim check failed (${err.reason})`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return new UnauthorizedError('Invalid access token: signing algorithm not allowed');
  if (err instanceof errors.JWSSignatureVerificationFailed) return new UnauthorizedError('Invalid access token: bad signature');
  return new UnauthorizedError('Invalid access token');
}
