// A detection worker thread, and only that (detect-pool.ts starts it; never import it elsewhere:
// it lowers the priority of the thread that loads it): compiles the built-in catalog once (and
// an operator's rule file once, when a task names one), then runs one site's detection per task. It holds nothing else, so terminating it mid-match loses nothing.
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { builtInCatalog, loadCatalog, type CompiledCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import type { Detection } from '../detect/types.ts';
import type { DetectTask, DetectWorkerData } from './detect-pool.ts';

/** Nice value of a detection thread: well below the event loop's 0, above the idle class. */
const WORKER_NICE = 10;

// Detection is background work next to the requests the main thread serves: on Linux the nice
// value is per thread, so this thread yields the cores to the event loop (a probe waits for no
// detection) and takes whatever is left. Where the platform refuses, it runs at normal priority.
// tinypool hands the pool's workerData on as the second element of its own.
const { background } = ((workerData as unknown[] | undefined)?.[1] ?? { background: true }) as DetectWorkerData;
if (background) {
  try {
    setPriority(0, WORKER_NICE);
  } catch {
    // not permitted or not supported here
  }
}

// Compiled when the thread starts, so a thread started to replace a terminated one is ready
// before the next call comes.
const catalog = builtInCatalog();
/** Catalogs with an operator's rules, by rule file and mode (one CLI run names one). */
const withRules = new Map<string, CompiledCatalog>();

function catalogOf(rules: DetectTask['rules']): CompiledCatalog {
  if (!rules) return catalog;
  const key = `${rules.replace ? 'only' : 'and'}:${rules.rulesFile}`;
  let compiled = withRules.get(key);
  if (!compiled) withRules.set(key, (compiled = loadCatalog({ rulesFile: rules.rulesFile, replace: rules.replace })));
  return compiled;
}

export default function runDetection(task: DetectTask): Detection[] {
  return detect(task.site, catalogOf(task.rules), { minConfidence: task.minConfidence });
}
