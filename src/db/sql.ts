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
 * A PostgreSQL regular expression that finds `phrase` as whole words (case-insensitive with
 * `~*`): not inside a longer word ("cto" is not found in "Director"), spaces matching any
 * run of white space. Every other non-alphanumeric character is escaped (in an ARE, a
 * backslash before one means the character itself).
 */
function wordsPattern(phrase: string): string {
  const words = phrase
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`));
  return `(^|[^[:alnum:]])${words.join('\\s+')}($|[^[:alnum:]])`;
}

/**
 * `column` holds any of the phrases as whole words. The ILIKE on the same phrases is implied
 * by the word match; it is there so a trigram index on the column can narrow the rows before
 * the regular expressions are checked.
 */
export function phrasesCondition(column: string, phrases: string[], p: Params): string {
  // Words in order with anything between them: implied by the word pattern (any run of spaces).
  const likes = phrases.map(
    (phrase) =>
      `%${phrase
        .trim()
        .split(/\s+/)
        .map((w) => containsPattern(w).slice(1, -1))
        .join('%')}%`,
  );
  return `(${column} ILIKE ANY(${p.add(likes, 'text[]')}) AND ${column} ~* ANY(${p.add(phrases.map(wordsPattern), 'text[]')}))`;
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
