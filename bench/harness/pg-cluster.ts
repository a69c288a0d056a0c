// A private PostgreSQL cluster for the benchmark: its own data folder and port, with
// pg_stat_statements loaded and a log the SQL capture can read. Never the machine's
// shared service: the harness reads its processes' CPU and switches statement logging
// on and off, which would disturb anyone else's database.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, chownSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import pg from 'pg';

export interface Cluster {
  dir: string;
  port: number;
  logFile: string;
  /** true when this run started it (and so stops it at the end unless --keep). */
  startedHere: boolean;
  postmasterPid(): number | null;
  url(database: string): string;
  stop(): void;
}

function pgBin(name: string): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(`${base}/${v}/bin/${name}`)) return `${base}/${v}/bin/${name}`;
  }
  return name; // hope it is on PATH
}

// initdb and postgres refuse to run as root: run them as the postgres user then.
function run(bin: string, args: string[]): string {
  const asRoot = userInfo().uid === 0;
  if (!asRoot) return execFileSync(bin, args, { encoding: 'utf8' });
  const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return execFileSync('su', ['postgres', '-c', quoted], { encoding: 'utf8' });
}

export function startCluster(opts: { dir: string; port: number; logFile: string }): Cluster {
  const { dir, port, logFile } = opts;
  const asRoot = userInfo().uid === 0;
  if (!existsSync(`${dir}/PG_VERSION`)) {
    mkdirSync(dir, { recursive: true });
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    console.log(`initdb ${dir}`);
    run(pgBin('initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust']);
  }
  const postmasterPid = () => {
    try {
      return Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };
  let startedHere = false;
  let running = false;
  try {
    run(pgBin('pg_ctl'), ['-D', dir, 'status']);
    running = true;
  } catch {
    running = false;
  }
  if (!running) {
    const options = [
      `-p ${port}`,
      `-k ${tmpdir()}`,
      '-c shared_preload_libraries=pg_stat_statements',
      '-c shared_buffers=512MB',
      "-c log_line_prefix='%m [%p] '",
    ].join(' ');
    console.log(`starting private PostgreSQL on port ${port} (${dir}, log ${logFile})`);
    run(pgBin('pg_ctl'), ['-D', dir, '-o', options, '-l', logFile, '-w', 'start']);
    startedHere = true;
  }
  return {
    dir,
    port,
    logFile,
    startedHere,
    postmasterPid,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => {
      console.log('stopping the private PostgreSQL');
      run(pgBin('pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
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

export { pgBin };
