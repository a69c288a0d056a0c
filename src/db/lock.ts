// Exclusive lock on the PGlite data folder: two processes opening one PGlite folder
// corrupt it, so the second one must fail fast with a clear message instead.
import fs from 'node:fs';
import path from 'node:path';

export interface DirLock {
  release(): void;
}

export class DataDirLockedError extends Error {}

export function acquireDirLock(dir: string): DirLock {
  const file = path.join(dir, 'stacklens.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The data folder ${path.resolve(dir)} is in use by process ${holder}. ` + 'Stop that process (or set DATA_DIR to another folder) and try again.',
        );
      }
      // Stale lock from a process that died (or our own from an unclean exit): take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${path.resolve(dir)}`);
}

/** The live process holding the data folder's lock, if any. */
export function lockHolder(dir: string): number | undefined {
  let holder: number;
  try {
    holder = Number(fs.readFileSync(path.join(dir, 'stacklens.lock'), 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder) ? holder : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
