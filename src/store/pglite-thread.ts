// Embedded PGlite on a worker thread. PGlite is PostgreSQL compiled to WebAssembly and runs
// each statement synchronously on the thread that owns it: on the main thread every HTTP
// request, /healthz included, queued behind the slowest query (bench: healthz p99 140-410 ms
// with 50 clients loading the API). Here the worker (pglite-worker.ts) owns the database and
// this side is what PGlite's node-postgres adapter talks to: an object with `waitReady` and
// `execProtocolStream`, which sends the wire-protocol bytes to the worker and parses the
// reply bytes into backend messages. Because the boundary is the wire protocol, everything
// node-postgres does works unchanged: prepared statements, COPY FROM STDIN, SQLSTATE codes,
// transactions.
import { Worker } from 'node:worker_threads';
import { protocol } from '@electric-sql/pglite';

/** What the worker is started with. */
export interface ThreadStart {
  /** PGlite data folder; undefined → in memory. */
  dataDir: string | undefined;
}

export type ThreadRequest = { id: number; type: 'exec'; message: Uint8Array } | { id: number; type: 'close' };
/** id 0 answers the start (ready or failed). */
export type ThreadReply = { id: number; ok: true; data?: Uint8Array } | { id: number; ok: false; error: string };

type BackendMessage = Parameters<Parameters<protocol.Parser['parse']>[1]>[0];

interface Pending {
  resolve(data: Uint8Array | undefined): void;
  reject(err: Error): void;
}

const fromSource = import.meta.url.endsWith('.ts');
/** The worker's module next to this one: .ts when running from source (tsx), .js when built. */
const workerUrl = new URL(`./pglite-worker${fromSource ? '.ts' : '.js'}`, import.meta.url);

/**
 * Starts the worker module. From source, a worker does not inherit tsx's loader on Node 20
 * ("Unknown file extension .ts"), so a two-line bootstrap registers tsx in the worker first.
 */
function startWorker(workerData: ThreadStart): Worker {
  if (!fromSource) return new Worker(workerUrl, { workerData });
  const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

export class PgliteThread {
  /** Resolves when the database is open (initdb on first use can take seconds); node-postgres waits for it. */
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly parser = new protocol.Parser();
  private nextId = 1;
  private stopped: Error | undefined;

  constructor(dataDir: string | undefined) {
    // Referenced only while a call is in flight (the start is one, id 0): an idle worker does
    // not keep the process alive, one that is answering does.
    this.worker = startWorker({ dataDir });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.pending.set(0, { resolve: () => resolve(), reject });
    });
    this.worker.on('message', (reply: ThreadReply) => this.answer(reply));
    this.worker.on('error', (err) => this.stop(new Error(`the embedded database stopped: ${err.message}`)));
    this.worker.on('exit', (code) => this.stop(new Error(`the embedded database stopped (worker exit ${code})`)));
  }

  /** PGlite's own interface, as the node-postgres adapter calls it. */
  async execProtocolStream(message: Uint8Array, _options?: unknown): Promise<BackendMessage[]> {
    const data = await this.call({ type: 'exec', message });
    const messages: BackendMessage[] = [];
    if (data) this.parser.parse(data, (m) => messages.push(m));
    return messages;
  }

  /** CHECKPOINT, close the database and end the worker (after everything sent before). */
  async close(): Promise<void> {
    try {
      if (!this.stopped) await this.call({ type: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }

  private call(request: { type: 'exec'; message: Uint8Array } | { type: 'close' }): Promise<Uint8Array | undefined> {
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
    this.settled();
    if (reply.ok) waiting.resolve(reply.data);
    else waiting.reject(new Error(reply.error));
  }

  private settled(): void {
    if (this.pending.size === 0) this.worker.unref();
  }

  private stop(err: Error): void {
    this.stopped ??= err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}
