// Bulkheads: a concurrency limit with a bounded, deadlined FIFO queue per class of
// operation, so expensive calls (searches, peer details, exports, AI helpers) can fill only
// their own compartment of the database pool and never the connections cheap reads need.
// Which class a call belongs to comes from its operation record (schemas/operation.ts);
// both doors enforce it through here: REST in http/route-config.ts `serve()`, MCP tool
// calls in mcp/server.ts. A full queue, or a wait past the deadline, is a 503 with
// Retry-After at once: a client told to come back is better served than one left hanging.
// A bulkhead may also cap the calls one caller has in it (running or queued): exports do, so
// one client's slow readers cannot hold every export slot while others wait; a call past its
// caller's share is a 429 at once. Every refusal is counted (stacklens_requests_refused_total).
import { RateLimitedError, ServiceUnavailableError } from './errors.ts';
import { requestsRefused } from './telemetry/metrics.ts';

/** The compartments. `standard` holds every call that is in no other one. */
export const BULKHEADS = ['search', 'peers', 'export', 'ai', 'standard'] as const;
export type BulkheadName = (typeof BULKHEADS)[number];

export interface BulkheadLimits {
  /** Calls running at once. */
  concurrency: number;
  /** Calls that may wait for a slot; one more is refused at once. */
  queue: number;
  /** Longest wait for a slot before the call is refused. */
  queueTimeoutMs: number;
  /** Calls one caller may have in this bulkhead (running or queued); unset: no cap. */
  perCaller?: number;
  /** The setting that sets perCaller, named in its refusal. */
  perCallerSetting?: string;
}

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout;
}

const WHAT: Record<BulkheadName, string> = {
  search: 'searches',
  peers: 'peer comparisons',
  export: 'exports',
  ai: 'AI-helper calls',
  standard: 'requests',
};

export class Bulkhead {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Calls each caller has in the bulkhead, running or queued (only with limits.perCaller). */
  private readonly byCaller = new Map<string, number>();

  constructor(
    readonly name: BulkheadName,
    readonly limits: BulkheadLimits,
  ) {}

  /** Calls running now. */
  get active(): number {
    return this.running;
  }

  /** Calls waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Seconds a refused client is told to wait: the queue deadline, at least 1. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.limits.queueTimeoutMs / 1000));
  }

  /**
   * A slot: at once when one is free and nobody waits, else after the calls queued before
   * this one. Rejects with ServiceUnavailableError when the queue is full or the deadline
   * passes, with RateLimitedError when `caller` already has its share (limits.perCaller),
   * and with the signal's reason when the caller gives up (the client went away).
   */
  acquire(signal?: AbortSignal, caller?: string): Promise<Release> {
    const { perCaller } = this.limits;
    const counted = perCaller !== undefined && caller !== undefined ? caller : undefined;
    if (counted !== undefined && (this.byCaller.get(counted) ?? 0) >= perCaller!) {
      requestsRefused.inc({ reason: 'bulkhead_caller_share' });
      const setting = this.limits.perCallerSetting ? ` (${this.limits.perCallerSetting})` : '';
      return Promise.reject(
        new RateLimitedError(
          `Too many ${WHAT[this.name]} at once: this client already has ${perCaller} running or waiting, the most one client may have${setting}; retry after ${this.retryAfterSeconds} s, or when one ends`,
          this.retryAfterSeconds,
        ),
      );
    }
    const granted = this.enter(signal);
    if (counted === undefined) return granted;
    this.byCaller.set(counted, (this.byCaller.get(counted) ?? 0) + 1);
    const leaveCaller = () => {
      const rest = (this.byCaller.get(counted) ?? 1) - 1;
      if (rest > 0) this.byCaller.set(counted, rest);
      else this.byCaller.delete(counted);
    };
    return granted.then(
      (release) => {
        let released = false;
        return () => {
          if (released) return;
          released = true;
          leaveCaller();
          release();
        };
      },
      (err: unknown) => {
        leaveCaller();
        throw err;
      },
    );
  }

  private enter(signal?: AbortSignal): Promise<Release> {
    if (this.running < this.limits.concurrency && this.waiting.length === 0) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.limits.queue) {
      return Promise.reject(
        this.refusal('bulkhead_full', `${this.running} ${WHAT[this.name]} are running and ${this.waiting.length} are waiting, the most this service queues`),
      );
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Release>((resolve, reject) => {
      const leave = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        leave();
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve(this.releaser());
        },
        timer: setTimeout(() => {
          leave();
          reject(
            this.refusal('bulkhead_timeout', `waited ${this.limits.queueTimeoutMs} ms for one of ${this.limits.concurrency} slots for ${WHAT[this.name]}`),
          );
        }, this.limits.queueTimeoutMs),
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Runs `fn` in a slot (released when it settles). */
  async run<T>(fn: () => Promise<T> | T, signal?: AbortSignal, caller?: string): Promise<T> {
    const release = await this.acquire(signal, caller);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting[0];
      // The slot passes straight to the first waiter: `running` stays as it is.
      if (next) next.grant();
      else this.running--;
    };
  }

  private refusal(reason: string, why: string): ServiceUnavailableError {
    requestsRefused.inc({ reason });
    return new ServiceUnavailableError(`The service is busy (${why}); retry after ${this.retryAfterSeconds} s`, this.retryAfterSeconds);
  }
}

/** One bulkhead per compartment, shared by the REST routes and the MCP tools of one app. */
export class Bulkheads {
  private readonly byName: Map<BulkheadName, Bulkhead>;

  constructor(limits: Readonly<Record<BulkheadName, BulkheadLimits>>) {
    this.byName = new Map(BULKHEADS.map((name) => [name, new Bulkhead(name, limits[name])]));
  }

  get(name: BulkheadName): Bulkhead {
    return this.byName.get(name)!;
  }
}
