// Bulkheads: a concurrency limit with a bounded, deadlined FIFO queue per class of
// operation, so expensive calls (searches, peer details, exports, AI helpers) can fill only
// their own compartment of the database pool and never the connections cheap reads need.
// Which class a call belongs to comes from its operation record (schemas/operation.ts);
// both doors enforce it through here: REST in http/route-config.ts `serve()`, MCP tool
// calls in mcp/server.ts. A full queue, or a wait past the deadline, is a 503 with
// Retry-After at once: a client told to come back is better served than one left hanging.
import { ServiceUnavailableError } from './errors.ts';

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
   * passes, and with the signal's reason when the caller gives up (the client went away).
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (this.running < this.limits.concurrency && this.waiting.length === 0) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.limits.queue) {
      return Promise.reject(this.refusal(`${this.running} ${WHAT[this.name]} are running and ${this.waiting.length} are waiting, the most this service queues`));
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
          reject(this.refusal(`waited ${this.limits.queueTimeoutMs} ms for one of ${this.limits.concurrency} slots for ${WHAT[this.name]}`));
        }, this.limits.queueTimeoutMs),
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Runs `fn` in a slot (released when it settles). */
  async run<T>(fn: () => Promise<T> | T, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
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

  private refusal(why: string): ServiceUnavailableError {
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
