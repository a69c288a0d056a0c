// The set-based half of an import, on one client inside the caller's transaction:
// a TEMP staging table filled in `unnest` batches, reference and duplicate checks that
// record rejected lines in SQL, and one upsert per file that rewrites only changed rows.
import type pg from 'pg';

/** One problem with one input line (a line can have several). */
export interface RowError {
  /** 1-based physical line of the file where the record starts (the header is line 1). */
  line: number;
  /** The input field (column / JSON key) at fault; `(row)` for the record as a whole. */
  field: string;
  message: string;
}

export type PgType = 'text' | 'int' | 'bigint' | 'real' | 'bool' | 'timestamptz' | 'jsonb' | 'text[]';

/** A rule over staged rows: every row matching `where` is rejected with `message`. */
export interface StageCheck {
  /** Input field reported. */
  field: string;
  /** SQL condition over the staged row `s`. */
  where: string;
  /** SQL text expression over `s`: the reason. */
  message: string;
}

/** A natural key that must not repeat inside one file (the upsert could not apply both). */
export interface StageKey {
  field: string;
  /** Input field names, for the message. */
  fields: string[];
  columns: string[];
}

export interface UpsertColumn {
  target: string;
  /** SQL over the `from` clause. */
  expr: string;
  /** Input fields that feed it. When none of them appears anywhere in the file, an
   *  existing row keeps its value (the file does not speak about that column). */
  fields?: string[];
  /** Written when the row is inserted, never changed afterwards (ids). */
  insertOnly?: boolean;
}

export interface StageSpec {
  columns: Record<string, PgType>;
  keys: StageKey[];
  checks: StageCheck[];
  table: string;
  /** FROM clause producing the rows to upsert; staged rows are `import_stage s`. */
  from: string;
  conflict: string[];
  upsert: UpsertColumn[];
  /** Column set to now() when a row changes. */
  touch?: string;
  /** After the upsert: a statement returning `deleted` (rows the file replaces away). */
  deleteMissing?: string;
  /** After the upsert: statements that re-derive dependent values (not counted). */
  after?: string[];
  /**
   * Bulk kinds: the tables every foreign key of `table` points to, all verified by `checks`.
   * They are locked in SHARE mode before the checks (no concurrent delete can invalidate
   * them before COMMIT), and when the role may (superuser) the upsert skips the per-row
   * foreign-key triggers, which otherwise cost as much as the insert itself.
   */
  references?: string[];
}

/** One batch in columnar form: `lines[i]` and `values[c][i]` describe row i. */
export interface StageBatch {
  lines: number[];
  values: unknown[][];
}

const PARAM_TYPE: Record<PgType, string> = {
  text: 'text[]',
  int: 'int[]',
  bigint: 'bigint[]',
  real: 'real[]',
  bool: 'bool[]',
  timestamptz: 'timestamptz[]',
  jsonb: 'text[]',
  'text[]': 'text[]',
};

