// The load generator, always in a process of its own: wrk when installed (C, one thread per
// core, leaves the server most of a core), else autocannon in a separate Node process.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  /** JSON body; the text `__ID__` is replaced by a number unique to each request (JSON-RPC ids). */
  body?: string;
}

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
}

export function loadTool(): 'wrk' | 'autocannon' {
  if (process.env.BENCH_LOAD_TOOL === 'autocannon') return 'autocannon';
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (err) {
    // wrk --version exits 1 after printing its version: it is there.
    if ((err as { status?: number }).status === 1) return 'wrk';
    return 'autocannon';
  }
}

// Lua (wrk) string literal: bytes as-is except quote, backslash and control characters.
function lua(s: string): string {
  return '"' + s.replace(/[\\"\x00-\x1f]/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`) + '"';
}

function wrkScript(requests: RequestSpec[], headers: Record<string, string>): string {
  const hdr = (json: boolean) =>
    '{' +
    Object.entries({ ...headers, ...(json ? { 'Content-Type': 'application/json' } : {}) })
      .map(([k, v]) => `[${lua(k)}]=${lua(v)}`)
      .join(',') +
    '}';
  return `
local reqs = {
${requests.map((r) => `  {${lua(r.method)}, ${lua(r.path)}, ${r.body === undefined ? 'nil' : lua(r.body)}},`).join('\n')}
}
local plain = ${hdr(false)}
local json = ${hdr(true)}
local n = #reqs
local counter = 0
local threadId = 0
local threads = {}
local nextThread = 0
function setup(thread)
  nextThread = nextThread + 1
  thread:set("threadId", nextThread)
end
function init(args)
  math.randomseed(threadId * 7919 + os.time())
end
function request()
  local r = reqs[math.random(n)]
  if r[3] == nil then
    return wrk.format(r[1], r[2], plain, nil)
  end
  counter = counter + 1
  local body = string.gsub(r[3], "__ID__", tostring(threadId * 100000000 + counter))
  return wrk.format(r[1], r[2], json, body)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nBENCH_JSON {"requests":%d,"duration_us":%d,"non2xx":%d,"errors":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`;
}

export function runLoad(opts: {
  tool: 'wrk' | 'autocannon';
  url: string;
  requests: RequestSpec[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  scriptFile: string;
}): Promise<LoadResult> {
  if (opts.tool === 'wrk') {
    writeFileSync(opts.scriptFile, wrkScript(opts.requests, opts.headers));
    const threads = Math.min(2, opts.connections);
    const args = ['-t', String(threads), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--timeout', '10s', '-s', opts.scriptFile, opts.url];
    return new Promise((resolve, reject) => {
      execFile('wrk', args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const m = /BENCH_JSON (\{.*\})/.exec(stdout);
        if (!m) return reject(new Error(`wrk failed: ${err ?? ''} ${stderr} ${stdout}`));
        const j = JSON.parse(m[1]!) as {
          requests: number;
          duration_us: number;
          non2xx: number;
          errors: number;
          p50_us: number;
          p99_us: number;
          max_us: number;
        };
        const seconds = j.duration_us / 1e6;
        resolve({
          tool: 'wrk',
          requests: j.requests,
          seconds,
          rps: j.requests / seconds,
          p50Ms: j.p50_us / 1000,
          p99Ms: j.p99_us / 1000,
          maxMs: j.max_us / 1000,
          non2xx: j.non2xx,
          errors: j.errors,
        });
      });
    });
  }
  writeFileSync(opts.scriptFile, JSON.stringify(opts));
  const worker = fileURLToPath(new URL('./autocannon-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', worker, opts.scriptFile], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const m = /BENCH_JSON (\{.*\})/.exec(stdout);
      if (!m) return reject(new Error(`autocannon failed: ${err ?? ''} ${stderr}`));
      resolve(JSON.parse(m[1]!) as LoadResult);
    });
  });
}
