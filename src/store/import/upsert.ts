// The write step of an import, built from a StageSpec: one INSERT ... ON CONFLICT for the
// small kinds, and for bulk kinds an UPDATE of the changed rows followed by an INSERT of
// the new keys. Both rewrite only rows whose values differ (`IS DISTINCT FROM`), so a
// re-import of the same file changes no row.
import type pg from 'pg';
import type { StageSpec, UpsertColumn } from './spec.ts';

export interface WriteCounts {
  inserted: number;
  updated: number;
}

/** Columns an existing row gets from the file: not the key, not insert-only, and fed by
 *  a field the file mentions (or by no field at all). */
function updatableColumns(spec: StageSpec, present: ReadonlySet<string>): UpsertColumn[] {
  return spec.upsert.filter((c) => !spec.conflict.includes(c.target) && !c.insertOnly && (c.fields === undefined || c.fields.some((f) => present.has(f))));
}

function distinct(mine: string[], theirs: string[]): string {
  return mine.length === 1 ? `${mine[0]} IS DISTINCT FROM ${theirs[0]}` : `ROW(${mine.join(', ')}) IS DISTINCT FROM ROW(${theirs.join(', ')})`;
}

/** One statement: inserts new rows, updates changed ones, leaves identical ones alone. */
export async function upsert(client: pg.PoolClient, spec: StageSpec, present: ReadonlySet<string>, at: string): Promise<WriteCounts> {
  const updatable = updatableColumns(spec, present);
  let onConflict = 'DO NOTHING';
  if (updatable.length > 0) {
    const set = updatable.map((c) => `${c.target} = EXCLUDED.${c.target}`);
    // The proposed row's value, not now() itself: Citus refuses any function that is not
    // immutable in the DO UPDATE SET of a distributed table.
    if (spec.touch) set.push(`${spec.touch} = EXCLUDED.${spec.touch}`);
    const where = distinct(
      updatable.map((c) => `t.${c.target}`),
      updatable.map((c) => `EXCLUDED.${c.target}`),
    );
    onConflict = `DO UPDATE SET ${set.join(', ')} WHERE ${where}`;
  }
  const columns = withTouch(spec);
  const sql = `WITH up AS (
      INSERT INTO ${spec.table} AS t (${columns.map((c) => c.target).join(', ')})
      SELECT ${columns.map((c) => c.expr).join(', ')} FROM ${spec.from}
      ON CONFLICT (${spec.conflict.join(', ')}) ${onConflict}
      RETURNING (t.xmax = 0) AS inserted)
    SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM up`;
  const [counts] = (await client.query(sql, spec.touch ? [at] : [])).rows;
  return { inserted: counts.inserted, updated: counts.updated };
}

/**
 * Bulk kinds, with the target locked against other writers (SHARE ROW EXCLUSIVE, see
 * ImportStage.check): UPDATE the rows that differ, then INSERT the keys that are not there.
 * Measured on 1M installs against the single ON CONFLICT statement: a new row skips the
 * speculative insertion (one index probe and one WAL record fewer), and an unchanged row is
 * only read, where ON CONFLICT DO UPDATE ... WHERE locks it (a WAL record and a dirtied page
 * per row) even when it then writes nothing. New rows go in key order (`spec.bulk.order`)
 * so the primary key index fills page by page instead of at random.
 * One join of the file's rows with the stored ones feeds the UPDATE and counts the keys that
 * exist: when all do (a re-import) there is no INSERT, when none do (new data) the INSERT
 * needs no anti-join with the target; only a mix pays for a second join (an outer join, not
 * NOT EXISTS: Citus refuses a subquery per staged row into a distributed table; PostgreSQL
 * plans both as the same anti-join).
 */
export async function updateThenInsert(
  client: pg.PoolClient,
  spec: StageSpec,
  present: ReadonlySet<string>,
  at: string,
  skipForeignKeyTriggers: boolean,
): Promise<WriteCounts> {
  const updatable = updatableColumns(spec, present);
  const expr = (target: string) => spec.upsert.find((c) => c.target === target)!.expr;
  const sameKey = (a: string, b: string) => spec.conflict.map((k) => `${a}.${k} = ${b}.${k}`).join(' AND ');
  const source = [...spec.conflict, ...updatable.map((c) => c.target)];
  const changed =
    updatable.length > 0
      ? distinct(
          updatable.map((c) => `t.${c.target}`),
          updatable.map((c) => `x.${c.target}`),
        )
      : 'false';
  const set = updatable.map((c) => `${c.target} = m.${c.target}`);
  if (spec.touch) set.push(`${spec.touch} = $1::timestamptz`);
  // `from` yields one row per staged row once the checks passed (references resolve to
  // unique keys, no key repeats), so `staged` is the number of rows to write.
  const [counts] = (
    await client.query(
      `WITH x AS (SELECT ${source.map((target) => `${expr(target)} AS ${target}`).join(', ')} FROM ${spec.from}),
        m AS MATERIALIZED (SELECT x.*, ${changed} AS import_changed FROM x JOIN ${spec.table} t ON ${sameKey('t', 'x')})
        ${updatable.length > 0 ? `, u AS (UPDATE ${spec.table} AS t SET ${set.join(', ')} FROM m WHERE m.import_changed AND ${sameKey('t', 'm')} RETURNING 1)` : ''}
      SELECT (SELECT count(*) FROM import_stage)::int AS staged, (SELECT count(*) FROM m)::int AS matched,
        ${updatable.length > 0 ? '(SELECT count(*) FROM u)' : '0'}::int AS updated`,
      updatable.length > 0 && spec.touch ? [at] : [],
    )
  ).rows;
  if (counts.matched >= counts.staged) return { inserted: 0, updated: counts.updated };
  const missing = spec.conflict.map((k) => `t.${k} = ${expr(k)}`).join(' AND ');
  const columns = withTouch(spec);
  const sql = `INSERT INTO ${spec.table} (${columns.map((c) => c.target).join(', ')})
    SELECT ${columns.map((c) => c.expr).join(', ')} FROM ${spec.from}
    ${counts.matched > 0 ? `LEFT JOIN ${spec.table} t ON ${missing} WHERE t.${spec.conflict[0]} IS NULL` : ''}
    ${spec.bulk?.order ? `ORDER BY ${spec.bulk.order}` : ''}`;
  // Only around this statement (see ImportStage.foreignKeysVerified for why it is safe); the
  // UPDATE changes no key column, so its foreign-key checks are skipped by PostgreSQL itself.
  // A failed INSERT aborts the transaction, whose ROLLBACK undoes the SET LOCAL.
  let restore: string | undefined;
  if (skipForeignKeyTriggers) {
    restore = (await client.query(`SELECT current_setting('session_replication_role') AS role`)).rows[0].role;
    await client.query(`SET LOCAL session_replication_role = replica`);
  }
  const inserted = (await client.query(sql, spec.touch ? [at] : [])).rowCount ?? 0;
  if (restore !== undefined) await client.query(`SELECT set_config('session_replication_role', $1, true)`, [restore]);
  return { inserted, updated: counts.updated };
}

/** The columns an INSERT writes: the spec's, and the touch column with the write's time ($1). */
function withTouch(spec: StageSpec): UpsertColumn[] {
  return spec.touch ? [...spec.upsert, { target: spec.touch, expr: '$1::timestamptz' }] : spec.upsert;
}
