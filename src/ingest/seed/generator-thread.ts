// Where a seed's companies come from: a generator thread (generate-worker.ts) for a world of
// several batches, so generating overlaps with writing, or this thread for a small one (a
// thread costs a few hundred milliseconds to start: more than a one-batch world takes).
import { Worker } from 'node:worker_threads';
import { threadModule } from '../../threads.ts';
import { CompanyGenerator, type WorldOutline } from './generate.ts';
import { emptyCompanyBatch, encodeCompanyBatch, type EncodedCompanyBatch } from '../../store/seed.ts';

export interface GeneratorRequest {
  from: number;
  to: number;
}
export type GeneratorReply = { ok: true; batch: EncodedCompanyBatch } | { ok: false; error: string };

/** The world's companies in consecutive batches (the last one shorter). */
export interface CompanySource {
  /** The next batch, in order; undefined after the last. */
  next(): Promise<EncodedCompanyBatch | undefined>;
  close(): Promise<void>;
}

/**
 * Batches the generator thread has ready or in progress before they are asked for: it runs
 * ahead of the writes, and a few batches bound the memory (a batch of 250 companies is ≈ 5 MB
 * of COPY text).
 */
const BATCHES_AHEAD = 3;

export function companySource(outline: WorldOutline, batchSize: number): CompanySource {
  return outline.plan.companies > batchSize ? new ThreadSource(outline, batchSize) : new InlineSource(outline, batchSize);
}

/** Consecutive ranges [from, to) of `batchSize` companies covering the world. */
class Ranges {
  private from = 0;

  constructor(
    private readonly companies: number,
    private readonly batchSize: number,
  ) {}

  take(): GeneratorRequest | undefined {
    if (this.from >= this.companies) return undefined;
    const range = { from: this.from, to: Math.min(this.companies, this.from + this.batchSize) };
    this.from = range.to;
    return range;
  }
}

class InlineSource implements CompanySource {
  private readonly generator: CompanyGenerator;
  private readonly ranges: Ranges;

  constructor(outline: WorldOutline, batchSize: number) {
    this.generator = new CompanyGenerator(outline);
    this.ranges = new Ranges(outline.plan.companies, batchSize);
  }

  /** In slices of 100 companies that yield to the event loop, so the connection keeps feeding the database meanwhile. */
  async next(): Promise<EncodedCompanyBatch | undefined> {
    const range = this.ranges.take();
    if (!range) return undefined;
    const out = emptyCompanyBatch();
    for (let start = range.from; start < range.to; start += 100) {
      if (start > range.from) await new Promise((resolve) => setImmediate(resolve));
      this.generator.batch(start, Math.min(range.to, start + 100), out);
    }
    return encodeCompanyBatch(out);
  }

  async close(): Promise<void> {}
}

interface Awaited {
  resolve(batch: EncodedCompanyBatch): void;
  reject(err: Error): void;
}

class ThreadSource implements CompanySource {
  private readonly worker: Worker;
  private readonly ranges: Ranges;
  /** Requests the thread has not answered, oldest first (it answers in order). */
  private readonly unanswered: Awaited[] = [];
  /** Batches requested and not yet taken by next(), answered or not, in order. */
  private readonly ahead: Array<Promise<EncodedCompanyBatch>> = [];
  private failure: Error | undefined;

  constructor(outline: WorldOutline, batchSize: number) {
    this.ranges = new Ranges(outline.plan.companies, batchSize);
    // A young generation larger than V8's default: the generator's garbage is short-lived
    // (rendered pages, detections), and fewer scavenges cost less (2.1 s of its 16 s were GC).
    this.worker = new Worker(new URL(threadModule(import.meta.url, './generate-worker')), {
      workerData: outline.plan,
      resourceLimits: { maxYoungGenerationSizeMb: 96 },
    });
    this.worker.on('message', (reply: GeneratorReply) => {
      const request = this.unanswered.shift();
      if (reply.ok) request?.resolve(reply.batch);
      else this.fail(new Error(`the demo-world generator failed: ${reply.error}`), request);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the demo-world generator stopped (exit code ${code})`)));
    for (let k = 0; k < BATCHES_AHEAD; k++) this.request();
  }

  private request(): void {
    const range = this.ranges.take();
    if (!range || this.failure) return;
    const promise = new Promise<EncodedCompanyBatch>((resolve, reject) => this.unanswered.push({ resolve, reject }));
    promise.catch(() => {}); // surfaced by next()
    this.ahead.push(promise);
    this.worker.postMessage(range satisfies GeneratorRequest);
  }

  private fail(err: Error, first?: Awaited): void {
    this.failure ??= err;
    first?.reject(err);
    for (const request of this.unanswered.splice(0)) request.reject(err);
  }

  async next(): Promise<EncodedCompanyBatch | undefined> {
    const oldest = this.ahead.shift();
    if (!oldest) {
      if (this.failure) throw this.failure;
      return undefined;
    }
    const batch = await oldest;
    this.request();
    return batch;
  }

  async close(): Promise<void> {
    this.failure ??= new Error('the demo-world generator was closed');
    await this.worker.terminate();
  }
}
