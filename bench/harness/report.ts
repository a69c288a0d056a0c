// The markdown tables the harness prints (and bench/README.md explains), from its JSON.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface Run {
  auth: string;
  connections: number;
  rps: number;
  p50Ms: number | null;
  p99Ms: number | null;
  non2xx: number;
  errors: number;
  nodeMsPerReq: number | null;
  pgMsPerReq: number | null;
  othersCores: number | null;
  healthzP99Ms?: number | null;
  load: { start: string | null; end: string | null };
}

interface Results {
  engine: string;
  scale: string;
  companies: number;
  world: { companies: number; installs: number; people: number };
  seed: { seededThisRun: boolean; seconds: number | null };
  loadGenerator: string;
  durationSeconds: number;
  cores: number;
  startedAt: string;
  loadAverage: { start: string | null; end: string | null };
  serverReadySeconds?: number;
  endpoints?: {
    name: string;
    runs: Run[];
    httpCeiling: { rps: number | null };
    dbCeiling: { rps?: number | null; tps?: number | null; pgMsPerRequest?: number | null; pgMsPerTx?: number | null; error: string | null } | null;
    compositeCeiling: number | null;
    ratio: number | null;
  }[];
  mcp?: { tool: string; mcp: Run; rest: Run; cpuRatio: number | null } | null;
  lifecycle?: { name: string; seconds: number; nodeCpuMs: number | null; pgCpuMs: number | null }[] | null;
  ai?: {
    callsPerPrompt: number;
    prompts: { prompt: string; statuses: Record<string, number>; items: number; p50Ms: number | null; p95Ms: number | null; maxMs: number | null }[];
    p50Ms: number | null;
    p95Ms: number | null;
    nodeMsPerCall: number | null;
    pgMsPerCall: number | null;
    othersCores: number | null;
    load: { start: string | null; end: string | null };
  } | null;
  exports?: {
    name: string;
    status: number;
    rows: number;
    seconds: number | null;
    rowsPerSecond: number | null;
    ttfbMs: number | null;
    rssBeforeMb: number | null;
    rssPeakMb: number | null;
    nodeCpuMs: number | null;
    pgCpuMs: number | null;
    othersCores: number | null;
  }[];
}

const n = (v: number | null | undefined, digits?: number) =>
  v === null || v === undefined ? 'n/a' : digits === undefined ? v.toLocaleString('en-US') : v.toFixed(digits);

