// The importer's fast validator (KindDef.validate) against its definition (the zod schema):
// for every kind, thousands of records (the example rows, mutated with valid, invalid,
// missing and unknown fields, as CSV text and as JSON values) give the same staging row or
// the same errors, in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { KINDS } from '../../src/ingest/import/kinds/index.ts';
import { zodIssues, type Validated } from '../../src/ingest/import/kinds/define.ts';
import { IMPORT_KINDS } from '../../src/ingest/import/index.ts';
import { EXAMPLES } from './helpers.ts';

/** Deterministic PRNG (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Values that pass or fail the various field types: text, ids, domains, numbers, booleans,
// dates, urls, countries, labels, lists, JSON.
const POOL: unknown[] = [
  '',
  ' ',
  'x',
  '  padded  ',
  'acme.example',
  'https://www.Acme.example:8080/path?q=1',
  'not a domain',
  'bücher.example',
  'a..b',
  'prd_1',
  'per 1',
  'id:with.dots-and_underscores',
  '-leading',
  'x'.repeat(129),
  'y'.repeat(301),
  'z'.repeat(2001),
  '2024-01-01',
  '2024-02-30',
  '2024-02-29T23:59:59Z',
  '2024-01-01T10:00:00+02:00',
  '2024-01-01 10:00',
  '1899-12-31',
  '2201-01-01',
  'yesterday',
  '0',
  '1',
  '42',
  '-1',
  '150',
  '1.5',
  ' 7 ',
  '+3',
  '1e3',
  '9007199254740993',
  'true',
  'no',
  'Y',
  'maybe',
  'US',
  'de',
  'USA',
  'email',
  'phone',
  'PHONE',
  'a@b.example',
  'A@B.Example',
  'not-an-email',
  '+1 555 0100',
  '12',
  '(0) 1234-5678',
  'x|y|x',
  '|',
  'a| |b',
  'NEWS',
  'acquisition',
  'Other',
  '10 - 49',
  '50-199',
  'Above 10,000',
  '1M - 2M',
  'More than 1B',
  '{"name":"A"}',
  '{"name":5}',
  '{"ceo":{"first_name":1}}',
  '{bad',
  '[]',
  'null',
  'https://x.example/a',
  'http://x',
  'ftp://x.example',
  'https://exa mple.com',
  42,
  0,
  -5,
  3.5,
  1e21,
  true,
  false,
  ['a', 'b', 'a'],
  ['ok', 5],
  [],
  { name: 'A' },
  { funding: [{ amount: 5 }] },
  { a: 1 },
];

function examples(kind: string): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const csv = path.join(EXAMPLES, `${kind}.csv`);
  if (fs.existsSync(csv)) {
    for (const r of parse(fs.readFileSync(csv), { columns: true, bom: true }) as Record<string, string>[]) {
      rows.push(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '')));
    }
  }
  const jsonl = path.join(EXAMPLES, `${kind}.jsonl`);
  if (fs.existsSync(jsonl)) {
    for (const line of fs.readFileSync(jsonl, 'utf8').split('\n')) {
      if (line.trim() !== '') rows.push(Object.fromEntries(Object.entries(JSON.parse(line) as object).filter(([, v]) => v !== null && v !== '')));
    }
  }
  return rows;
}

function viaZod(kind: (typeof IMPORT_KINDS)[number], values: Record<string, unknown>): Validated {
  const def = KINDS[kind];
  const parsed = def.schema.safeParse(values);
  return parsed.success ? { ok: true, row: parsed.data } : { ok: false, issues: zodIssues(parsed.error.issues, def.fields) };
}

for (const kind of IMPORT_KINDS) {
  test(`${kind}: the fast validator gives what the zod schema gives`, () => {
    const def = KINDS[kind];
    const base = examples(kind);
    assert.ok(base.length > 0, `examples/${kind} has rows`);
    const rnd = random(kind.length * 7919);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    let valid = 0;
    let invalid = 0;
    for (let n = 0; n < 2000; n++) {
      const values: Record<string, unknown> = { ...pick(base) };
      // Most records keep their example values (so the mapping and its cross-field rules
      // run), some lose or change fields, a few gain an unknown one.
      const changes = n < base.length ? 0 : Math.floor(rnd() * 3);
      for (let c = 0; c < changes; c++) {
        const field = pick(def.fields);
        if (rnd() < 0.3) delete values[field];
        else values[field] = rnd() < 0.5 ? pick(POOL) : (pick(base)[pick(def.fields)] ?? pick(POOL));
      }
      if (rnd() < 0.05) values[pick(['colour', 'extra', 'Domain'])] = pick(POOL);
      const expected = viaZod(kind, values);
      assert.deepEqual(def.validate(values), expected, JSON.stringify(values));
      if (expected.ok) valid++;
      else invalid++;
    }
    // Both outcomes were exercised.
    assert.ok(valid > 100 && invalid > 100, `${kind}: ${valid} valid, ${invalid} invalid`);
  });
}

test('the fast validator keeps the messages: a missing field, a bad value, unknown fields, a cross-field rule', () => {
  const { validate } = KINDS.installs;
  assert.deepEqual(validate({ productId: 'prd_1', firstVerified: '2024-01-01', lastVerified: '2024-13-01', colour: 'red', size: 1 }), {
    ok: false,
    issues: [
      { field: 'companyDomain', message: 'is required' },
      { field: 'lastVerified', message: "'2024-13-01' is not a real date" },
      {
        field: 'colour, size',
        message: 'unknown field (expected: companyDomain, productId, firstVerified, lastVerified, hitCount, intensity, source, sources)',
      },
    ],
  });
  // The mapping runs after an unknown field (as in zod), not after a bad value.
  assert.deepEqual(validate({ companyDomain: 'a.example', productId: 'p', firstVerified: '2024-02-01', lastVerified: '2024-01-01', x: 1 }), {
    ok: false,
    issues: [
      { field: 'x', message: 'unknown field (expected: companyDomain, productId, firstVerified, lastVerified, hitCount, intensity, source, sources)' },
      { field: 'lastVerified', message: '2024-01-01T00:00:00.000Z is before firstVerified 2024-02-01T00:00:00.000Z' },
    ],
  });
  assert.deepEqual(
    validate({ companyDomain: 'WWW.A.example', productId: 'p', firstVerified: '2024-01-01', lastVerified: '2024-01-02', source: 'dns', sources: 'web|dns' }),
    {
      ok: true,
      row: {
        company_domain: 'a.example',
        product_id: 'p',
        first_verified: '2024-01-01T00:00:00.000Z',
        last_verified: '2024-01-02T00:00:00.000Z',
        hit_count: undefined,
        intensity: undefined,
        sources: ['web', 'dns'],
      },
    },
  );
});
