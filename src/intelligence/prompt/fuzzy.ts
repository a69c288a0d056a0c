// Approximate string matching for typos ("hubspt" → HubSpot): character trigrams as
// pg_trgm computes them (to find candidates quickly through an inverted index), then an edit distance (optimal string alignment, i.e. Damerau-
// Levenshtein without repeated edits of one substring) to decide.

/** pg_trgm-style trigrams of one compact key: padded with two spaces in front, one behind. */
export function trigrams(s: string): string[] {
  const padded = `  ${s} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/**
 * Optimal-string-alignment distance (insert, delete, substitute, swap two neighbours),
 * stopping early once the distance must exceed `max` (returns max + 1 then).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/**
 * How many edits a typo of a name of this length may carry. Short names get none: at four
 * letters one edit already turns most words into other words.
 */
export function allowedEdits(length: number): number {
  if (length < 5) return 0;
  if (length < 9) return 1;
  return 2;
}

/** Similarity of a typo to a name, 0-1, from the edit distance. */
export function typoScore(distance: number, length: number): number {
  return Math.round((1 - distance / Math.max(1, length)) * 1000) / 1000;
}

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const KEY_POS = new Map<string, [number, number]>();
ROWS.forEach((row, r) => [...row].forEach((c, i) => KEY_POS.set(c, [r, i])));

/** Whether two letters sit next to each other on a QWERTY keyboard. */
function adjacentKeys(a: string, b: string): boolean {
  const p = KEY_POS.get(a);
  const q = KEY_POS.get(b);
  if (!p || !q || a === b) return false;
  const dr = Math.abs(p[0] - q[0]);
  const dc = q[1] - p[1];
  return (dr === 0 && Math.abs(dc) === 1) || (dr === 1 && (q[0] > p[0] ? dc === -1 || dc === 0 : dc === 0 || dc === 1));
}

/** Optimal-string-alignment distance where substituting a neighbouring key costs 0.5. */
export function keyboardDistance(a: string, b: string): number {
  const n = b.length;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= n; j++) {
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      const sub = x === y ? 0 : adjacentKeys(x, y) ? 0.5 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + sub);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![n]!;
}
