// Typed errors thrown by services; mapped once to HTTP bodies (http/plugins/errors.ts)
// and to MCP tool errors. Each carries its HTTP status and a stable code. The body's shape
// is fixed by the API ({ status, error, message }), so the code is not in it: it goes into
// the request's log line (`errorCode`), where operators count and search failures by it.

/** The stable codes of the typed errors. */
type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'not_acceptable'
  | 'unsupported_media_type';

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Extra response headers (Retry-After, WWW-Authenticate...). */
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, 'bad_request', message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string, headers: Record<string, string> = { 'www-authenticate': 'Bearer error="invalid_token"' }) {
    super(401, 'unauthorized', message, headers);
  }
}

export class PaymentRequiredError extends AppError {
  constructor(message: string) {
    super(402, 'payment_required', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

/** The request is valid but clashes with the current state (e.g. a refresh job already running). */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}

export class UnprocessableError extends AppError {
  constructor(message: string) {
    super(422, 'unprocessable', message);
  }
}

export class RateLimitedError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'rate_limited', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** The service cannot take the call now (busy, overloaded); the client should retry after the given seconds. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, 'unavailable', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** The standard reason phrase for a status, used as the `error` field of every body. */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
