// The embedded database's data folder is private to the account that runs Stacklens: the
// folder itself 0700, which is what keeps other local users out (nothing under it can be
// reached without passing through it), and nothing in the database's tree open to group or
// others (files 0600, folders 0700). PGlite unpacks its initial cluster with mode 0666 files
// and 0755 folders whatever the umask; PostgreSQL's own later files are 0600. A folder made by
// an older version (0755) is tightened the same way at start.
import fs from 'node:fs';
import path from 'node:path';

const OPEN_TO_OTHERS = 0o077;

/** Creates `dir` (and missing parents) as 0700, or makes an existing one 0700. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700); // mkdir's mode applies only to a folder it creates
}

/**
 * Takes the group and other bits off `dir` and every file and folder under it (not following
 * symbolic links: chmod would change their targets). Entries that vanish meanwhile are
 * skipped. Returns how many entries it changed.
 */
export function restrictTree(dir: string): number {
  let changed = 0;
  const pending = [dir];
  while (pending.length) {
    const entry = pending.pop()!;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
      if (stat.isSymbolicLink()) continue;
      if (stat.mode & OPEN_TO_OTHERS) {
        fs.chmodSync(entry, stat.mode & 0o7700);
        changed++;
      }
      if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) pending.push(path.join(entry, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return changed;
}
