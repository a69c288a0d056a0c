// First start as a new user meets it: clone the repository into a temporary folder, link its
// node_modules (an install is not what is measured), run `npm start` on a fresh data folder
// and time until /readyz answers 200; the server's own lines (world generated, cohorts) are
// timed too. Prints the load average before and after each run: the figure is only
// comparable with one measured under a similar load.
//   node --import tsx bench/first-start.ts                      (one run, HEAD of this checkout)
//   node --import tsx bench/first-start.ts --runs 3 --ref main  (another commit)
//   node --import tsx bench/first-start.ts --cpu-prof /tmp/prof (V8 profiles of every thread;
//                                                              node --cpu-prof instead of npm)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    ref: { type: 'string', default: 'HEAD' },
    port: { type: 'string', default: '18480' },
    'cpu-prof': { type: 'string' },
    'timeout-s': { type: 'string', default: '300' },
    // What `npm start` runs, started directly (no npm, no tsx CLI process): the difference is their cost.
    direct: { type: 'boolean', default: false },
    // SEED_DEMO=false: the start without the demo world (migrations, app), for comparison.
    'no-demo': { type: 'boolean', default: false },
  },
});
const root = path.resolve(import.meta.dirname, '..');
const commit = execFileSync('git', ['-C', root, 'rev-parse', values.ref!], { encoding: 'utf8' }).trim();
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** One GET on a connection of its own (no keep-alive: an idle pooled socket would hold up the server's drain). */
function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/**
 * CPU seconds (user + system, all threads) the processes of a process group have used so far,
 * from /proc: on a shared 2-core machine the wall time swings with neighbours and with how
 * many threads compete; the CPU the start costs swings much less.
 */
function groupCpuSeconds(pgid: number): number {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
      if (Number(fields[2]) !== pgid) continue; // 5th field: process group
      total += (Number(fields[11]) + Number(fields[12])) / ticks; // 14th, 15th: utime, stime
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

interface Run {
  readyMs: number;
  cpuSeconds: number;
  lines: Array<{ atMs: number; line: string }>;
  loadBefore: string;
  loadAfter: string;
}

async function oneRun(n: number): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-first-start-'));
  try {
    execFileSync('git', ['clone', '--quiet', '--shared', '--no-checkout', root, dir]);
    execFileSync('git', ['-C', dir, 'checkout', '--quiet', commit]);
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
    const env: Record<string, string | undefined> = { ...process.env, PORT: values.port, HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data') };
    for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'SEED_DEMO', 'DEMO_COMPANIES', 'DEMO_SEED', 'NODE_ENV']) delete env[name];
    if (values['no-demo']) env.SEED_DEMO = 'false';
    // Node refuses --cpu-prof in NODE_OPTIONS: a profiled run starts what `npm start` runs
    // (tsx src/main.ts serve) as node --cpu-prof --import tsx.
    const command: [string, string[]] = values['cpu-prof']
      ? [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], `run-${n}`)}`, '--import', 'tsx', 'src/main.ts', 'serve']]
      : values.direct
        ? [process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve']]
        : ['npm', ['start']];
    const loadBefore = loadavg();
    const started = performance.now();
    const child = spawn(command[0], command[1], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Run['lines'] = [];
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push({ atMs: performance.now() - started, line: line.trim().slice(0, 160) });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const deadline = started + Number(values['timeout-s']) * 1000;
    let readyMs = -1;
    let cpuSeconds = 0;
    while (performance.now() < deadline && child.exitCode === null) {
      const status = await probe(`http://127.0.0.1:${values.port}/readyz`);
      if (status === 200) {
        readyMs = performance.now() - started;
        cpuSeconds = groupCpuSeconds(child.pid!);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const loadAfter = loadavg();
    // SIGTERM to the whole group (npm, tsx, node): the server drains and checkpoints, and
    // --cpu-prof writes its profiles on that exit.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    if (readyMs < 0) throw new Error(`/readyz never answered 200 within ${values['timeout-s']} s:\n${output.slice(-3000)}`);
    return { readyMs, cpuSeconds, lines, loadBefore, loadAfter };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const how = values['cpu-prof'] ? 'node --cpu-prof --import tsx src/main.ts serve' : values.direct ? 'node --import tsx src/main.ts serve' : 'npm start';
console.log(
  `First start to /readyz: fresh clone of ${commit.slice(0, 10)} (${values.ref}), ${how}, embedded database, ${values['no-demo'] ? 'SEED_DEMO=false' : 'default demo world'}; ${os.cpus().length} cores`,
);
const results: number[] = [];
const cpu: number[] = [];
for (let n = 1; n <= Number(values.runs); n++) {
  const run = await oneRun(n);
  results.push(run.readyMs);
  cpu.push(run.cpuSeconds);
  console.log(
    `run ${n}: /readyz 200 after ${(run.readyMs / 1000).toFixed(1)} s, ${run.cpuSeconds.toFixed(1)} CPU-s   (load average before ${run.loadBefore}, after ${run.loadAfter})`,
  );
  for (const l of run.lines.filter((x) => /First start|Demo world|listening|Database:/.test(x.line)))
    console.log(`  ${(l.atMs / 1000).toFixed(1).padStart(6)} s  ${l.line}`);
}
const sorted = [...results].sort((a, b) => a - b);
const cpuSorted = [...cpu].sort((a, b) => a - b);
if (results.length > 1) {
  console.log(
    `median ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(1)} s, min ${(sorted[0]! / 1000).toFixed(1)} s, max ${(sorted.at(-1)! / 1000).toFixed(1)} s; CPU median ${cpuSorted[Math.floor(cpuSorted.length / 2)]!.toFixed(1)} s`,
  );
}
if (values['cpu-prof']) console.log(`CPU profiles in ${path.resolve(values['cpu-prof'])}/run-*/ (one per process and thread)`);
