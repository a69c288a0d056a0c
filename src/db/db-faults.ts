// Database faults as the service reports them: a database that refuses connections, one that
// does not answer (frozen, unreachable), a statement past its request's time limit, and a
// pool with no free connection all become one typed 503 with Retry-After (never a 500, and
// never mistaken for a bad credential by the authentication above). The availability
// monitor turns the stream of failures into state changes (down / recovered), so the log
// gets one line per outage instead of a stack trace per request.
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { ServiceUnavailableError } from '../errors.ts';

type DatabaseFault = 'down' | 'timeout' | 'busy' | 'aborted';

/** Seconds a client is told to wait (Retry-After) per kind of fault. */
const RETRY_AFTER_SECONDS: Record<DatabaseFault, number> = { down: 5, timeout: 2, busy: 1, aborted: 1 };

/** A ServiceUnavailableError (503 + Retry-After) that says which database fault caused it. */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  readonly fault: DatabaseFault;

  constructor(fault: DatabaseFault, message: string, options: { cause?: unknown } = {}) {
    super(message, RETRY_AFTER_SECONDS[fault]);
    this.fault = fault;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

// SQLSTATE classes and codes that mean "the database cannot serve now", not "this statement is wrong":
// 08 connection exception, 57P01-57P03 shutdown / cannot connect now, 53300 too many connections.
// Not 08P01 (protocol_violation): the server sends it for a statement whose parameters do not
// match its placeholders, a bug in our SQL on a healthy connection; a 503 would invite retries.
const UNAVAILABLE_SQLSTATES = /^(08(?!P01)...|57P0[123]|53300)$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
// node-postgres and pg-pool report lost or refused connections with plain messages, no code.
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|timeout expired|connection timeout|Connection ended|Client has encountered a connection error|the embedded database stopped|not queryable/i;

/** The fault an error of the driver stands for; undefined when it is an ordinary statement error. */
export function faultOf(err: unknown): DatabaseFault | undefined {
  if (err instanceof DatabaseUnavailableError) return err.fault;
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === '57014') return 'timeout'; // query_canceled: our cancel, or the server's statement_timeout
    // A read replica's replay cancelled the statement (DATABASE_READ_URL): the same read succeeds when retried.
    if (code === '40001' && /conflict with recovery/i.test(err.message)) return 'busy';
    if (UNAVAILABLE_SQLSTATES.test(code) || NETWORK_CODES.has(code)) return 'down';
  }
  if (LOST_CONNECTION.test(err.message)) return 'down';
  return undefined;
}

/** A driver error as the service reports it: a fault becomes a DatabaseUnavailableError, anything else is returned unchanged. */
export function asServiceError(err: unknown): unknown {
  if (err instanceof DatabaseUnavailableError) return err;
  const fault = faultOf(err);
  if (!fault) return err;
  return new DatabaseUnavailableError(fault, 'The database is unavailable; retry after Retry-After seconds', { cause: err });
}

export interface AvailabilityChange {
  state: 'down' | 'up';
  /** When it went down: the first error's message. */
  reason?: string;
  /** When it came back: how long it was down. */
  downForMs?: number;
}

/**
 * Up or down, as the last statements saw it: down on the first connection failure, up again
 * on the first statement begun after it that succeeds. Emits 'change' once per transition. Timeouts
 * and a busy pool say nothing about availability (one slow query is not an outage).
 */
export class Availability extends EventEmitter<{ change: [AvailabilityChange] }> {
  private downSince: number | undefined;
  private upSince = 0;

  get up(): boolean {
    return this.downSince === undefined;
  }

  /** A statement or connection attempt begun at `startedAt` failed; one begun before the last recovery is old news. */
  failed(err: unknown, startedAt: number): void {
    if (this.downSince !== undefined || startedAt < this.upSince || faultOf(err) !== 'down') return;
    this.downSince = Date.now();
    const cause = err instanceof DatabaseUnavailableError && err.cause instanceof Error ? err.cause : err;
    this.emit('change', { state: 'down', reason: cause instanceof Error ? cause.message : String(cause) });
  }

  /**
   * A statement begun at `startedAt` succeeded. One begun before the database went down is
   * old news too: while PostgreSQL stops, a statement already running may still complete
   * after others have failed, and must not log a recovery (then a second outage).
   */
  succeeded(startedAt: number): void {
    if (this.downSince === undefined || startedAt < this.downSince) return;
    this.upSince = Date.now();
    const downForMs = this.upSince - this.downSince;
    this.downSince = undefined;
    this.emit('change', { state: 'up', downForMs });
  }
}

/** What a PostgreSQL cancel request needs to know of a connection (node-postgres Client fields). */
interface CancelTarget {
  host?: string;
  port?: number;
  processID?: number | null;
  secretKey?: number | null;
}

/**
 * Asks the server to cancel the statement a connection is running (the protocol's
 * CancelRequest, on a connection of its own). Best effort: a frozen server never reads it,
 * so the socket is given up after `timeoutMs`.
 */
export function sendCancelRequest(target: CancelTarget, timeoutMs: number): void {
  if (!target.processID || target.secretKey === null || target.secretKey === undefined) return;
  const host = target.host ?? 'localhost';
  const port = target.port ?? 5432;
  const socket = host.startsWith('/') ? net.connect({ path: `${host}/.s.PGSQL.${port}` }) : net.connect({ host, port });
  socket.setTimeout(timeoutMs, () => socket.destroy());
  socket.on('error', () => {
    /* best effort */
  });
  socket.on('connect', () => {
    const message = Buffer.alloc(16);
    message.writeInt32BE(16, 0);
    message.writeInt32BE(80877102, 4); // the CancelRequest code
    message.writeInt32BE(target.processID!, 8);
    message.writeInt32BE(target.secretKey!, 12);
    socket.end(message);
  });
}
