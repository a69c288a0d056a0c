// Failed authentications per client address (IPv6: /64; client-address.ts), over every door:
// a bad API key or access token on /api and /mcp, an ended console session, a wrong client
// secret at the token endpoint. Up to AUTH_MAX_FAILURES_PER_ADDRESS failures in a fixed
// AUTH_FAILURE_WINDOW_SECONDS window are answered 401; past that, a failure from the address
// is answered 429 with Retry-After (the end of the window) in the service's error shape.
// The count is of failures only and a request's credential is still checked: a valid
// credential from the same address is never refused because of someone else's failures.
// (Guessing is no threat to 256-bit keys; the limit makes a flood of bad credentials get
// the same slow-down answer as any other quota, and shows in /metrics.)
import type { Config } from '../config.ts';
import type { CounterStore } from './counters.ts';
import { AppError, RateLimitedError } from '../errors.ts';
import { rateLimitRejections } from '../telemetry/metrics.ts';
import { addressGroup } from './client-address.ts';

/**
 * Counts one failed authentication from `ip`; returns the error to answer with: `failure`
 * itself while the address is within its limit, a 429 once it is past it (or its class of
 * counters is full).
 */
export async function countFailedAuthentication<E extends Error>(counters: CounterStore, config: Config, ip: string, failure: E): Promise<E | AppError> {
  const { maxFailures, windowSeconds } = config.auth.addressFailures;
  const { allowed, states } = await counters.consume([{ key: `af:{${addressGroup(ip)}}`, limit: maxFailures }], windowSeconds * 1000);
  if (allowed) return failure;
  rateLimitRejections.inc({ policy: 'auth_failures' });
  const retry = Math.max(1, Math.ceil(states[0]!.resetMs / 1000));
  return new RateLimitedError(
    `Too many failed authentications from this address (${maxFailures} in ${windowSeconds} s); check the credential, then retry after ${retry} s`,
    retry,
  );
}
