// Prompt-parser evaluation and speed: accuracy on generated prompts with known intent, and
// parse time per prompt, on one of three catalogs:
//   npx tsx bench/eval-parser.ts                              (the fixed sample catalog)
//   npx tsx bench/eval-parser.ts --source demo --companies 200 (a fresh demo world, in memory)
//   DATABASE_URL=... npx tsx bench/eval-parser.ts --source config   (the configured database:
//                                                                     DATABASE_URL or DATA_DIR)
// Options: --count N prompts (default 300), --seed S, --failures K (how many to print).
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openDb, type Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadPromptCatalog } from '../src/store/catalog.ts';
import { seedWorld } from '../src/ingest/seed/index.ts';
import { compileCatalog, parsePrompt, type PromptCatalog } from '../src/intelligence/prompt/index.ts';
import { evaluateParser, formatEvalReport, generateEvalCases } from '../src/eval/parser.ts';
import { SAMPLE_CATALOG } from '../src/intelligence/prompt/sample-catalog.ts';

const { values } = parseArgs({
  options: {
    source: { type: 'string', default: 'sample' },
    companies: { type: 'string', default: '200' },
    count: { type: 'string', default: '300' },
    seed: { type: 'string', default: '7' },
    failures: { type: 'string', default: '15' },
  },
});

async function catalogFrom(source: string): Promise<{ catalog: PromptCatalog; label: string }> {
  if (source === 'sample') return { catalog: SAMPLE_CATALOG, label: 'sample catalog' };
  let db: Db;
  if (source === 'demo') {
    db = await openDb();
    await migrate(db);
    await seedWorld(db, { companies: Number(values.companies), seed: 'eval-parser', asOf: '2026-01-01' });
  } else if (source === 'config') {
    const config = loadConfig();
    db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
    await migrate(db);
  } else {
    throw new Error('--source must be sample, demo or config');
  }
  try {
    const catalog = await loadPromptCatalog(db, { maxAgeMs: 0 });
    return { catalog, label: `${source} database (${db.engine})` };
  } finally {
    await db.close();
  }
}

const { catalog, label } = await catalogFrom(values.source!);
console.log(
  `Catalog: ${label}: ${catalog.products.length} products, ${catalog.vendors.length} vendors, ${catalog.categories.length} categories, ${catalog.industries.length} industries`,
);

let t = performance.now();
compileCatalog(catalog);
console.log(`Compile: ${(performance.now() - t).toFixed(1)} ms (once per catalog version)`);

const cases = generateEvalCases(catalog, { count: Number(values.count), seed: Number(values.seed) });
const report = evaluateParser(catalog, cases);
console.log(formatEvalReport(report, Number(values.failures)));

// Parse time per prompt (warm): every generated prompt, five rounds.
const times: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const c of cases) {
    t = performance.now();
    parsePrompt(c.prompt, catalog, { mode: c.mode });
    times.push(performance.now() - t);
  }
}
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
console.log(`Parse time per prompt: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms (${times.length} parses)`);
const long = `${'Find German mid-market banks using hubspt, Salesforse and Jira in the last 6 months. '.repeat(30)}`.slice(0, 2000);
t = performance.now();
for (let i = 0; i < 50; i++) parsePrompt(long, catalog, { mode: 'customers' });
console.log(`2,000-character prompt: ${((performance.now() - t) / 50).toFixed(2)} ms per parse`);
