// Readings from /proc: CPU time of processes and of the whole machine, load average, RSS.
// Linux only; on other systems every reading is null and the tables show "n/a".
import { readFileSync, existsSync } from 'node:fs';
import { clusterPids } from '../../scripts/lib/pg-cluster.ts';

const TICK_MS = 10; // USER_HZ is 100 on every Linux distribution we run on

/** utime + stime of one process, in ms; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** CPU of the children this process has waited for (cutime + cstime), in ms. */
export function waitedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

export { clusterPids } from '../../scripts/lib/pg-cluster.ts';

/** Summed CPU ms of a process tree snapshot, keyed by pid (so exits between readings are visible). */
export function cpuByPid(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

/** CPU ms used by a set of processes between two snapshots; a pid only in `after` counts from 0. */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** Busy CPU ms of the whole machine (all cores): everything but idle and iowait. */
export function machineBusyMs(): number | null {
  if (!existsSync('/proc/stat')) return null;
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest is already inside user)
  const busy = v[0]! + v[1]! + v[2]! + v[5]! + v[6]! + (v[7] ?? 0);
  return busy * TICK_MS;
}

export function loadAverage(): string | null {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return null;
  }
}

/** Resident set size of a process in MB. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function cores(): number {
  try {
    return (
      readFileSync('/proc/cpuinfo', 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('processor')).length || 1
    );
  } catch {
    return 1;
  }
}

/**
 * CPU ms of a PostgreSQL cluster: the postmaster, every live process it forked, and (through
 * the postmaster's cutime/cstime) every backend that has exited since, so connections that
 * come and go (pgbench) are counted too.
 */
export function clusterCpuMs(postmasterPid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${postmasterPid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let sum = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
  for (const pid of clusterPids(postmasterPid)) if (pid !== postmasterPid) sum += processCpuMs(pid) ?? 0;
  return sum;
}
