// What one import kind is, as data: the staged columns, the in-file keys and reference
// checks, the target table and how its rows are written. The stage (stage.ts) runs the
// checks, the write step (upsert.ts) builds its statements from the same spec; both read
// these types from here, so neither imports the other's module for them.
import type { PgType } from './load.ts';

/** A rule over staged rows: every row matching `where` is rejected with `message`. */
export interface StageCheck {
  /** Input field reported. */
  field: string;
  /** SQL condition over the staged row `s`. */
  where: string;
  /** SQL text expression over `s`: the reason. */
  message: string;
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
  /** FROM clause producing the rows to upsert; staged rows are `import_stage s`. */
  from: string;
  conflict: string[];
  upsert: UpsertColumn[];
  /** Column set to now() when a row changes; it must default to now() (ON CONFLICT takes the proposed row's value). */
  touch?: string;
  /** After the upsert: a statement returning `deleted` (rows the file replaces away). */
  deleteMissing?: string;
  /**
   * After the write, when it changed anything: a statement adding the companies whose
   * derived data the change makes stale to refresh_pending (the incremental refresh's work
   * list). Rows written by this transaction carry `updated_at = now()` (its start time).
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
