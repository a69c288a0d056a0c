// The set-based half of an import, on one client inside the caller's transaction:
// a TEMP staging table (filled by COPY, or unnest batches on PGlite: load.ts), reference and
// duplicate checks that record rejected lines in SQL, and one write per file that rewrites
// only changed rows (upsert.ts).
import type pg from 'pg';
import type { Engine } from '../../db/db.ts';
import { copyLoader, unnestLoader, type StageBatch, type StageLoader } from './load.ts';
import type { StageCheck, StageSpec } from './spec.ts';
import { updateThenInsert, upsert, type WriteCounts } from './upsert.ts';
import type { RecordError } from '../../records.ts';

/** One problem with one input line (a line can have several): the record reader's error. */
export type RowError = RecordError;

export class ImportStage {
  private readonly names: string[];
  private readonly loader: StageLoader;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly spec: StageSpec,
    engine: Engine,
  ) {
    this.names = Object.keys(spec.columns);
    const types = this.names.map((n) => spec.columns[n]!);
    this.loader = (engine === 'postgres' ? copyLoader : unnestLoader)(client, this.names, types);
  }

  /** The stage column names, in the order `StageBatch.values` uses. */
  get columnNames(): readonly string[] {
    return this.names;
  }

  async create(): Promise<void> {
    // Hash joins and aggregates over a whole file (a million rows) stay in memory instead of
    // spilling in batches; for this transaction only.
    await this.client.query(`SET LOCAL work_mem = '256MB'`);
    const cols = this.names.map((n) => `${n} ${this.spec.columns[n]}`).join(', ');
    await this.client.query(`CREATE TEMP TABLE import_stage (line int NOT NULL, ${cols}) ON COMMIT DROP`);
    await this.client.query('CREATE TEMP TABLE import_rejects (line int NOT NULL, field text NOT NULL, message text NOT NULL) ON COMMIT DROP');
  }

  /** Stages one batch; the next batch may be prepared while it is written. */
  insert(batch: StageBatch): Promise<void> {
    return this.loader.add(batch);
  }

  /** Completes the staging; required before any other statement. */
  finish(): Promise<void> {
    return this.loader.finish();
  }

  /** After a failure while staging: frees the client for ROLLBACK. */
  abort(err: Error): Promise<void> {
    return this.loader.abort(err);
  }

  /** Runs every duplicate and reference check; returns the first `limit` errors by line. */
  async check(limit: number): Promise<{ rejected: number; errorCount: number; errors: RowError[] }> {
    const { spec } = this;
    if (spec.bulk) {
      // Referenced tables first, then the target: the order in which a cascading delete
      // of a company takes them, so the two cannot deadlock.
      await this.client.query(`LOCK TABLE ${spec.bulk.references.join(', ')} IN SHARE MODE`);
      // No other writer between our UPDATE and INSERT (readers go on); imports of the same
      // table run one after the other.
      await this.client.query(`LOCK TABLE ${spec.table} IN SHARE ROW EXCLUSIVE MODE`);
    }
    await this.client.query('ANALYZE import_stage');
    if (spec.companies) {
      await this.client.query('CREATE TEMP TABLE import_companies (domain text PRIMARY KEY, id text NOT NULL) ON COMMIT DROP');
      await this.client.query(resolveCompanies(spec.companies.map((c) => `SELECT ${c} FROM import_stage`).join(' UNION ')));
      await this.client.query('ANALYZE import_companies');
    }
    for (const key of spec.keys) {
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
    const refs = spec.checks.filter((c) => c.exists);
    if (refs.length > 0) await this.checkReferences(refs);
    for (const check of spec.checks.filter((c) => !c.exists)) {
      await this.client.query(
        `INSERT INTO import_rejects (line, field, message) SELECT s.line, $1, ${check.message} FROM import_stage s ${check.join ?? ''} WHERE ${check.where}`,
        [check.field],
      );
    }
    const [totals] = (await this.client.query('SELECT count(DISTINCT line)::int AS rejected, count(*)::int AS total FROM import_rejects')).rows;
    const errors = await this.client.query('SELECT line, field, message FROM import_rejects ORDER BY line, field, message LIMIT $1', [limit]);
    return { rejected: totals.rejected, errorCount: totals.total, errors: errors.rows as RowError[] };
  }

  /** Every plain reference in one pass over the stage: one LEFT JOIN per referenced key
   *  (unique, so no row multiplies), one error row per missing reference. */
  private async checkReferences(checks: StageCheck[]): Promise<void> {
    const joins = checks.map(({ exists: e }, i) => `LEFT JOIN ${e!.table} r${i} ON r${i}.${e!.key} = s.${e!.column}`);
    const missing = checks.map(({ exists: e }, i) => `(s.${e!.column} IS NOT NULL AND r${i}.${e!.key} IS NULL)`);
    const rows = checks.map((c, i) => `($${i + 1}::text, CASE WHEN ${missing[i]} THEN ${c.message} END)`);
    await this.client.query(
      `INSERT INTO import_rejects (line, field, message)
       SELECT s.line, e.field, e.message FROM import_stage s ${joins.join(' ')}
       CROSS JOIN LATERAL (VALUES ${rows.join(', ')}) AS e(field, message)
       WHERE (${missing.join(' OR ')}) AND e.message IS NOT NULL`,
      checks.map((c) => c.field),
    );
  }

  /** Writes the checked rows: inserts new ones, updates changed ones, leaves identical ones. */
  async write(presentFields: ReadonlySet<string>): Promise<{ inserted: number; updated: number; deleted: number }> {
    const { spec } = this;
    // The write's time, from the coordinator on Citus (see StageSpec.touch); now() elsewhere.
    const [{ at }] = (await this.client.query('SELECT now()::text AS at')).rows; // text: microseconds kept
    for (const stmt of spec.notes?.before ?? []) await this.client.query(stmt);
    for (const stmt of spec.before ?? []) await this.client.query(stmt);
    const counts: WriteCounts = spec.bulk
      ? await updateThenInsert(this.client, spec, presentFields, at, await this.foreignKeysVerified())
      : await upsert(this.client, spec, presentFields, at);
    let deleted = 0;
    if (spec.deleteMissing) deleted = Number((await this.client.query(spec.deleteMissing)).rows[0]?.deleted ?? 0);
    for (const stmt of spec.after ?? []) await this.client.query(stmt);
    const changed = counts.inserted + counts.updated + deleted > 0;
    if (spec.marks && changed) await this.client.query(spec.marks, spec.marks.includes('$1') ? [at] : []);
    if (changed) for (const stmt of spec.notes?.after ?? []) await this.client.query(stmt);
    if (counts.inserted > 0) for (const stmt of spec.notes?.afterInserts ?? []) await this.client.query(stmt);
    return { ...counts, deleted };
  }

  /**
   * Whether the INSERT of a bulk kind may skip the per-row foreign-key triggers
   * (session_replication_role = replica), which cost more CPU than the insert itself
   * (measured: 6.2 s → 15 s of server CPU for 1M installs). It is safe because:
   * - every foreign key of the table points to a table in `bulk.references` (the query
   *   below refuses any other), and `checks` verified every staged reference (the INSERT
   *   takes company ids from a join, so they exist by construction);
   * - check() took those tables in SHARE mode before the checks ran, in READ COMMITTED (the
   *   importer begins so; each statement sees what was committed before the lock), so no
   *   referenced row can be deleted or re-keyed until COMMIT;
   * - replica mode turns off every trigger and rule, not only foreign keys: so it is used
   *   only when the table has no trigger but the checks of those foreign keys and no rule
   *   (this query), and only for the one INSERT statement;
   * - only a role that may set it does (a superuser, or from PostgreSQL 15 a role granted
   *   `SET ON PARAMETER session_replication_role`); anyone else gets the ordinary checks.
   */
  private async foreignKeysVerified(): Promise<boolean> {
    const [version] = (await this.client.query(`SELECT current_setting('server_version_num')::int AS num`)).rows;
    const allowed = version.num >= 150000 ? `has_parameter_privilege('session_replication_role', 'SET')` : `current_setting('is_superuser') = 'on'`;
    const { rows } = await this.client.query(
      `SELECT ${allowed}
          AND NOT EXISTS (
            SELECT 1 FROM pg_trigger g WHERE g.tgrelid = $1::regclass AND g.tgenabled <> 'D'
              AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.oid = g.tgconstraint AND k.contype = 'f'
                                AND k.conrelid = g.tgrelid AND k.confrelid = ANY ($2::text[]::regclass[])))
          AND NOT EXISTS (SELECT 1 FROM pg_rewrite r WHERE r.ev_class = $1::regclass) AS ok`,
      [this.spec.table, this.spec.bulk!.references],
    );
    return rows[0]?.ok === true;
  }
}

/**
 * Adds to `import_companies` the companies of the domains `domains` (a query of one column)
 * names, as company_domains has them: a filter of the distributed lookup by a subquery of
 * local rows, which Citus runs first and sends to the shards.
 */
export function resolveCompanies(domains: string): string {
  return `INSERT INTO import_companies (domain, id)
    SELECT d.domain, d.company_id FROM company_domains d WHERE d.domain IN (${domains})
    ON CONFLICT (domain) DO NOTHING`;
}
