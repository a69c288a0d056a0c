// The schema keeps the rule the Citus design rests on (docs/scale-out.md): every table with a
// company_id column has company_id in its primary key, unless the design lists it as an
// exception with what it needs; and every table of the live schema is placed (distributed,
// reference or local) in the design's table, so a new table comes with its decision.
// Distributed tables: the distribution column is in the primary key and in every unique
// index, as Citus requires, unless listed as an exception. Reads the migrated schema of a
// fresh test database (information_schema and pg_index), on both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { PLACEMENTS } from '../../src/db/citus.ts';

const DOC = path.resolve(import.meta.dirname, '../../docs/scale-out.md');

interface Placement {
  placement: 'distributed' | 'reference' | 'local';
  column: string | null;
}

/** The design's two tables: placements ("| `t` | distributed | `col` | …") and exceptions ("| `t` | today | needs |"). */
function readDesign(): { placements: Map<string, Placement>; exceptions: Set<string> } {
  const text = fs.readFileSync(DOC, 'utf8');
  const placements = new Map<string, Placement>();
  for (const m of text.matchAll(/^\| `(\w+)` \| (distributed|reference|local) \| (?:`(\w+)`|—) \|/gm)) {
    placements.set(m[1]!, { placement: m[2] as Placement['placement'], column: m[3] ?? null });
  }
  const section = text.slice(text.indexOf('### Exceptions to the rule'), text.indexOf('### Domain lookups'));
  const exceptions = new Set([...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!));
  return { placements, exceptions };
}

let db: Db;
before(async () => {
  db = await createTestDb();
});
after(() => db.close());

async function liveTables(): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  return rows.map((r) => r.table_name);
}

/** Each unique index of the schema: its table, whether it is the primary key, and its columns (null for an expression). */
async function uniqueIndexes(): Promise<{ table: string; index: string; primary: boolean; columns: (string | null)[] }[]> {
  const rows = await db.query<{ table_name: string; index_name: string; primary: boolean; columns: (string | null)[] }>(
    `SELECT c.relname AS table_name, i.relname AS index_name, x.indisprimary AS primary,
            array(SELECT a.attname::text FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(n, o)
                  LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.n ORDER BY k.o) AS columns
       FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indisunique AND c.relnamespace = current_schema()::regnamespace`,
  );
  return rows.map((r) => ({ table: r.table_name, index: r.index_name, primary: r.primary, columns: r.columns }));
}

test('the design document lists placements and exceptions (the parser reads it)', () => {
  const { placements, exceptions } = readDesign();
  assert.ok(placements.size > 20, 'placements read from docs/scale-out.md');
  assert.equal(placements.get('installs')?.column, 'company_id');
  assert.equal(placements.get('products')?.placement, 'reference');
  assert.ok(exceptions.has('feed_items'));
  for (const t of exceptions) assert.ok(placements.has(t), `exception ${t} is also placed`);
});

test('the placements the Citus step applies (src/db/citus.ts) are those of the document, table by table', () => {
  const { placements } = readDesign();
  const fromCode = Object.entries(PLACEMENTS).map(([t, p]) => `${t}: ${p.kind}${p.kind === 'distributed' ? ` by ${p.column}` : ''}`);
  const fromDoc = [...placements].map(([t, p]) => `${t}: ${p.placement}${p.placement === 'distributed' ? ` by ${p.column}` : ''}`);
  assert.deepEqual(fromCode.sort(), fromDoc.sort());
});

test('every table of the schema is placed in docs/scale-out.md', async () => {
  const { placements } = readDesign();
  const missing = (await liveTables()).filter((t) => !placements.has(t));
  assert.deepEqual(
    missing,
    [],
    `place these tables in docs/scale-out.md ("Where every table goes": distributed by company_id, reference or local): ${missing.join(', ')}`,
  );
});

test('every table with a company_id column has company_id in its primary key, or is an explained exception', async () => {
  const { exceptions } = readDesign();
  const withCompany = await db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND c.column_name = 'company_id' AND t.table_type = 'BASE TABLE' ORDER BY 1`,
  );
  assert.ok(withCompany.length >= 8, 'the per-company tables were found');
  const primary = new Map((await uniqueIndexes()).filter((i) => i.primary).map((i) => [i.table, i.columns]));
  const breaking = withCompany.map((r) => r.table_name).filter((t) => !primary.get(t)?.includes('company_id') && !exceptions.has(t));
  assert.deepEqual(breaking, [], `company_id must be in the primary key of: ${breaking.join(', ')} (or explain the exception in docs/scale-out.md)`);
});

test('distributed tables: the distribution column is in every unique index, unless an exception', async () => {
  const { placements, exceptions } = readDesign();
  const live = new Set(await liveTables());
  // companies' own unique domain is the one planned replacement (docs: "Domain lookups").
  const planned = new Set(['companies_domain_key']);
  const breaking = (await uniqueIndexes())
    .filter((i) => live.has(i.table) && placements.get(i.table)?.placement === 'distributed' && !exceptions.has(i.table) && !planned.has(i.index))
    .filter((i) => !i.columns.includes(placements.get(i.table)!.column!))
    .map((i) => `${i.table}.${i.index} (${i.columns.join(', ')})`);
  assert.deepEqual(breaking, [], `unique indexes without the distribution column: ${breaking.join('; ')}`);
  for (const [t, p] of placements) {
    if (p.placement === 'distributed') assert.ok(p.column, `${t}: a distributed table names its column`);
  }
});
