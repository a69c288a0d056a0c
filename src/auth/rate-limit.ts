// Per-client rate limits from the client's plan, shared by REST and MCP. Every request
// counts against the plan's general quota (requests per minute); AI and export calls
// also count against their own, lower quota. Windows are fixed, 60 s, keyed by client
// (never by IP); each console person has counters of their own, with the console client's
// quotas. Headers follow the IETF draft "RateLimit header fields for HTTP"
// (draft-ietf-httpapi-ratelimit-headers-08 and later), one list member per policy:
//   RateLimit-Policy: "default";q=600;w=60, "ai";q=60;w=60
//   RateLimit: "default";r=599;t=42, "ai";r=59;t=42
import type { CounterStore } from './counters.ts';
import { RateLimitedError } from '../errors.ts';
import type { Principal } from './principal.ts';
import type { Plan, RateClass } from '../schemas/plans.ts';
import { rateLimitRejections } from '../telemetry/metrics.ts';
const RATE_WINDOW_SECONDS = 60;

interface Policy {
  name: RateClass;
  quota: number;
  what: string;
}

function policiesFor(plan: Plan, rateClass: RateClass): Policy[] {
  const general: Policy = { name: 'default', quota: plan.requestsPerMinute, what: 'requests' };
  if (rateClass === 'ai') return [general, { name: 'ai', quota: plan.aiRequestsPerMinute, what: 'AI helper calls' }];
  if (rateClass === 'export') return [general, { name: 'export', quota: plan.exportRequestsPerMinute, what: 'exports' }];
  return [general];
}

interface RateLimitOutcome {
  allowed: boolean;
  /** Set when refused: whole seconds until the exhausted window resets (≥ 1). */
  retryAfterSeconds?: number;
  /** `ratelimit-policy` and `ratelimit`, for every response. */
  headers: Record<string, string>;
  message?: string;
}

/** Counts one call of `rateClass` for the principal's client and says whether it may proceed. */
async function consumeRateLimit(store: CounterStore, principal: Principal, rateClass: RateClass): Promise<RateLimitOutcome> {
  const policies = policiesFor(principal.plan, rateClass);
  const { allowed, states } = await store.consume(
    // {clientId} is a Redis hash tag: a client's counters share one slot in a cluster.
    // A console person has the console client's plan quotas to themselves (u:<user id>).
    policies.map((p) => ({ key: `rl:{${principal.clientId}}:${principal.person ? `u:${principal.person.userId}:` : ''}${p.name}`, limit: p.quota })),
    RATE_WINDOW_SECONDS * 1000,
  );
  const resetSeconds = states.map((s) => Math.max(1, Math.ceil(s.resetMs / 1000)));
  const headers = {
    'ratelimit-policy': policies.map((p) => `"${p.name}";q=${p.quota};w=${RATE_WINDOW_SECONDS}`).join(', '),
    ratelimit: policies.map((p, i) => `"${p.name}";r=${Math.max(0, p.quota - states[i]!.count)};t=${resetSeconds[i]}`).join(', '),
  };
  if (allowed) return { allowed, headers };
  const exhausted = policies.map((p, i) => ({ p, i })).filter(({ p, i }) => states[i]!.count >= p.quota);
  if (exhausted.length === 0) {
    // No quota is spent: the counter store had no room for this client's new counters (auth/counters.ts).
    rateLimitRejections.inc({ policy: 'store_full' });
    const retryAfterSeconds = Math.max(...resetSeconds);
    return { allowed, retryAfterSeconds, headers, message: `Rate limit counters are full on this server; retry after ${retryAfterSeconds} s` };
  }
  const retryAfterSeconds = Math.max(...exhausted.map(({ i }) => resetSeconds[i]!));
  const first = exhausted[0]!.p;
  rateLimitRejections.inc({ policy: first.name });
  const message = `Rate limit exceeded: the '${principal.plan.id}' plan allows ${first.quota} ${first.what} per ${RATE_WINDOW_SECONDS} s; retry after ${retryAfterSeconds} s`;
  return { allowed, retryAfterSeconds, headers, message };
}

/** consumeRateLimit, then: headers set through `setHeader`, and a RateLimitedError (429 + Retry-After) when refused. */
export async function enforceRateLimit(
  store: CounterStore,
  principal: Principal,
  rateClass: RateClass,
  setHeader: (name: string, value: string) => void,
): Promise<void> {
  const outcome = await consumeRateLimit(store, principal, rateClass);
  for (const [name, value] of Object.entries(outcome.headers)) setHeader(name, value);
  if (!outcome.allowed) throw new RateLimitedError(outcome.message!, outcome.retryAfterSeconds!);
}
