// Seed benchmark: generates a world into a fresh database and reports time and rows.
//   npx tsx bench/seed.ts --companies 5000                       (in-memory PGlite)
//   npx tsx bench/seed.ts --companies 100000 --postgres postgres://postgres@127.0.0.1:5432/test
// On PostgreSQL it works in a fresh schema and drops it afterwards (--keep keeps it).
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDb } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedWorld } from '../src/ingest/seed/index.ts';
import { worldDigest } from '../src/store/digest.ts';
import { isScaleName } from '../src/ingest/seed/scale.ts';

const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '5000' },
    seed: { type: 'string', default: 'bench' },
    scale: { type: 'string', default: 'M' },
    'as-of': { type: 'string', default: '2026-01-01' },
    postgres: { type: 'string' },
    digest: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
if (!isScaleName(values.scale!)) throw new Error('--scale must be S, M or L');

const schema = `bench_seed_${randomBytes(3).toString('hex')}`;
if (values.postgres) {
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
}
const db = await openDb(values.postgres ? { databaseUrl: values.postgres, schema, poolSize: 2 } : {});
try {
  await migrate(db);
  const started = performance.now();
  let last = started;
  const summary = await seedWorld(db, {
    companies: Number(values.companies),
    seed: values.seed!,
    scale: values.scale,
    asOf: values['as-of'],
    onProgress: (p) => {
      if (p.phase === 'companies' && (performance.now() - last > 10_000 || p.done === p.total)) {
        last = performance.now();
        console.log(`  ${p.done}/${p.total} companies after ${((last - started) / 1000).toFixed(1)} s`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const mem = process.memoryUsage();
  console.log(
    JSON.stringify(
      { engine: db.engine, seconds: Number(seconds.toFixed(1)), rssMB: Math.round(mem.rss / 2 ** 20), heapMB: Math.round(mem.heapUsed / 2 ** 20), ...summary },
      null,
      2,
    ),
  );
  if (values.digest) {
    const t = performance.now();
    const d = await worldDigest(db);
    console.log(`digest ${d.digest} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
} finally {
  await db.close();
  if (values.postgres && !values.keep) {
    const admin = new pg.Client({ connectionString: values.postgres });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  } else if (values.postgres) console.log(`kept schema ${schema}`);
}
