// Refresh benchmark: builds a synthetic segmented world of N companies in a fresh schema
// (PostgreSQL with DATABASE_URL, else in-memory PGlite), times a full refresh, and
// optionally evaluates it against the world's truth.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/refresh.ts --companies 100000 [--world demo|synthetic] [--eval]
// --world demo (default) uses the real demo-world generator; synthetic is faster to build.
// --keep --world-only: build the world in the schema and keep it, no refresh (a world for other
// benchmarks, e.g. bench/facets.ts at 1,000,000 companies: BENCH_DATABASE_URL=…?options=-csearch_path%3D<schema>).
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDb } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { refreshAll } from '../src/ingest/refresh.ts';
import { evaluateIntelligence } from '../src/eval/intelligence.ts';
import { generateBenchWorld } from './world.ts';
import { seedWorld } from '../src/ingest/seed/index.ts';

const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '100000' },
    seed: { type: 'string', default: 'stacklens' },
    eval: { type: 'boolean', default: false },
    world: { type: 'string', default: 'demo' },
    keep: { type: 'boolean', default: false },
    'world-only': { type: 'boolean', default: false },
  },
});
const url = process.env.DATABASE_URL;
const schema = `bench_intel_${process.pid}`;
if (url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
}
const db = await openDb({ databaseUrl: url, schema: url ? schema : undefined, poolSize: 4 });
try {
  await migrate(db);
  let t = Date.now();
  const { installs } =
    values.world === 'synthetic'
      ? await generateBenchWorld(db, { companies: Number(values.companies), seed: Number(values.seed) || 42 })
      : await seedWorld(db, { companies: Number(values.companies), seed: values.seed! });
  console.log(`world: ${values.companies} companies, ${installs} installs generated in ${((Date.now() - t) / 1000).toFixed(1)} s (${db.engine})`);
  if (db.engine === 'postgres') await db.query('ANALYZE');
  if (values['world-only']) {
    console.log(`world kept in schema ${schema}`);
    process.exit(0);
  }
  t = Date.now();
  const cpu = process.cpuUsage();
  const r = await refreshAll(db, {
    onProgress: (p) => {
      if (p.phase === 'cohorts' && p.done % 10_000 < 500) process.stderr.write(`  cohorts ${p.done}/${p.total} at ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
    },
  });
  const used = process.cpuUsage(cpu);
  console.log(
    `full refresh: ${((Date.now() - t) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU in Node; ${r.cohortRows} cohort rows; phases ms ${JSON.stringify(r.timingsMs)}; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
  );
  if (values.eval)
    console.log(
      JSON.stringify(
        await evaluateIntelligence(db, { fit: false }),
        (k, v) => (k === 'table' ? undefined : typeof v === 'number' ? Math.round(v * 1000) / 1000 : v),
        2,
      ),
    );
} finally {
  await db.close();
  if (url && !values.keep) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}
