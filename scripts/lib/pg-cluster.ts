// A private PostgreSQL cluster: its own data folder and port, started with pg_ctl (initdb on
// first use). Shared by the benchmark harness (bench/harness) and the fault tests and
// script (test/faults, bench/faults), which stop, freeze (SIGSTOP) and thaw it. Never the
// machine's shared service. initdb and postgres refuse to run as root: as root they run
// as the `postgres` user.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import pg from 'pg';

export interface Cluster {
  dir: string;
  port: number;
  logFile: string;
  /** true when this call started it (a running cluster on the folder is reused). */
  startedHere: boolean;
  postmasterPid(): number | null;
  url(database: string): string;
  /** pg_ctl start with the same settings (after stop()). */
  start(): void;
  /** pg_ctl stop -m fast: clients see refused connections. */
  stop(): void;
  /** SIGSTOP to the postmaster and every backend: the server accepts TCP but never answers. */
  freeze(): void;
  /** SIGCONT to the processes freeze() stopped. */
  thaw(): void;
}

/** The newest installed PostgreSQL's binary of that name (Debian layout), else from PATH. */
export function pgBin(name: string): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(`${base}/${v}/bin/${name}`)) return `${base}/${v}/bin/${name}`;
  }
  return name;
}

/** Whether initdb can be run here (a private cluster is possible). */
export function canInitdb(): boolean {
  try {
    execFileSync(pgBin('initdb'), ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs a PostgreSQL binary (as the `postgres` user when this process is root). */
export function runPg(bin: string, args: string[]): string {
  if (userInfo().uid !== 0) return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return execFileSync('su', ['postgres', '-c', quoted], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The postmaster and every process it forked (backends, checkpointer, walwriter…). Linux (/proc). */
export function clusterPids(postmasterPid: number): number[] {
  const pids = [postmasterPid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (parentOf(pid) === postmasterPid) pids.push(pid);
  }
  return pids;
}

export interface ClusterOptions {
  dir: string;
  port: number;
  logFile: string;
  /** Server settings (`-c name=value`), e.g. { shared_buffers: '512MB' }. */
  settings?: Record<string, string>;
  /** Progress lines; default console.log. */
  log?: (line: string) => void;
}

export function startCluster(opts: ClusterOptions): Cluster {
  const { dir, port, logFile } = opts;
  const log = opts.log ?? ((line: string) => console.log(line));
  if (!existsSync(`${dir}/PG_VERSION`)) {
    mkdirSync(dir, { recursive: true });
    if (userInfo().uid === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    log(`initdb ${dir}`);
    runPg(pgBin('initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  }
  const postmasterPid = () => {
    try {
      return Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };
  const options = [
    `-p ${port}`,
    `-k ${tmpdir()}`,
    "-c log_line_prefix='%m [%p] '",
    ...Object.entries(opts.settings ?? {}).map(([k, v]) => `-c ${k}=${v}`),
  ].join(' ');
  const start = () => {
    log(`starting private PostgreSQL on port ${port} (${dir}, log ${logFile})`);
    runPg(pgBin('pg_ctl'), ['-D', dir, '-o', options, '-l', logFile, '-w', 'start']);
  };
  let running: boolean;
  try {
    runPg(pgBin('pg_ctl'), ['-D', dir, 'status']);
    running = true;
  } catch {
    running = false;
  }
  if (!running) start();
  let frozen: number[] = [];
  const signalAll = (pids: number[], signal: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        /* exited meanwhile */
      }
    }
  };
  return {
    dir,
    port,
    logFile,
    startedHere: !running,
    postmasterPid,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop: () => {
      if (frozen.length) signalAll(frozen, 'SIGCONT');
      frozen = [];
      log('stopping the private PostgreSQL');
      runPg(pgBin('pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
    },
    freeze: () => {
      const pid = postmasterPid();
      if (!pid) throw new Error('the private PostgreSQL is not running');
      frozen = clusterPids(pid);
      signalAll(frozen, 'SIGSTOP');
    },
    thaw: () => {
      signalAll(frozen, 'SIGCONT');
      frozen = [];
    },
  };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
}
