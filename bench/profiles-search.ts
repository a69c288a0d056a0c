// Profile search at scale: loads N people over N/15 companies into a scratch database, then
// times each kind of search (service call: count + page) and a full CSV export stream.
//
//   DATABASE_URL=postgres://... node --import tsx bench/profiles-search.ts [--people 300000] [--runs 20]
//
// Without DATABASE_URL it runs on in-memory PGlite (use fewer people). Not a test: figures
// depend on the machine; report them with its load.
import { parseArgs } from 'node:util';
import { createTestDb } from '../test/helpers/db.ts';
import { searchProfiles, exportProfiles } from '../src/services/profiles.ts';
import type { Principal } from '../src/auth/principal.ts';
import { PERMISSIVE_PLAN } from '../test/helpers/plans.ts';

const { values } = parseArgs({ options: { people: { type: 'string', default: '300000' }, runs: { type: 'string', default: '20' } } });
const people = Number(values.people);
const runs = Number(values.runs);
const companies = Math.max(10, Math.floor(people / 15));

const db = await createTestDb();
const t0 = performance.now();
await db.query(`INSERT INTO industries (id, name) SELECT 'ind_' || i, 'Industry ' || i FROM generate_series(1, 30) i`);
await db.query(
  `INSERT INTO companies (id, domain, name, industry_id, country)
   SELECT 'cmp_' || i, 'company' || i || '.example', 'Company ' || md5(i::text), 'ind_' || (1 + i % 30), (ARRAY['US','DE','GB','FR','NL'])[1 + i % 5]
   FROM generate_series(1, $1::int) i`,
  [companies],
);
await db.query(
  `INSERT INTO people (id, company_id, full_name, title, seniority, function, country, city)
   SELECT 'per_' || lpad(i::text, 8, '0'), 'cmp_' || (1 + i % $2::int), 'Person ' || md5(i::text),
          (ARRAY['Software Engineer','Sales Director','VP Marketing','Chief Technology Officer','Account Executive','Data Scientist'])[1 + i % 6] || ' ' || (i % 97),
          (ARRAY['Junior','Mid','Senior','Director','VP','C-Level'])[1 + i % 6],
          (ARRAY['Engineering','Sales','Marketing','Finance','Operations'])[1 + i % 5],
          (ARRAY['US','DE','GB','FR','NL','ES','IT'])[1 + i % 7], 'City ' || (i % 300)
   FROM generate_series(1, $1::int) i`,
  [people, companies],
);
await db.query('ANALYZE');
console.log(`${db.engine}: loaded ${people} people, ${companies} companies in ${Math.round(performance.now() - t0)} ms`);

const cases: [string, Record<string, unknown>][] = [
  ['query (selective word)', { query: 'a1b2' }],
  ['query (common word)', { query: 'engineer' }],
  ['titles contains', { titles: ['director'] }],
  ['seniority + functions', { seniority: ['vp'], functions: ['marketing'] }],
  ['countries', { countries: ['Germany'] }],
  ['companyDomains (3)', { companyDomains: ['company1.example', 'company2.example', 'company3.example'] }],
  ['industries', { industries: ['ind_7'] }],
  ['deep page (page 500)', { seniority: ['senior'], page: 500 }],
];
for (const [name, filters] of cases) {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    const page = await searchProfiles(db, { page: 0, size: 20, ...filters } as never);
    times.push(performance.now() - s);
    total = page.totalElements;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(28)} matches ${String(total).padStart(7)}  p50 ${times[Math.floor(runs / 2)]!.toFixed(1)} ms  p95 ${times[Math.floor(runs * 0.95)]!.toFixed(1)} ms`,
  );
}

const principal: Principal = {
  clientId: 'bench',
  clientName: 'bench',
  via: 'api_key',
  plan: PERMISSIVE_PLAN,
};
const heap0 = process.memoryUsage().heapUsed;
const s = performance.now();
const file = await exportProfiles(db, principal, 'bench@example.com', { countries: ['US', 'DE'] });
let rows = 0;
let peak = 0;
for await (const _row of file.rows) {
  rows++;
  if (rows % 10000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - heap0);
}
console.log(`export (keyset batches): ${rows} rows in ${Math.round(performance.now() - s)} ms, heap growth peak ${(peak / 1e6).toFixed(1)} MB`);
await db.close();
