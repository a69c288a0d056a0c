// The row types of src/db/schema.ts are hand-declared: this test holds them to the
// migrated database (information_schema), on whichever engine the suite runs, so a
// migration that adds, drops, retypes or re-nulls a column fails here until schema.ts
// says the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { parseColumnSpec, TABLES, type ColumnSpec } from '../../src/db/schema.ts';

/** One line per column, `table.column udt [null] [default]`, as schema.ts declares them. */
function declaredColumns(): string[] {
  return Object.entries(TABLES)
    .flatMap(([table, columns]) =>
      Object.entries(columns as Record<string, ColumnSpec>).map(([column, spec]) => {
        const c = parseColumnSpec(spec);
        return describe(table, column, c.udt, c.nullable, c.hasDefault);
      }),
    )
    .sort();
}

/** The same lines read from the database: every column of every base table in the schema. */
async function actualColumns(db: Db): Promise<string[]> {
  const rows = await db.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; column_default: string | null }>(
    `SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable, c.column_default
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  );
  return rows.map((r) => describe(r.table_name, r.column_name, r.udt_name, r.is_nullable === 'YES', r.column_default !== null)).sort();
}

function describe(table: string, column: string, udt: string, nullable: boolean, hasDefault: boolean): string {
  return `${table}.${column} ${udt}${nullable ? ' null' : ''}${hasDefault ? ' default' : ''}`;
}

/** Lines only in the database (+) and only in schema.ts (-). */
async function drift(db: Db): Promise<string[]> {
  const declared = new Set(declaredColumns());
  const actual = new Set(await actualColumns(db));
  return [...[...actual].filter((l) => !declared.has(l)).map((l) => `+ ${l}`), ...[...declared].filter((l) => !actual.has(l)).map((l) => `- ${l}`)];
}

test('schema.ts declares every column of the migrated database, with its type, nullability and default', async () => {
  const db = await createTestDb();
  try {
    assert.deepEqual(await drift(db), [], 'src/db/schema.ts differs from the migrations (+ only in the database, - only in schema.ts)');
  } finally {
    await db.close();
  }
});

test('a migration the declaration does not know about is caught', async () => {
  const db = await createTestDb();
  try {
    await migrate(db, [
      {
        version: 9001,
        name: '9001_drift',
        sql: `ALTER TABLE vendors ADD COLUMN twitter_url text;
              ALTER TABLE people ALTER COLUMN title SET NOT NULL;
              CREATE TABLE notes (id bigserial PRIMARY KEY, body text NOT NULL)`,
      },
    ]);
    assert.deepEqual((await drift(db)).sort(), [
      '+ notes.body text',
      '+ notes.id int8 default',
      '+ people.title text',
      '+ vendors.twitter_url text null',
      '- people.title text null',
    ]);
  } finally {
    await db.close();
  }
});
