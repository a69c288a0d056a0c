// Embedded PGlite on a worker thread. PGlite is PostgreSQL compiled to WebAssembly and runs
// each statement synchronously on the thread that owns it: on the main thread every HTTP
// request, /healthz included, queued behind the slowest query (bench: healthz p99 140-410 ms
// with 50 clients loading the API). Here the worker (pglite-worker.ts) owns the database,
// and node-postgres reaches it through `connectionStream()`: a socket-like stream whose
// bytes are the PostgreSQL wire protocol, as they would be over TCP. Everything node-postgres
// does works unchanged: prepared statements, SQLSTATE codes, transactions, COPY.
//
// The messages node-postgres writes in one tick (Parse, Bind, Describe, Execute, Sync of one
// query) travel to the worker as one batch: a thread hop costs ≈ 0.15 ms of CPU here, and
// PGlite's own node-postgres adapter made one hop per message (4-5 per query, measured
// 1.1 ms per point query against 0.36 ms on the main thread).
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { threadModule } from '../threads.ts';

/** What the worker is started with. */
export interface ThreadStart {
  /** PGlite data folder; undefined → in memory. */
  dataDir: string | undefined;
  /** A data folder tarball (a snapshot) to start from, in memory. */
  loadDataDir?: Uint8Array;
}

export type ThreadRequest =
  | { id: number; type: 'exec'; message: Uint8Array }
  /** A new connection begins: end any transaction the last one left open, forget its session state. */
  | { id: number; type: 'reset' }
  /** CHECKPOINT, then the data folder as an uncompressed tarball (a consistent snapshot). */
  | { id: number; type: 'dump' }
  | { id: number; type: 'close' };
/** id 0 answers the start (ready or failed). */
export type ThreadReply = { id: number; ok: true; data?: Uint8Array } | { id: number; ok: false; error: string };

interface Pending {
  resolve(data: Uint8Array | undefined): void;
  reject(err: Error): void;
}

/** Starts the worker module (pglite-worker.ts) on its own thread. */
function startWorker(workerData: ThreadStart): Worker {
  return new Worker(new URL(threadModule(import.meta.url, './pglite-worker')), { workerData });
}

export class PgliteThread {
  /** Resolves when the database is open (initdb on first use can take seconds). */
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped: Error | undefined;

  constructor(dataDir: string | undefined, loadDataDir?: Uint8Array) {
    // Referenced only while a call is in flight (the start is one, id 0): an idle worker does
    // not keep the process alive, one that is answering does.
    this.worker = startWorker({ dataDir, loadDataDir });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.pending.set(0, { resolve: () => resolve(), reject });
    });
    this.worker.on('message', (reply: ThreadReply) => this.answer(reply));
    this.worker.on('error', (err) => this.stop(new Error(`the embedded database stopped: ${err.message}`)));
    this.worker.on('exit', (code) => this.stop(new Error(`the embedded database stopped (worker exit ${code})`)));
  }

  /** Wire-protocol batches sent to the worker and not answered yet (/metrics). */
  get pendingCalls(): number {
    return this.pending.size;
  }

  /** A new node-postgres connection: the stream it talks the wire protocol over. */
  connectionStream(): Duplex {
    return new PgliteStream(this);
  }

  /** Runs wire-protocol bytes and returns PGlite's reply bytes. */
  exec(message: Uint8Array): Promise<Uint8Array> {
    return this.call({ type: 'exec', message }) as Promise<Uint8Array>;
  }

  async reset(): Promise<void> {
    await this.call({ type: 'reset' });
  }

  /**
   * The data folder as a tarball. Only between transactions (the caller holds the one
   * connection): the worker answers requests in order, so nothing runs during the copy.
   */
  async dump(): Promise<Uint8Array> {
    return (await this.call({ type: 'dump' }))!;
  }

  /** CHECKPOINT, close the database and end the worker (after everything sent before). */
  async close(): Promise<void> {
    try {
      if (!this.stopped) await this.call({ type: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }

  private call(request: { type: 'exec'; message: Uint8Array } | { type: 'reset' } | { type: 'dump' } | { type: 'close' }): Promise<Uint8Array | undefined> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<Uint8Array | undefined>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } satisfies ThreadRequest);
    });
  }

  private answer(reply: ThreadReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.data);
    else waiting.reject(new Error(reply.error));
  }

  private stop(err: Error): void {
    this.stopped ??= err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}

/** Terminate ('X'): node-postgres's goodbye. Not forwarded: PGlite's one backend outlives connections. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

/**
 * The socket node-postgres writes to and reads from. Writes made in the same tick are sent to
 * the worker as one batch; replies are pushed in the order the batches were sent (the worker
 * answers in order).
 */
class PgliteStream extends Duplex {
  private batch: Buffer[] = [];
  private scheduled = false;

  constructor(private readonly thread: PgliteThread) {
    super();
  }

  /** node-postgres "connects": start a fresh session on the one backend, then say connected. */
  connect(): this {
    this.thread.reset().then(
      () => this.emit('connect'),
      (err: Error) => this.destroy(err),
    );
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!chunk.equals(TERMINATE)) {
      this.batch.push(chunk);
      if (!this.scheduled) {
        this.scheduled = true;
        process.nextTick(() => this.flush());
      }
    }
    done();
  }

  override _read(): void {
    // Replies are pushed as they arrive; nothing to pull.
  }

  override _final(done: (err?: Error | null) => void): void {
    this.push(null);
    done();
  }

  private flush(): void {
    this.scheduled = false;
    const message = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch);
    this.batch = [];
    this.thread.exec(message).then(
      (reply) => {
        if (reply.length > 0 && !this.destroyed) this.push(Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength));
      },
      (err: Error) => this.destroy(err),
    );
  }
}
