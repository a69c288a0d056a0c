// Evaluation on a generated demo world: seeds it (unless the schema already holds one),
// runs a full refresh, prints the `stacklens eval` figures. For tuning and for checking
// calibration on a world with another seed than the one the coefficients were fitted on.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/tools/eval.ts --seed stacklens --companies 5000 [--schema eval_a] [--fit]
// Without DATABASE_URL it runs on in-memory PGlite.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { evaluateIntelligence } from '../../src/eval/intelligence.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: 'stacklens' },
    companies: { type: 'string', default: '5000' },
    schema: { type: 'string' },
    fit: { type: 'boolean', default: false },
    'no-refresh': { type: 'boolean', default: false },
    threshold: { type: 'string', default: '0.3' },
  },
});
const url = process.env.DATABASE_URL;
const schema = values.schema;
if (url && schema) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await admin.end();
}
const db = await openDb({ databaseUrl: url, schema: url ? schema : undefined, poolSize: 4 });
try {
  await migrate(db);
  const [companies] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
  const n = companies!.n; // count(*) answers one row
  let t = Date.now();
  if (n === 0) {
    const s = await seedWorld(db, { companies: Number(values.companies), seed: values.seed! });
    console.log(
      `seeded ${s.companies} companies, ${s.segments} segments, ${s.installs} installs in ${((Date.now() - t) / 1000).toFixed(1)} s (${db.engine}, seed '${s.seed}', as of ${s.asOf})`,
    );
  }
  if (!values['no-refresh']) {
    t = Date.now();
    const cpu = process.cpuUsage();
    const r = await refreshAll(db);
    const used = process.cpuUsage(cpu);
    // On PGlite the database runs in this process, so its work is in the CPU figure too.
    console.log(
      `full refresh ${((Date.now() - t) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU of this process ${JSON.stringify(r.timingsMs)}`,
    );
  }
  t = Date.now();
  const report = await evaluateIntelligence(db, { fit: values.fit, coAdoptionThreshold: Number(values.threshold) });
  console.log(JSON.stringify(report, (_key, v) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : v)));
  console.log(`eval ${((Date.now() - t) / 1000).toFixed(1)} s`);
} finally {
  await db.close();
}
