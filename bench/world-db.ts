// The opening the benchmarks over a seeded world share: the database named by
// BENCH_DATABASE_URL (or DATABASE_URL), its company count, and the machine's load average to
// print beside the figures (compare figures of one run, not across runs).
import os from 'node:os';
import { openDb, type Db } from '../src/db/db.ts';

/** The load average (1, 5, 15 minutes), as printed beside figures. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Opens the benchmark's world database (two connections) and counts its companies. */
export async function openBenchWorld(): Promise<{ db: Db; companies: number }> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL (or DATABASE_URL) to a database holding a world');
  const db = await openDb({ databaseUrl: url, poolSize: 2 });
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies')) as [{ n: number }];
  return { db, companies: n };
}
