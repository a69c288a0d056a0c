// A detection worker thread, and only that (detect-pool.ts starts it; never import it elsewhere:
// it lowers the priority of the thread that loads it): compiles the built-in catalog once, then
// runs one site's detection per task. It holds nothing else, so terminating it mid-match loses nothing.
import { setPriority } from 'node:os';
import { builtInCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import type { Detection } from '../detect/types.ts';
import type { DetectTask } from './detect-pool.ts';

/** Nice value of a detection thread: well below the event loop's 0, above the idle class. */
const WORKER_NICE = 10;

// Detection is background work next to the requests the main thread serves: on Linux the nice
// value is per thread, so this thread yields the cores to the event loop (a probe waits for no
// detection) and takes whatever is left. Where the platform refuses, it runs at normal priority.
try {
  setPriority(0, WORKER_NICE);
} catch {
  // not permitted or not supported here
}

// Compiled when the thread starts, so a thread started to replace a terminated one is ready
// before the next call comes.
const catalog = builtInCatalog();

export default function runDetection(task: DetectTask): Detection[] {
  return detect(task.site, catalog, { minConfidence: task.minConfidence });
}
