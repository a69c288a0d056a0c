// Sending with retries: 429 and 503 are retried after the server's Retry-After (or an
// exponential backoff with jitter when it gives none), within a bounded number of attempts
// and a bounded total wait; anything else that is not a success becomes a StacklensError.
// Both are safe for every method: a refused (429) or not-ready (503) request did nothing.
// A failed connection is retried only for GET and HEAD: a POST may have been done.
import { StacklensError } from './errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 disables retries). */
  maxAttempts?: number;
  /** Upper bound of the summed waits, in ms; an answer asking for more is given up on (default 60 000). */
  maxTotalWaitMs?: number;
  /** First backoff step when the server gives no Retry-After, in ms, doubled each attempt (default 500). */
  baseDelayMs?: number;
}

/** How the client waits; tests pass one that advances a clock instead of sleeping. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const RETRYABLE = new Set([429, 503]);

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Calls `attempt` until it answers a success, retrying 429/503 as above. `attempt` builds
 * a fresh request each time (a body can be sent only once).
 */
export async function sendWithRetries(
  attempt: () => Promise<Response>,
  options: RetryOptions & { sleep: Sleep; now: () => number; retryNetworkErrors?: boolean },
): Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const maxTotalWaitMs = options.maxTotalWaitMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  let waited = 0;
  for (let n = 1; ; n++) {
    // The backoff after this attempt, with jitter so that many clients do not retry in step.
    const backoff = baseDelayMs * 2 ** (n - 1) * (0.5 + Math.random() / 2);
    let response: Response;
    try {
      response = await attempt();
    } catch (err) {
      // fetch rejects (TypeError) when no answer came: refused connection, reset, DNS.
      if (!options.retryNetworkErrors || !(err instanceof TypeError) || n >= maxAttempts || waited + backoff > maxTotalWaitMs) throw err;
      await options.sleep(backoff);
      waited += backoff;
      continue;
    }
    if (response.ok) return response;
    if (RETRYABLE.has(response.status) && n < maxAttempts) {
      const delay = retryAfterMs(response.headers.get('retry-after'), options.now()) ?? backoff;
      if (waited + delay <= maxTotalWaitMs) {
        await response.body?.cancel();
        await options.sleep(delay);
        waited += delay;
        continue;
      }
    }
    throw await StacklensError.fromResponse(response);
  }
}
