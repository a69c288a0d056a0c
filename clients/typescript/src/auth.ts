// Credentials: an API key sent as X-API-Key, or OAuth 2.0 client credentials exchanged at
// POST /oauth/token for a Bearer token that is cached, renewed a little before it expires,
// and renewed at once when the API answers 401 (the token was revoked or the clocks differ).
import { StacklensError } from './errors.ts';
import { sendWithRetries, type RetryOptions, type Sleep } from './retry.ts';

export interface TokenSourceOptions {
  /** The service origin; the token endpoint is `${baseUrl}/oauth/token`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The API audience (the service's API_AUDIENCE); by default `baseUrl`, the service's default too. */
  audience?: string;
  /** Renew when less than this is left of a token's life, in ms (default 60 000, at most half the life). */
  refreshMarginMs?: number;
  fetch: typeof fetch;
  now: () => number;
  sleep: Sleep;
  retry?: RetryOptions;
}

interface CachedToken {
  value: string;
  /** When to stop using it: expiry minus the refresh margin. */
  renewAt: number;
}

export class TokenSource {
  private cached?: CachedToken;
  /** One token request at a time: concurrent calls wait for the same answer. */
  private pending?: Promise<CachedToken>;

  constructor(private readonly options: TokenSourceOptions) {}

  /** A token that is valid for a while yet, from the cache when it has one. */
  async token(): Promise<string> {
    if (this.cached && this.options.now() < this.cached.renewAt) return this.cached.value;
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    this.cached = await this.pending;
    return this.cached.value;
  }

  /** Forgets the cached token (after a 401), unless a newer one already replaced `rejected`. */
  invalidate(rejected: string): void {
    if (this.cached?.value === rejected) this.cached = undefined;
  }

  private async request(): Promise<CachedToken> {
    const { baseUrl, clientId, clientSecret, audience, fetch, now } = this.options;
    const startedAt = now();
    const response = await sendWithRetries(
      () =>
        fetch(new URL('/oauth/token', baseUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
            audience: audience ?? new URL(baseUrl).origin,
          }),
        }),
      // Asking for a token changes nothing on the server: safe to repeat after a lost connection.
      { ...this.options.retry, sleep: this.options.sleep, now, retryNetworkErrors: true },
    );
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new StacklensError({
        status: response.status,
        error: 'invalid_token_response',
        message: 'The token endpoint answered without access_token and expires_in',
      });
    }
    // Lifetime counted from when the request left, so a slow answer errs on the early side.
    const lifeMs = body.expires_in * 1000;
    const margin = Math.min(this.options.refreshMarginMs ?? 60_000, lifeMs / 2);
    return { value: body.access_token, renewAt: startedAt + lifeMs - margin };
  }
}
