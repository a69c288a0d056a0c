// Builds a Population (intelligence/features.ts) on a worker thread: the lookalikes of a request
// need the whole population, and building it is seconds of CPU at 50,000 companies, which on the
// event loop would hold every other request, /healthz included. One thread, started on first
// use and ended when idle; the rows go to it and the Population comes back by structured clone.
import { Tinypool } from 'tinypool';
import { threadModule } from '../threads.ts';
import type { buildPopulation, Population } from '../intelligence/features.ts';

/** The rows a Population is built from (plain data, copied to the thread). */
export interface PopulationTask {
  companies: Parameters<typeof buildPopulation>[0];
  products: Parameters<typeof buildPopulation>[1];
}

const WORKER_MODULE = threadModule(import.meta.url, './population-worker');
/** The thread ends after this long without work (a population is built once per refresh). */
const IDLE_MS = 30_000;

let pool: Tinypool | undefined;

export function buildPopulationOffThread(task: PopulationTask): Promise<Population> {
  pool ??= new Tinypool({ filename: WORKER_MODULE, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
  return pool.run(task) as Promise<Population>;
}
