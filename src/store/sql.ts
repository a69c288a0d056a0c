// Small helpers for building parameterized SQL in store modules: numbered placeholders
// and LIKE patterns with the wildcards of user text escaped. A fixed statement numbers its
// `$n` by hand; a statement whose conditions vary with the input collects its values in
// one `Params`, so placeholders and values cannot fall out of step.

/** Collects parameters and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  /** Adds a value and returns its placeholder, with an explicit cast when given. */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/** `%text%` for ILIKE, with %, _ and \ of the user text matched literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Reads a keyset-ordered table in batches: `fetch(after)` returns up to `batchSize` rows
 * after the given row (null = from the start). The next batch is asked for as soon as a full
 * one arrives, so the database reads it while the caller consumes this one (an export
 * encodes CSV meanwhile): memory stays at two batches, and the wall time nears the larger of
 * the two sides instead of their sum.
 */
export async function* inBatches<R>(fetch: (after: R | null) => Promise<R[]>, batchSize: number): AsyncGenerator<R> {
  let next: Promise<R[]> | null = fetch(null);
  try {
    while (next) {
      const rows: R[] = await next;
      next = rows.length < batchSize ? null : fetch(rows[rows.length - 1]!);
      // Settled either way: if the consumer stops early, the prefetch's failure is not unhandled.
      next?.catch(() => {});
      yield* rows;
    }
  } finally {
    // A consumer that stopped early (client gone): let the prefetch finish before returning,
    // so its connection is back in the pool when the export's cleanup runs.
    await next?.catch(() => {});
  }
}
