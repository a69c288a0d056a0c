// Shared types of the importers: the kinds, the input formats, the row errors and the
// summary an import returns to its caller (CLI, tests, bench).
import type { RowError } from '../../store/import/stage.ts';

export type { RowError };

export const IMPORT_KINDS = [
  'industries',
  'categories',
  'vendors',
  'products',
  'companies',
  'firmographics',
  'installs',
  'people',
  'contacts',
  'feed',
  'cohorts',
] as const;

export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportProgress {
  phase: 'reading' | 'checking' | 'writing' | 'done';
  rowsRead: number;
  bytesRead: number;
  /** File size when known (not for stdin). */
  totalBytes: number | undefined;
}

export interface ImportSummary {
  kind: ImportKind;
  format: ImportFormat;
  /** True when the rows were written; false when any row was rejected (nothing written). */
  committed: boolean;
  /** Data records read (CSV: without the header). */
  rowsRead: number;
  inserted: number;
  updated: number;
  /** Valid rows identical to what was stored: not rewritten. */
  unchanged: number;
  /** Rows removed because the file replaces a set (defined cohorts only). */
  deleted: number;
  /** Distinct lines with at least one error. */
  rejected: number;
  /** The first errors, by line (at most `maxErrors`). */
  errors: RowError[];
  /** Every error found, including those not listed. */
  errorCount: number;
  elapsedMs: number;
  rowsPerSecond: number;
  /** Where the time went, for committed imports: reading + validating + staging, the
   *  checks, and the upsert with COMMIT. */
  timings?: { readMs: number; checkMs: number; writeMs: number };
}
