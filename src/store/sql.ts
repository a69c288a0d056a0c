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
 * after the given row (null = from the start). Memory stays at one batch.
 */
export async function* inBatches<R>(fetch: (after: R | null) => Promise<R[]>, batchSize: number): AsyncGenerator<R> {
  let after: R | null = null;
  for (;;) {
    const rows = await fetch(after);
    yield* rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!;
  }
}
