// Item (f) of the harness: how long the operator's jobs take on the benchmark world.
//   - full refresh: `stacklens refresh --full` (cohorts, competitors, co-usage for every company);
//   - import of 1,000 installs (`stacklens import installs … --no-refresh`), then the
//     incremental refresh that an import triggers (`stacklens refresh`).
// Runs after the server has stopped (PGlite's data folder admits one process at a time).
//
// The 1,000 installs are existing ones, re-imported with hitCount h ↔ h+1 swapped by parity
// ((h-1) xor 1) + 1, every other column as it is: each run changes exactly those rows, and
// two runs give the world back, so the benchmark world does not drift from run to run.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/db/db.ts';

export const LIFECYCLE_INSTALLS = 1_000;

export interface LifecycleStep {
  name: string;
  seconds: number;
  /** CPU ms of the CLI process (node) and of the private cluster, when known. */
  nodeCpuMs: number | null;
  pgCpuMs: number | null;
  output: string;
}

export interface LifecycleDeps {
  db: () => Promise<Db>;
  /** Runs `stacklens <argv>` and resolves with its stdout. */
  cli: (argv: string[]) => Promise<string>;
  /** Wall time and CPU of `fn`: the CLI's CPU arrives as waited-children time. */
  measure: <T>(fn: () => Promise<T>) => Promise<{ result: T; wallMs: number; childrenMs: number; pgMs: number | null }>;
  work: string;
}

/** Writes the installs file of the incremental step (CSV, the import's documented columns). */
async function installsFile(db: Db, file: string): Promise<number> {
  // A fixed, spread-out sample: every install whose (company, product) hashes into the
  // lowest buckets, the same rows on every run and engine.
  const rows = await db.query<{ domain: string; productId: string; first: string; last: string; hits: number; intensity: number; sources: string[] }>(
    `SELECT c.domain, i.product_id AS "productId",
            to_char(i.first_verified AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS first,
            to_char(i.last_verified AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last,
            i.hit_count AS hits, i.intensity::int AS intensity, i.sources
       FROM installs i JOIN companies c ON c.id = i.company_id
      ORDER BY md5(i.company_id || '/' || i.product_id)
      LIMIT $1`,
    [LIFECYCLE_INSTALLS],
  );
  const quote = (v: string) => (/[",\n|]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = rows.map((r) => {
    const hits = r.hits >= 1 ? ((r.hits - 1) ^ 1) + 1 : 1;
    return [r.domain, r.productId, r.first, r.last, String(hits), String(r.intensity), quote((r.sources ?? []).join('|'))].join(',');
  });
  writeFileSync(file, ['companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,sources', ...lines].join('\n') + '\n');
  return rows.length;
}

export async function measureLifecycle(deps: LifecycleDeps): Promise<LifecycleStep[]> {
  const steps: LifecycleStep[] = [];
  const step = async (name: string, argv: string[]) => {
    const m = await deps.measure(() => deps.cli(argv));
    const s: LifecycleStep = {
      name,
      seconds: Number((m.wallMs / 1000).toFixed(1)),
      nodeCpuMs: Math.round(m.childrenMs),
      pgCpuMs: m.pgMs === null ? null : Math.round(m.pgMs),
      output: m.result.trim().split('\n').slice(-2).join(' '),
    };
    steps.push(s);
    console.log(`  ${name}: ${s.seconds} s (node ${s.nodeCpuMs} ms CPU, PG ${s.pgCpuMs ?? 'n/a'} ms CPU) — ${s.output}`);
  };
  await step('refresh --full', ['refresh', '--full']);
  const file = path.join(deps.work, 'lifecycle-installs.csv');
  const db = await deps.db();
  let count: number;
  try {
    count = await installsFile(db, file);
  } finally {
    await db.close();
  }
  await step(`import ${count} installs (--no-refresh)`, ['import', 'installs', file, '--no-refresh']);
  await step(`incremental refresh after the import`, ['refresh']);
  return steps;
}
