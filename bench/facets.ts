// Market sizing benchmark: POST /companies/facets as the service answers it, on a seeded world.
//
//   BENCH_DATABASE_URL=postgres://… node --import tsx bench/facets.ts [--runs 20]
//   (default: DATABASE_URL's database; it must hold a world, e.g. `stacklens seed --companies 50000`)
//
// First the market-sizing index is read (services/facet-index.ts: its build time and memory).
// Then for each request shape (one or two dimensions, with and without a filter, the install
// dimensions technology and category), `runs` calls in turn, through the service (answered by
// the index) and through the SQL path alone (store/facets.ts): p50 and p95 wall time in the
// process, and the figures of the answer (matches, cells). The load average is printed with
// them: compare figures of one run, not across runs.
import { parseArgs } from 'node:util';
import { loadAverage as load, openBenchWorld } from './world-db.ts';
import { companyFacets, facetCriteria } from '../src/services/companies.ts';
import { currentFacetIndex } from '../src/services/facet-index.ts';
import { facetCounts } from '../src/store/facets.ts';
import { facetsBodySchema, type FacetsInput } from '../src/schemas/facets.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(values.runs);

const { db, companies: n } = await openBenchWorld();
const [popular] = await db.query<{ vendor: string }>(
  `SELECT v.domain AS vendor FROM installs i JOIN products p ON p.id = i.product_id JOIN vendors v ON v.id = p.vendor_id
    GROUP BY v.domain ORDER BY count(*) DESC OFFSET 10 LIMIT 1`,
);
console.log(`${n} companies; popular vendor ${popular?.vendor}; ${RUNS} runs per shape; load ${load()}`);

const shapes: Array<[string, unknown]> = [
  ['country', { dimensions: ['country'] }],
  ['country × employeeBand', { dimensions: ['country', 'employeeBand'] }],
  ['vendor filter: country × employeeBand', { filter: { vendorDomainIn: [popular?.vendor] }, dimensions: ['country', 'employeeBand'] }],
  ['technology', { dimensions: ['technology'] }],
  ['technology, no samples', { dimensions: ['technology'], sample: 0 }],
  ['country × technology', { dimensions: ['country', 'technology'] }],
  ['country × technology, no samples', { dimensions: ['country', 'technology'], sample: 0 }],
  ['US: category × industry', { countries: ['US'], dimensions: ['category', 'industry'] }],
];
const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const buildStarted = performance.now();
if (!(await currentFacetIndex(db))) throw new Error('the market-sizing index was not built');
const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
console.log(
  `market-sizing index read in ${(performance.now() - buildStarted).toFixed(0)} ms, about ${((heapAfter - heapBefore) / 1048576).toFixed(0)} MB; load ${load()}`,
);
console.log('| request | index p50 ms | index p95 ms | SQL p50 ms | SQL p95 ms | matches | cells |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [name, body] of shapes) {
  const input: FacetsInput = facetsBodySchema.parse(body);
  const index: number[] = [];
  const sql: number[] = [];
  let last = { total: 0, cellCount: 0 };
  const criteria = await facetCriteria(db, input);
  for (let r = 0; r < RUNS; r++) {
    let started = performance.now();
    last = await companyFacets(db, input, 'unmetered');
    index.push(performance.now() - started);
    started = performance.now();
    await facetCounts(db, criteria, input.dimensions, input.limit, input.sample);
    sql.push(performance.now() - started);
  }
  const at = (times: number[], q: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0);
  console.log(`| ${name} | ${at(index, 0.5)} | ${at(index, 0.95)} | ${at(sql, 0.5)} | ${at(sql, 0.95)} | ${last.total} | ${last.cellCount} |`);
}
console.log(`load ${load()}`);
await db.close();
