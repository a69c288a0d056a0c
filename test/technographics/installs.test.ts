// The install fold is the specification of the observation log's SQL derivation: on random
// logs (same-day repeats, DNS rules of one record type, old and recent traces, a window)
// deriving installs in the database gives exactly the fold's rows. The trace rule reads the
// same in JavaScript and in SQL. Both engines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { insertObservations } from '../../src/store/observations.ts';
import { deriveInstalls } from '../../src/services/observations.ts';
import {
  EVIDENCE_SOURCES,
  evidenceHash,
  TRACE_SQL,
  traceOf,
  traceStrength,
  type EvidenceItem,
  type EvidenceSource,
} from '../../src/technographics/evidence.ts';
import { observationOf, type Observation } from '../../src/technographics/observations.ts';
import { foldInstalls, type FoldedInstall } from '../../src/technographics/installs.ts';
import { rngFor } from '../../src/ingest/seed/rng.ts';

const AS_OF = '2026-06-30';
const DAY_MS = 86_400_000;
let db: Db;
let companies: string[];
let products: string[];

before(async () => {
  db = await createTestDb();
  // Companies and products to log against; no observations of the world's own.
  await seedWorld(db, { companies: 12, seed: 'fold', asOf: AS_OF, recordObservations: false });
  companies = (await db.query<{ id: string }>('SELECT id FROM companies ORDER BY id')).map((r) => r.id);
  products = (await db.query<{ id: string }>('SELECT id FROM products ORDER BY id LIMIT 6')).map((r) => r.id);
});
after(() => db.close());

/** Rule ids as the detector writes them, DNS ones several per record type, and a technology name holding a slash. */
const RULES: Array<[EvidenceSource, string]> = [
  ['script', 'Acme/scriptSrc/0'],
  ['script', 'Acme/scriptSrc/1'],
  ['cookie', 'Acme/cookies/_acme'],
  ['html', 'Acme/html/0'],
  ['dns', 'Acme/dns.SPF/0'],
  ['dns', 'Acme/dns.SPF/1'],
  ['dns', 'Acme/dns.SPF/2'],
  ['dns', 'Acme/dns.MX/0'],
  ['dns', 'Acme/dns.MX/1'],
  ['dns', 'A/B Testing Co/dns.TXT/0'],
  ['dns', 'Parent/implies/Acme'],
  ['job', 'Acme/job/0'],
  ['meta', 'Acme/meta/generator'],
];
const WEIGHTS = [0.3, 0.4, 0.5, 0.6, 0.75, 0.9, 0.95, 1];

function randomLog(seed: string, n: number): Observation[] {
  const r = rngFor(seed, 'log', 0);
  const rng = () => r.next();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const asOf = Date.parse(`${AS_OF}T00:00:00Z`);
  const out: Observation[] = [];
  for (let i = 0; i < n; i++) {
    const [source, ruleId] = pick(RULES);
    // Up to 200 days back, at any time of day; excerpts from a small set so that items repeat.
    const seenAt = new Date(asOf - Math.floor(rng() * 200) * DAY_MS - Math.floor(rng() * DAY_MS));
    const item: EvidenceItem = {
      source,
      ruleId,
      excerpt: `excerpt ${Math.floor(rng() * 3)}`,
      weight: pick(WEIGHTS),
      url: rng() < 0.5 ? 'https://x.example/' : null,
      version: null,
    };
    out.push(observationOf(item, { companyId: pick(companies), productId: pick(products), seenAt, input: 'test' }));
    // The same item again later that day: the log keeps the first.
    if (rng() < 0.1)
      out.push(
        observationOf(item, {
          companyId: out.at(-1)!.companyId,
          productId: out.at(-1)!.productId,
          seenAt: new Date(seenAt.getTime() + 3_600_000 * rng()),
          input: 'test',
        }),
      );
  }
  return out;
}

async function derivedInstalls(): Promise<FoldedInstall[]> {
  const rows = await db.query<{ companyId: string; productId: string; first: Date; last: Date; hitCount: number; intensity: number; sources: string[] }>(
    `SELECT company_id AS "companyId", product_id AS "productId", first_verified AS first, last_verified AS last, hit_count AS "hitCount", intensity, sources
       FROM installs i WHERE EXISTS (SELECT 1 FROM observations o WHERE o.company_id = i.company_id AND o.product_id = i.product_id)
      ORDER BY company_id, product_id`,
  );
  return rows.map((r) => ({
    companyId: r.companyId,
    productId: r.productId,
    firstVerified: r.first.getTime(),
    lastVerified: r.last.getTime(),
    hitCount: r.hitCount,
    intensity: r.intensity,
    sources: r.sources,
  }));
}

