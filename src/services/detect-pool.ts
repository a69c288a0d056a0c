// Detection for requests runs here, off the main thread: a pool of worker threads (tinypool),
// DETECT_WORKERS of them, each with the compiled catalog. Matching is linear in the page, but a
// 512 KiB page still costs tens to hundreds of milliseconds of CPU, which on the event loop
// would hold every other request, /healthz included. A call whose deadline passes has its
// worker terminated (the pool starts another), so a detection can never outlive its caller.
import { Tinypool } from 'tinypool';
import { threadModule } from '../threads.ts';
import type { Detection, SiteArtifacts } from '../detect/types.ts';

/** One call's work: the site and the confidence threshold (plain data, copied to the worker). */
export interface DetectTask {
  site: SiteArtifacts;
  minConfidence: number;
  /** An operator's rule file (`stacklens detect --rules`), compiled once per thread; absent: the built-in catalog. */
  rules?: { rulesFile: string; replace: boolean };
}

/** What each thread is told when it starts. */
export interface DetectWorkerData {
  background: boolean;
}

/** What the pool's threads load: detect-worker.ts, whose default export runs one task. */
const WORKER_MODULE = threadModule(import.meta.url, './detect-worker');

/** Idle threads beyond the first end after this long (the first stays, with its compiled catalog). */
const IDLE_MS = 60_000;

export class DetectorPool {
  private pool: Tinypool | undefined;
  private closed = false;

  /**
   * `background` (the server's pool): the threads lower their priority, so the event loop is
   * never short of a core for them; the CLI's pool, the only work of its process, runs at the
   * normal priority.
   */
  constructor(
    private readonly threads: number,
    private readonly options: { background: boolean } = { background: true },
  ) {}

  /**
   * One site's detections, computed on a worker thread. Rejects with tinypool's AbortError when
   * `signal` aborts first (waiting or running: a running worker is terminated and replaced);
   * without one (the CLI's files) it runs to its end.
   */
  run(task: DetectTask, signal?: AbortSignal): Promise<Detection[]> {
    if (this.closed) return Promise.reject(new Error('the detector pool is closed'));
    return this.threadPool().run(task, signal ? { signal } : {}) as Promise<Detection[]>;
  }

  /**
   * Starts the threads and waits until they have compiled the catalog (`serve` calls it, so the
   * first request does not wait for them). Without it the pool starts on first use: an app that
   * never detects (a test, a CLI command) starts no threads.
   */
  async start(): Promise<void> {
    if (this.closed) return;
    await this.threadPool().run({ site: { domain: 'warm-up.invalid', pages: [] }, minConfidence: 1 });
  }

  private threadPool(): Tinypool {
    return (this.pool ??= new Tinypool({
      filename: WORKER_MODULE,
      minThreads: 1,
      maxThreads: this.threads,
      idleTimeout: IDLE_MS,
      workerData: { background: this.options.background } satisfies DetectWorkerData,
    }));
  }

  /** Ids of the running worker threads (for tests and diagnostics). */
  get threadIds(): number[] {
    return (this.pool?.threads ?? []).map((t) => t.threadId);
  }

  /** Ends every worker; calls still running reject. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }
}

/** The error tinypool rejects with when a call's signal aborted it. */
export const isAbortError = (err: unknown): boolean => err instanceof Error && err.name === 'AbortError';
