// The console sign-in throttle. Every attempt takes a slot BEFORE its password is checked
// (auth/counters.ts takeSlot), so concurrent guesses cannot all be checked against one
// count; a wrong password keeps its slot, a right one gives it back. Three counts, each
// with CONSOLE_LOGIN_MAX_FAILURES (F) attempts free, then a wait before the next attempt
// of 1 s, doubling with each attempt, at most CONSOLE_LOGIN_MAX_DELAY_SECONDS; a count is
// forgotten CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS after its last attempt:
//  - per email and address (IPv6: /64): one guesser at one account; cleared by a success;
//  - per email over all addresses: guessing one account from many addresses. An address
//    the person signed in from in the last KNOWN_ADDRESS_DAYS is exempt from this one, so
//    whoever floods the account slows only sign-ins from new places, never the owner's;
//  - per address over all emails, with 10 × F free: spraying many accounts.
// Nothing locks: the longest anyone waits for their next attempt is the longest delay.
import type { Config } from '../config.ts';
import type { BackoffRule, CounterStore } from './counters.ts';
import { RateLimitedError } from '../errors.ts';
import { rateLimitRejections } from '../telemetry/metrics.ts';
import { addressGroup } from './client-address.ts';

/** An address spraying many emails gets this many times the per-email free attempts. */
const ADDRESS_FACTOR = 10;
const BASE_DELAY_MS = 1000;
/** How long a successful sign-in makes its address known for the account. */
const KNOWN_ADDRESS_DAYS = 30;
const MAX_EMAIL_KEY = 254;

interface SignInSlot {
  /** After a right password: gives back the slots that were not a guess and remembers the address. */
  succeeded(): Promise<void>;
}

/** Takes the attempt's slots, or throws 429 with Retry-After naming what is throttled. */
export async function takeSignInSlot(counters: CounterStore, config: Config, email: string, ip: string): Promise<SignInSlot> {
  const { maxFailures, windowSeconds, maxDelaySeconds } = config.console.login;
  const address = addressGroup(ip);
  const account = email.slice(0, MAX_EMAIL_KEY);
  const rule = (key: string, free: number): BackoffRule => ({
    key,
    free,
    baseMs: BASE_DELAY_MS,
    maxMs: maxDelaySeconds * 1000,
    forgetMs: windowSeconds * 1000,
  });
  // {…} are Redis hash tags: the keys of one takeSlot call share a slot in a cluster.
  const fromAddress = rule(`lfa:{${address}}`, maxFailures * ADDRESS_FACTOR);
  const pair = rule(`lf:{${account}}:${address}`, maxFailures);
  const perAccount = rule(`la:{${account}}`, maxFailures);
  const knownKey = `lk:{${account}}:${address}`;

  const refuse = (retryMs: number, what: string) => {
    rateLimitRejections.inc({ policy: 'console_login_failures' });
    const retry = Math.max(1, Math.ceil(retryMs / 1000));
    return new RateLimitedError(`Too many sign-in attempts ${what}; retry after ${retry} s`, retry);
  };
  const byAddress = await counters.takeSlot([fromAddress]);
  if (!byAddress.allowed) throw refuse(byAddress.retryMs, 'from this address');
  const known = (await counters.peek(knownKey)).count > 0;
  const emailRules = known ? [pair] : [pair, perAccount];
  const byEmail = await counters.takeSlot(emailRules);
  if (!byEmail.allowed) {
    await counters.refundSlot([fromAddress]); // this attempt was not checked
    throw refuse(byEmail.retryMs, 'for this email');
  }
  return {
    async succeeded() {
      await counters.reset(pair.key);
      await counters.refundSlot([fromAddress]);
      if (!known) await counters.refundSlot([perAccount]);
      await counters.consume([{ key: knownKey, limit: Infinity }], KNOWN_ADDRESS_DAYS * 86_400_000);
    },
  };
}