for (const [seed, staleAfterDays] of [
  ['a', 30],
  ['b', 90],
  ['c', 365],
] as const) {
  test(`deriving installs from a random log gives the fold's rows (log '${seed}', window ${staleAfterDays} days)`, async () => {
    await db.query('DELETE FROM observations');
    const log = randomLog(seed, 160);
    await db.transaction((tx) => insertObservations(tx, log));
    await deriveInstalls(db, { companyIds: companies, staleAfterDays, asOf: new Date(`${AS_OF}T00:00:00Z`) });
    const expected = foldInstalls(log, { asOf: Date.parse(`${AS_OF}T00:00:00Z`), staleAfterDays });
    // Not vacuous: installs of several companies, stale pairs left out, DNS traces folded.
    assert.ok(expected.length >= 20, `${expected.length} installs`);
    assert.ok(foldInstalls(log).length > expected.length || staleAfterDays === 365, 'some pairs are stale');
    assert.deepEqual(await derivedInstalls(), expected);
  });
}

test('the rules of one DNS record type are one trace: two SPF includes count once in intensity, in the fold and in SQL', async () => {
  await db.query('DELETE FROM observations');
  const seenAt = new Date(`${AS_OF}T08:00:00Z`);
  const at = { companyId: companies[0]!, productId: products[0]!, seenAt };
  const spf = (key: string): EvidenceItem => ({
    source: 'dns',
    ruleId: `Acme/dns.SPF/${key}`,
    excerpt: `include:${key}.acme.example`,
    url: null,
    version: null,
    weight: 0.4,
  });
  const log = [observationOf(spf('0'), at), observationOf(spf('1'), at)];
  await db.transaction((tx) => insertObservations(tx, log));
  await deriveInstalls(db, { companyIds: [at.companyId], asOf: seenAt });
  const [derived] = await derivedInstalls();
  assert.equal(derived?.intensity, 40, 'one SPF record: 0.4, not 1 - 0.6² = 0.64');
  assert.equal(derived?.hitCount, 2, 'two observations');
  assert.deepEqual(
    foldInstalls(log).map((i) => i.intensity),
    [40],
  );
  assert.equal(traceStrength([spf('0'), spf('1')]), 0.4);
});

test('traceOf and its SQL read the same trace from every kind of rule id', async () => {
  const cases: Array<Pick<EvidenceItem, 'source' | 'ruleId'>> = [
    ...RULES.map(([source, ruleId]) => ({ source, ruleId })),
    { source: 'dns', ruleId: 'dns.SPF' },
    { source: 'dns', ruleId: 'Acme/dns.CNAME/' },
    { source: 'html', ruleId: 'Acme/dns.SPF/0' },
    { source: 'dns', ruleId: 'A/B/C/dns.NS/3' },
    { source: 'dns', ruleId: 'Acme/scriptSrc/0' },
    ...EVIDENCE_SOURCES.map((source) => ({ source, ruleId: `Tech/${source}/0` })),
  ];
  const rows = await db.query<{ trace: string }>(
    `SELECT ${TRACE_SQL} AS trace FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(source, rule_id, i) ORDER BY i`,
    [cases.map((c) => c.source), cases.map((c) => c.ruleId)],
  );
  assert.deepEqual(
    rows.map((r) => r.trace),
    cases.map(traceOf),
  );
  assert.equal(traceOf({ source: 'dns', ruleId: 'A/B Testing Co/dns.TXT/0' }), 'dns.TXT');
  assert.equal(traceOf({ source: 'dns', ruleId: 'Parent/implies/Acme' }), 'Parent/implies/Acme');
});

test('an evidence item has one identity whatever carries it: a null url and version hash as empty', () => {
  const item: EvidenceItem = { source: 'script', url: null, ruleId: 'Acme/scriptSrc/0', excerpt: 'x', version: null, weight: 0.9 };
  assert.equal(evidenceHash(item), evidenceHash({ ...item, url: '', version: '' }));
  assert.notEqual(evidenceHash(item), evidenceHash({ ...item, url: 'https://x.example/' }));
  assert.match(evidenceHash(item), /^[0-9a-f]{32}$/);
});
