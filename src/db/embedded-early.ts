// The embedded database started before the server's modules load. `npm start` spends its first
// two seconds loading (and transpiling) modules on the main thread while a new data folder's
// database waits to be created (initdb in WebAssembly, about two seconds); started here, the two
// run side by side. openDb takes the started database over (db.ts), or starts one as usual.
import path from 'node:path';
import { PgliteThread } from './pglite-thread.ts';
import { acquireDirLock, type DirLock } from './lock.ts';
import { makePrivateDir } from './data-dir.ts';

interface EarlyStart {
  dataDir: string;
  lock: DirLock;
  thread: PgliteThread;
}

let early: EarlyStart | undefined;

/** Locks `dataDir` and starts its database; a failure is left for the regular open to report. */
export function startEmbeddedEarly(dataDir: string): void {
  let lock: DirLock | undefined;
  try {
    makePrivateDir(dataDir);
    lock = acquireDirLock(dataDir);
    const thread = new PgliteThread(path.join(dataDir, 'pglite'));
    thread.waitReady.catch(() => {}); // the regular open awaits it and reports the failure
    early = { dataDir: path.resolve(dataDir), lock, thread };
  } catch {
    lock?.release();
  }
}

/** The database started early for `dataDir`, handed over once. */
export function takeEmbeddedEarly(dataDir: string): EarlyStart | undefined {
  if (!early || early.dataDir !== path.resolve(dataDir)) return undefined;
  const taken = early;
  early = undefined;
  return taken;
}