/** A PostgreSQL array literal: unnest cannot take an array of arrays, so list columns
 *  travel as one literal per row and are cast back on the server. */
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((s) => `"${s.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

export class ImportStage {
  private readonly names: string[];
  private readonly insertSql: string;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly spec: StageSpec,
  ) {
    this.names = Object.keys(spec.columns);
    const types = this.names.map((n) => spec.columns[n]!);
    const params = ['$1::int[]', ...types.map((t, i) => `$${i + 2}::${PARAM_TYPE[t]}`)].join(', ');
    const select = this.names.map((n, i) => (types[i] === 'jsonb' || types[i] === 'text[]' ? `u.${n}::${types[i]}` : `u.${n}`));
    this.insertSql =
      `INSERT INTO import_stage (line, ${this.names.join(', ')}) ` +
      `SELECT u.line, ${select.join(', ')} FROM unnest(${params}) AS u(line, ${this.names.join(', ')})`;
  }

  /** The stage column names, in the order `StageBatch.values` uses. */
  get columnNames(): readonly string[] {
    return this.names;
  }

  async create(): Promise<void> {
    const cols = this.names.map((n) => `${n} ${this.spec.columns[n]}`).join(', ');
    await this.client.query(`CREATE TEMP TABLE import_stage (line int NOT NULL, ${cols}) ON COMMIT DROP`);
    await this.client.query('CREATE TEMP TABLE import_rejects (line int NOT NULL, field text NOT NULL, message text NOT NULL) ON COMMIT DROP');
  }

  async insert(batch: StageBatch): Promise<void> {
    if (batch.lines.length === 0) return;
    const values = batch.values.map((col, i) => {
      const t = this.spec.columns[this.names[i]!];
      if (t === 'text[]') return col.map((v) => (v == null ? null : arrayLiteral(v as string[])));
      if (t === 'jsonb') return col.map((v) => (v == null ? null : JSON.stringify(v)));
      return col;
    });
    await this.client.query(this.insertSql, [batch.lines, ...values]);
  }

  /** Runs every duplicate and reference check; returns the first `limit` errors by line. */
  async check(limit: number): Promise<{ rejected: number; errorCount: number; errors: RowError[] }> {
    if (this.spec.references) await this.client.query(`LOCK TABLE ${this.spec.references.join(', ')} IN SHARE MODE`);
    await this.client.query('ANALYZE import_stage');
    for (const key of this.spec.keys) {
      const on = key.columns.map((c) => `s.${c} = d.${c}`).join(' AND ');
      const notNull = key.columns.map((c) => `${c} IS NOT NULL`).join(' AND ');
      await this.client.query(
        `INSERT INTO import_rejects (line, field, message)
         SELECT s.line, $1, format('duplicate of line %s (same %s)', d.first_line, $2::text)
         FROM import_stage s
         JOIN (SELECT ${key.columns.join(', ')}, min(line) AS first_line FROM import_stage
               WHERE ${notNull} GROUP BY ${key.columns.join(', ')} HAVING count(*) > 1) d ON ${on}
         WHERE s.line <> d.first_line`,
        [key.field, key.fields.join(' + ')],
      );
    }
    for (const check of this.spec.checks) {
      await this.client.query(
        `INSERT INTO import_rejects (line, field, message) SELECT s.line, $1, ${check.message} FROM import_stage s WHERE ${check.where}`,
        [check.field],
      );
    }
    const [totals] = (await this.client.query('SELECT count(DISTINCT line)::int AS rejected, count(*)::int AS total FROM import_rejects')).rows;
    const errors = await this.client.query('SELECT line, field, message FROM import_rejects ORDER BY line, field, message LIMIT $1', [limit]);
    return { rejected: totals.rejected, errorCount: totals.total, errors: errors.rows as RowError[] };
  }

  /** The upsert: inserts new rows, updates changed ones, leaves identical ones alone. */
  async write(presentFields: ReadonlySet<string>): Promise<{ inserted: number; updated: number; deleted: number }> {
    const { spec } = this;
    const targets = spec.upsert.map((c) => c.target);
    const updatable = spec.upsert.filter(
      (c) => !spec.conflict.includes(c.target) && !c.insertOnly && (c.fields === undefined || c.fields.some((f) => presentFields.has(f))),
    );
    let onConflict = 'DO NOTHING';
    if (updatable.length > 0) {
      const set = updatable.map((c) => `${c.target} = EXCLUDED.${c.target}`);
      if (spec.touch) set.push(`${spec.touch} = now()`);
      const mine = updatable.map((c) => `t.${c.target}`).join(', ');
      const theirs = updatable.map((c) => `EXCLUDED.${c.target}`).join(', ');
      const distinct = updatable.length === 1 ? `${mine} IS DISTINCT FROM ${theirs}` : `ROW(${mine}) IS DISTINCT FROM ROW(${theirs})`;
      onConflict = `DO UPDATE SET ${set.join(', ')} WHERE ${distinct}`;
    }
    const sql = `WITH up AS (
        INSERT INTO ${spec.table} AS t (${targets.join(', ')})
        SELECT ${spec.upsert.map((c) => c.expr).join(', ')} FROM ${spec.from}
        ON CONFLICT (${spec.conflict.join(', ')}) ${onConflict}
        RETURNING (t.xmax = 0) AS inserted)
      SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM up`;
    const skipTriggers = this.spec.references !== undefined && (await this.isSuperuser());
    // Only for this one statement: every reference was checked under the SHARE locks.
    if (skipTriggers) await this.client.query('SET LOCAL session_replication_role = replica');
    const [counts] = (await this.client.query(sql)).rows;
    if (skipTriggers) await this.client.query('SET LOCAL session_replication_role = origin');
    let deleted = 0;
    if (spec.deleteMissing) deleted = Number((await this.client.query(spec.deleteMissing)).rows[0]?.deleted ?? 0);
    for (const stmt of spec.after ?? []) await this.client.query(stmt);
    return { inserted: counts.inserted, updated: counts.updated, deleted };
  }

  private async isSuperuser(): Promise<boolean> {
    const { rows } = await this.client.query(`SELECT current_setting('is_superuser') = 'on' AS su`);
    return rows[0]?.su === true;
  }
}
