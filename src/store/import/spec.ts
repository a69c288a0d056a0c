// What one import kind is, as data: the staged columns, the in-file keys and reference
// checks, the target table and how its rows are written. The stage (stage.ts) runs the
// checks, the write step (upsert.ts) builds its statements from the same spec; both read
// these types from here, so neither imports the other's module for them.
import type { PgType } from './load.ts';

/** A rule over staged rows: every row matching `where` is rejected with `message`. */
export interface StageCheck {
  /** Input field reported. */
  field: string;
  /** SQL condition over the staged row `s` (and the rows `join` adds). */
  where: string;
  /** SQL text expression over `s` (and the rows `join` adds): the reason. */
  message: string;
  /**
   * Joins of `s` with the rows the check compares it to, on a unique key (no staged row
   * multiplies). A join, not a subquery per staged row: Citus refuses a correlated subquery
   * from the staging table (a local table) into a distributed one.
   */
  join?: string;
  /** A plain reference (`column` names a row of `table.key`, a unique key): such checks run
   *  together as one pass of LEFT JOINs instead of one anti-join each. */
  exists?: { column: string; table: string; key: string };
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
  /**
   * Staged columns that name companies by domain. Before the checks, their companies are
   * resolved through company_domains into the temporary table `import_companies (domain, id)`
   * (migration 055), which `checks`, `from` and `marks` join instead of `companies`: joins of
   * local tables, whatever the engine (on Citus, companies are sharded by id).
   */
  companies?: string[];
  /** FROM clause producing the rows to upsert; staged rows are `import_stage s`. */
  from: string;
  conflict: string[];
  upsert: UpsertColumn[];
  /**
   * Column set to the write's time when a row changes: the coordinator's now(), read once and
   * passed as a value, because on Citus now() inside a statement that runs on the workers is
   * each worker's own transaction time.
   */
  touch?: string;
  /** Before the write (after `notes.before`): statements that prepare it (not counted). */
  before?: string[];
  /** After the upsert: a statement returning `deleted` (rows the file replaces away). */
  deleteMissing?: string;
  /**
   * After the write, when it changed anything: a statement adding the companies whose
   * derived data the change makes stale to refresh_pending (the incremental refresh's work
   * list). Rows written by this import carry `updated_at = $1` (the write's time, see `touch`).
   */
  marks?: string;
  /** After the upsert: statements that re-derive dependent values (not counted). */
  after?: string[];
  /**
   * What the import notes of its change (store/change-notes.ts), as the writer: `before`
   * runs before the write (it keeps what the notes compare against), `after` once the
   * write changed anything (version bumps, world changes, events), `afterInserts` once it
   * added a row.
   */
  notes?: { before?: string[]; after?: string[]; afterInserts?: string[] };
  /** Kinds of millions of rows: written as UPDATE changed + INSERT new (upsert.ts). `from`
   *  must yield one row per staged row once the checks pass (joins on unique keys only). */
  bulk?: {
    /** The tables every foreign key of `table` points to, all verified by `checks`; see
     *  ImportStage.foreignKeysVerified for the locks and the skipped triggers. */
    references: string[];
    /** ORDER BY for new rows: the primary key, so its index fills in order. */
    order?: string;
  };
}
