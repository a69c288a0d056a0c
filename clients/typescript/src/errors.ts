// The one error type the client throws for an answer that is not a success: the service's
// error body `{ status, error, message, path, requestId }` (or the token endpoint's OAuth
// body `{ error, error_description }`) as fields, so callers branch on `status`, not text.

/** Any non-2xx answer of the service, after the client's retries gave up. */
export class StacklensError extends Error {
  override readonly name = 'StacklensError';
  /** HTTP status, e.g. 400, 404, 429. */
  readonly status: number;
  /** Reason phrase (`Not Found`) or, from the token endpoint, the OAuth code (`invalid_client`). */
  readonly error: string;
  /** Request path as the service saw it, when it said. */
  readonly path?: string;
  /** The service's id of the request: quote it when reporting a problem. */
  readonly requestId?: string;
  /** The answer itself, e.g. for its `Retry-After` or `RateLimit` headers. */
  readonly response?: Response;

  constructor(fields: { status: number; error: string; message: string; path?: string; requestId?: string; response?: Response }) {
    super(fields.message);
    this.status = fields.status;
    this.error = fields.error;
    this.path = fields.path;
    this.requestId = fields.requestId;
    this.response = fields.response;
  }

  /** Reads an error answer; a body that is not the service's JSON still gives a useful error. */
  static async fromResponse(response: Response): Promise<StacklensError> {
    const text = await response.text().catch(() => '');
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      // Not JSON (a proxy's HTML page, an empty body): keep the text as the message.
    }
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return new StacklensError({
      status: response.status,
      error: str(body.error) ?? (response.statusText || `HTTP ${response.status}`),
      message: str(body.message) ?? str(body.error_description) ?? (text.slice(0, 500) || `HTTP ${response.status}`),
      path: str(body.path),
      requestId: str(body.requestId) ?? response.headers.get('x-request-id') ?? undefined,
      response,
    });
  }
}
