// Where a seed's companies come from: a generator thread (generate-worker.ts) for a world of
// several batches, so generating overlaps with writing, or this thread for a small one (a
// thread costs a few hundred milliseconds to start: more than a one-batch world takes).
import { Worker } from 'node:worker_threads';
import { threadModule } from '../../threads.ts';
import { CompanyGenerator, type GeneratedBatch, type WorldOutline } from './generate.ts';

export interface GeneratorRequest {
  from: number;
  to: number;
}
export type GeneratorReply = { ok: true; batch: GeneratedBatch } | { ok: false; error: string };

export interface CompanySource {
  /** The companies [from, to), asked for in order; at most one request outstanding. */
  batch(from: number, to: number): Promise<GeneratedBatch>;
  close(): Promise<void>;
}

export function companySource(outline: WorldOutline, useThread: boolean): CompanySource {
  return useThread ? new ThreadSource(outline) : new InlineSource(outline);
}

class InlineSource implements CompanySource {
  private readonly generator: CompanyGenerator;

  constructor(outline: WorldOutline) {
    this.generator = new CompanyGenerator(outline);
  }

  /** In slices of 100 companies that yield to the event loop, so the connection keeps feeding the database meanwhile. */
  async batch(from: number, to: number): Promise<GeneratedBatch> {
    const out = this.generator.batch(from, Math.min(to, from + 100));
    for (let start = from + 100; start < to; start += 100) {
      await new Promise((resolve) => setImmediate(resolve));
      const part = this.generator.batch(start, Math.min(to, start + 100));
      appendColumns(out.rows, part.rows);
      for (const row of part.observations) out.observations.push(row);
    }
    return out;
  }

  async close(): Promise<void> {}
}

class ThreadSource implements CompanySource {
  private readonly worker: Worker;
  private waiting: { resolve(batch: GeneratedBatch): void; reject(err: Error): void } | undefined;
  private failure: Error | undefined;

  constructor(outline: WorldOutline) {
    // A young generation larger than V8's default: the generator's garbage is short-lived
    // (rendered pages, detections), and fewer scavenges cost less (2.1 s of its 16 s were GC).
    this.worker = new Worker(new URL(threadModule(import.meta.url, './generate-worker')), {
      workerData: outline.plan,
      resourceLimits: { maxYoungGenerationSizeMb: 96 },
    });
    this.worker.on('message', (reply: GeneratorReply) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (reply.ok) waiting?.resolve(reply.batch);
      else waiting?.reject(new Error(`the demo-world generator failed: ${reply.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the demo-world generator stopped (exit code ${code})`)));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.waiting?.reject(err);
    this.waiting = undefined;
  }

  batch(from: number, to: number): Promise<GeneratedBatch> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('one batch at a time'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.worker.postMessage({ from, to } satisfies GeneratorRequest);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('the demo-world generator was closed');
    await this.worker.terminate();
  }
}

function appendColumns(into: Record<string, Record<string, unknown[]>>, from: Record<string, Record<string, unknown[]>>): void {
  for (const [table, columns] of Object.entries(from)) {
    for (const [name, values] of Object.entries(columns)) {
      const target = into[table]![name]!;
      for (const v of values) target.push(v);
    }
  }
}
