// Captures the exact SQL one HTTP request sends (statements and parameter values) from the
// private cluster's log, and replays it with pgbench as prepared statements: the database
// ceiling of that request.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import pg from 'pg';

export interface CapturedStatement {
  sql: string;
  /** $1…$n in order; null for SQL NULL. */
  params: (string | null)[];
}

const ENTRY = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (\w+):  (.*)$/;

/** Statements logged (log_statement=all) in `text`, in order, except those of `excludePid`. */
export function parseStatementLog(text: string, excludePid: number): CapturedStatement[] {
  interface Entry {
    pid: number;
    level: string;
    body: string;
  }
  const entries: Entry[] = [];
  for (const line of text.split('\n')) {
    const m = ENTRY.exec(line);
    if (m) entries.push({ pid: Number(m[1]), level: m[2]!, body: m[3]! });
    else if (entries.length > 0) entries[entries.length - 1]!.body += '\n' + line;
  }
  const out: CapturedStatement[] = [];
  const lastByPid = new Map<number, CapturedStatement>();
  for (const e of entries) {
    if (e.pid === excludePid) continue;
    if (e.level === 'LOG') {
      const m = /^(?:execute [^:]+|statement): ([\s\S]*)$/.exec(e.body);
      if (!m) continue;
      const stmt = { sql: m[1]!.trim(), params: [] };
      out.push(stmt);
      lastByPid.set(e.pid, stmt);
    } else if (e.level === 'DETAIL' && e.body.startsWith('parameters:')) {
      const stmt = lastByPid.get(e.pid);
      if (!stmt) continue;
      const re = /\$(\d+) = (NULL|'((?:[^']|'')*)')/g;
      for (let m = re.exec(e.body); m; m = re.exec(e.body)) {
        stmt.params[Number(m[1]) - 1] = m[2] === 'NULL' ? null : m[3]!.replace(/''/g, "'");
      }
    }
  }
  return out;
}

/** Runs `request` once with statement logging on and returns what it sent to the database. */
export async function captureSql(dbUrl: string, logFile: string, request: () => Promise<void>): Promise<CapturedStatement[]> {
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const myPid = rows[0]!.pid;
    let from: number;
    let to: number;
    await admin.query("ALTER SYSTEM SET log_statement = 'all'");
    try {
      await admin.query('SELECT pg_reload_conf()');
      // Backends apply a reload before running their next command; give the signal a moment.
      await new Promise((r) => setTimeout(r, 300));
      from = statSync(logFile).size;
      await request();
      await new Promise((r) => setTimeout(r, 300));
      to = statSync(logFile).size;
    } finally {
      await admin.query('ALTER SYSTEM RESET log_statement');
      await admin.query('SELECT pg_reload_conf()');
    }
    const text = readFileSync(logFile).subarray(from, to).toString('utf8');
    return parseStatementLog(text, myPid);
  } finally {
    await admin.end();
  }
}

// pgbench reads every `:name` as a variable, even inside string literals ('HH24:MI'); spell
// the colon of a literal as chr(58), which the planner folds back into the same constant.
function hideLiteralColons(sql: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'") {
      if (inString && sql[i + 1] === "'") {
        out += "''";
        i++;
        continue;
      }
      inString = !inString;
      out += c;
    } else if (c === ':' && inString) {
      out += "' || chr(58) || '";
    } else {
      out += c;
    }
  }
  return out;
}

/** A pgbench script and its -D variables: parameters stay parameters (:name), NULLs are inlined. */
export function pgbenchScript(statements: CapturedStatement[]): { script: string; defines: string[] } {
  const defines: string[] = [];
  const lines = statements.map((s, i) => {
    let sql = hideLiteralColons(s.sql.replace(/\s+/g, ' ').replace(/;\s*$/, ''));
    sql = sql.replace(/\$(\d+)\b/g, (_, n: string) => {
      const v = s.params[Number(n) - 1];
      if (v === null || v === undefined) return 'NULL';
      const name = `s${i}p${n}`;
      defines.push(`${name}=${v}`);
      return `:${name}`;
    });
    return sql + ';';
  });
  return { script: lines.join('\n') + '\n', defines };
}

export interface PgbenchResult {
  tps: number | null;
  failed: number | null;
  latencyMs: number | null;
  error?: string;
}

export function runPgbench(opts: {
  bin: string;
  host: string;
  port: number;
  user: string;
  database: string;
  scriptFile: string;
  script: string;
  defines: string[];
  clients: number;
  threads: number;
  seconds: number;
}): Promise<PgbenchResult> {
  writeFileSync(opts.scriptFile, opts.script);
  const args = [
    '-n',
    '-M',
    'prepared',
    '-c',
    String(opts.clients),
    '-j',
    String(opts.threads),
    '-T',
    String(opts.seconds),
    '-f',
    opts.scriptFile,
    '-h',
    opts.host,
    '-p',
    String(opts.port),
    '-U',
    opts.user,
  ];
  for (const d of opts.defines) args.push('-D', d);
  args.push(opts.database);
  return new Promise((resolve) => {
    execFile(opts.bin, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const tps = /tps = ([\d.]+)/.exec(stdout);
      const failed = /number of failed transactions: (\d+)/.exec(stdout);
      const lat = /latency average = ([\d.]+) ms/.exec(stdout);
      resolve({
        tps: tps ? Number(tps[1]) : null,
        failed: failed ? Number(failed[1]) : null,
        latencyMs: lat ? Number(lat[1]) : null,
        ...(err || !tps ? { error: (stderr || String(err)).split('\n').filter(Boolean).slice(0, 3).join(' | ') } : {}),
      });
    });
  });
}