export function markdown(r: Results): string {
  const lines: string[] = [];
  lines.push(`### ${r.engine}, scale ${r.scale} (${n(r.world.companies)} companies, ${n(r.world.installs)} installs, ${n(r.world.people)} people)`);
  lines.push('');
  lines.push(
    `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC · ${r.cores} cores · load generator ${r.loadGenerator} · ${r.durationSeconds} s per run · ` +
      `load average ${r.loadAverage.start ?? 'n/a'} at start, ${r.loadAverage.end ?? 'n/a'} at end` +
      (r.seed.seededThisRun ? ` · seeded in ${n(r.seed.seconds, 1)} s` : ' · dataset reused') +
      (r.serverReadySeconds !== undefined ? ` · server ready in ${n(r.serverReadySeconds, 1)} s` : ''),
  );
  lines.push('');
  lines.push(
    '| endpoint | auth | c | req/s | p50 ms | p99 ms | non-2xx / errors | node ms/req | PG ms/req | others (cores) | load 1-min | http ceiling | db ceiling | composite | ratio | PG ms/req replayed | healthz p99 ms |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const e of r.endpoints ?? []) {
    for (const run of e.runs) {
      const main = run.auth === 'api-key' && run.connections === 50;
      lines.push(
        `| ${e.name} | ${run.auth} | ${run.connections} | ${n(run.rps)} | ${n(run.p50Ms, 1)} | ${n(run.p99Ms, 1)} | ${run.non2xx} / ${run.errors} | ` +
          `${n(run.nodeMsPerReq, 2)} | ${n(run.pgMsPerReq, 2)} | ${n(run.othersCores, 2)} | ${run.load.end?.split(' ')[0] ?? 'n/a'} | ` +
          (main
            ? `${n(e.httpCeiling.rps)} | ${e.dbCeiling ? ((e.dbCeiling.rps ?? e.dbCeiling.tps ?? null) !== null ? n(e.dbCeiling.rps ?? e.dbCeiling.tps) : 'failed') : 'n/a'} | ${n(e.compositeCeiling)} | ${e.ratio === null ? 'n/a' : (e.ratio * 100).toFixed(e.ratio < 0.1 ? 1 : 0) + ' %'} | ${n(e.dbCeiling?.pgMsPerRequest ?? e.dbCeiling?.pgMsPerTx, 2)} |`
            : ' | | | | |') +
          ` ${n(run.healthzP99Ms, 1)} |`,
      );
    }
  }
  if (r.mcp) {
    const { mcp, rest } = r.mcp;
    lines.push('');
    lines.push('| operation | c | calls/s | p50 ms | p99 ms | non-2xx / errors | node ms/call | PG ms/call | others (cores) |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [label, run] of [
      [`MCP tools/call ${r.mcp.tool}`, mcp],
      ['REST GET cohort/Default', rest],
    ] as const) {
      lines.push(
        `| ${label} | ${run.connections} | ${n(run.rps)} | ${n(run.p50Ms, 1)} | ${n(run.p99Ms, 1)} | ${run.non2xx} / ${run.errors} | ${n(run.nodeMsPerReq, 2)} | ${n(run.pgMsPerReq, 2)} | ${n(run.othersCores, 2)} |`,
      );
    }
    lines.push('');
    lines.push(`MCP / REST CPU per call (node + PG): ${n(r.mcp.cpuRatio, 2)}x`);
  }
  if (r.ai) {
    lines.push('');
    lines.push(
      `AI helper, customers of products: ${r.ai.callsPerPrompt} calls of each prompt, one at a time · node ${n(r.ai.nodeMsPerCall, 1)} + PG ${n(r.ai.pgMsPerCall, 1)} ms CPU per call · others ${n(r.ai.othersCores, 2)} cores · load ${r.ai.load.end ?? 'n/a'}`,
    );
    lines.push('');
    lines.push('| prompt | statuses | items | p50 ms | p95 ms | max ms |');
    lines.push('|---|---|---:|---:|---:|---:|');
    for (const p of r.ai.prompts) {
      lines.push(
        `| ${p.prompt} | ${Object.entries(p.statuses)
          .map(([s, k]) => `${s}×${k}`)
          .join(' ')} | ${p.items} | ${n(p.p50Ms, 1)} | ${n(p.p95Ms, 1)} | ${n(p.maxMs, 1)} |`,
      );
    }
    lines.push(`| all | | | ${n(r.ai.p50Ms, 1)} | ${n(r.ai.p95Ms, 1)} | |`);
  }
  if (r.exports && r.exports.length > 0) {
    lines.push('');
    lines.push('| export | status | rows | seconds | rows/s | first byte ms | server RSS before → peak MB | node CPU ms | PG CPU ms | others (cores) |');
    lines.push('|---|---:|---:|---:|---:|---:|---|---:|---:|---:|');
    for (const e of r.exports) {
      lines.push(
        `| ${e.name} | ${e.status} | ${n(e.rows)} | ${n(e.seconds, 2)} | ${n(e.rowsPerSecond)} | ${n(e.ttfbMs, 1)} | ${n(e.rssBeforeMb, 0)} → ${n(e.rssPeakMb, 0)} | ${n(e.nodeCpuMs)} | ${n(e.pgCpuMs)} | ${n(e.othersCores, 2)} |`,
      );
    }
  }
  if (r.lifecycle && r.lifecycle.length > 0) {
    lines.push('');
    lines.push('| job | seconds | node CPU ms | PG CPU ms |');
    lines.push('|---|---:|---:|---:|');
    if (r.seed.seededThisRun) lines.push(`| seed + full refresh (\`stacklens seed\`) | ${n(r.seed.seconds, 1)} | | |`);
    for (const j of r.lifecycle) lines.push(`| ${j.name} | ${n(j.seconds, 1)} | ${n(j.nodeCpuMs)} | ${n(j.pgCpuMs)} |`);
  }
  return lines.join('\n');
}

// `npx tsx bench/harness/report.ts bench/results/<file>.json …` prints the tables of saved runs.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of process.argv.slice(2)) console.log(markdown(JSON.parse(readFileSync(file, 'utf8')) as Results) + '\n');
}
