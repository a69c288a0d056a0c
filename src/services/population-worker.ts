// A population-building worker thread, and only that (population-pool.ts starts it): builds the
// Population of cohorts and lookalikes from plain rows, off the event loop (seconds of CPU at
// 50,000 companies), and hands it back as structured-cloneable data (maps and typed arrays).
import { buildPopulation, type Population } from '../intelligence/features.ts';
import type { PopulationTask } from './population-pool.ts';

export default function runBuild(task: PopulationTask): Population {
  return buildPopulation(task.companies, task.products);
}
