// The generator thread of a demo-world seed: builds the world's outline from the plan it is
// started with and answers each request for a range of companies with their rows. The seed's
// own thread meanwhile writes the previous batch, so generating and writing overlap on two
// cores (they took turns on one thread before: half the first start's time).
import { parentPort, workerData } from 'node:worker_threads';
import { CompanyGenerator, WorldOutline, type WorldPlan } from './generate.ts';
import type { GeneratorReply, GeneratorRequest } from './generator-thread.ts';
import { encodeCompanyBatch } from '../../store/seed.ts';

const port = parentPort!;
let generator: CompanyGenerator | undefined;

port.on('message', ({ from, to }: GeneratorRequest) => {
  let reply: GeneratorReply;
  try {
    generator ??= new CompanyGenerator(new WorldOutline(workerData as WorldPlan));
    reply = { ok: true, batch: encodeCompanyBatch(generator.batch(from, to)) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port.postMessage(reply);
});
