// Where a pattern's match can start, from where a run of its literal text first occurs. Every
// match holds the run (its literal, rules.ts requiredLiteral, or another run of the top level)
// after the part of the pattern written before it, so when that part is at most L characters
// long, or can never read some character such as `>` (`<img[^>]+src="…facebook.com/tr`), no match
// starts more than L characters before the run's first occurrence, nor before the last `>` ahead
// of it. Searching from there finds the very match a search from the start finds; the capturing
// automaton then reads a tag, not a kilobyte of page.
// The analysis of the pattern is conservative: what it cannot read exactly counts as unbounded,
// or as able to read every character.

/** Characters looked for before the literal: common, and never letters (case folding cannot reach them). */
const STOPS = ['>', '<', '"', "'", '\n', ' '] as const;
const ALL = (1 << STOPS.length) - 1;
const maskOf = (ch: string): number => {
  const k = (STOPS as readonly string[]).indexOf(ch);
  return k < 0 ? 0 : 1 << k;
};
/** Stops a `\s` reads. */
const SPACE_MASK = maskOf(' ') | maskOf('\n');

/** A run of literal text every match holds (lower-case), and what the pattern reads before it: at most how many characters, and which stops never. */
export interface Anchor {
  text: string;
  maxLength: number;
  /** Characters the part before the run never reads. */
  stops: string[];
}

interface Facts {
  max: number;
  /** Bit k: the part may read STOPS[k]. */
  may: number;
  end: number;
}

/** The anchor of run `text` written after `prefix` (the pattern's source before it), or null when nothing is known of the prefix (or the run is not ASCII, which lower-casing may shift). */
export function literalAnchor(prefix: string, text: string): Anchor | null {
  if (!/^[\x20-\x7e]+$/.test(text)) return null;
  const facts = sequence(prefix, 0);
  if (!facts || facts.end !== prefix.length) return null;
  const stops = STOPS.filter((_, k) => !(facts.may & (1 << k)));
  if (facts.max === Infinity && stops.length === 0) return null;
  return { text, maxLength: facts.max, stops };
}

/** An alternation of sequences, up to an unmatched `)` or the end. */
function sequence(s: string, i: number): Facts | null {
  let best = 0,
    length = 0,
    may = 0;
  while (i < s.length && s[i] !== ')') {
    const c = s[i]!;
    if (c === '|') {
      best = Math.max(best, length);
      length = 0;
      i++;
      continue;
    }
    let atom: Facts | null;
    if (c === '(') {
      let j = i + 1;
      if (s[j] === '?') {
        j++;
        if (s[j] === '<' || (s[j] === 'P' && s[j + 1] === '<')) {
          j = s.indexOf('>', j) + 1;
          if (j === 0) return null;
        } else {
          while (j < s.length && /[a-zA-Z-]/.test(s[j]!)) j++;
          // Flags alone, `(?i)`, read nothing (and none of them lets a letter fold to a stop).
          if (s[j] === ')') {
            i = j + 1;
            continue;
          }
          if (s[j] !== ':') return null;
          j++;
        }
      }
      const inner = sequence(s, j);
      if (!inner || s[inner.end] !== ')') return null;
      atom = { max: inner.max, may: inner.may, end: inner.end + 1 };
    } else if (c === '[') atom = charClass(s, i);
    else if (c === '\\') {
      const e = escape(s, i);
      atom = { max: e.width, may: e.may, end: e.end };
    } else if (c === '.') atom = { max: 1, may: ALL, end: i + 1 };
    else if (c === '^' || c === '$') atom = { max: 0, may: 0, end: i + 1 };
    else if (c === '*' || c === '+' || c === '?') return null;
    else atom = { max: 1, may: maskOf(c), end: i + 1 };
    if (!atom) return null;
    i = atom.end;
    let max = atom.max;
    const q = s[i];
    if (q === '*' || q === '+') ((max = Infinity), i++);
    else if (q === '?') i++;
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i, i + 24));
      if (m) {
        const most = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
        max = most === 0 ? 0 : max * most;
        i += m[0].length;
      }
    }
    if (s[i] === '?') i++; // lazy: reads the same characters
    length += max;
    may |= atom.may;
  }
  return { max: Math.max(best, length), may, end: i };
}

/** One escape outside a class: how many characters it reads (0 for assertions) and which stops. */
function escape(s: string, i: number): { width: number; may: number; end: number } {
  const n = s[i + 1] ?? '';
  if (!/[A-Za-z0-9]/.test(n)) return { width: 1, may: maskOf(n), end: i + 2 };
  if (n === 'b' || n === 'B' || n === 'A' || n === 'z') return { width: 0, may: 0, end: i + 2 };
  if (n === 'd' || n === 'w') return { width: 1, may: 0, end: i + 2 };
  if (n === 's') return { width: 1, may: SPACE_MASK, end: i + 2 };
  if (n === 'n') return { width: 1, may: maskOf('\n'), end: i + 2 };
  if (n === 't' || n === 'r' || n === 'f' || n === 'v' || n === 'a') return { width: 1, may: 0, end: i + 2 };
  if (n === 'Q') return { width: Infinity, may: ALL, end: s.length + 1 };
  // \x41, \x{41}, \p{L}, \pL, octal and the negated classes: any character, as far as we know.
  const braced = (n === 'x' || n === 'p' || n === 'P') && s[i + 2] === '{' ? s.indexOf('}', i + 2) : -1;
  const end =
    braced >= 0
      ? braced + 1
      : n === 'x'
        ? i + 4
        : n === 'p' || n === 'P'
          ? i + 3
          : /[0-7]/.test(n)
            ? i + 2 + /^[0-7]{0,2}/.exec(s.slice(i + 2))![0].length
            : i + 2;
  return { width: 1, may: ALL, end };
}

/** A `[...]` class: which stops it may read. Each item says which stops it surely reads and which it may. */
function charClass(s: string, i: number): Facts | null {
  let j = i + 1;
  const negated = s[j] === '^';
  if (negated) j++;
  let sure = 0,
    may = 0;
  for (let first = true; j < s.length && (s[j] !== ']' || first); first = false) {
    if (s.startsWith('[:', j)) {
      const close = s.indexOf(':]', j + 2);
      if (close < 0) return null;
      may = ALL;
      j = close + 2;
      continue;
    }
    let lo: string | null, itemSure: number, itemMay: number;
    if (s[j] === '\\') {
      const n = s[j + 1] ?? '';
      const e = escape(s, j);
      j = e.end;
      if (n === 'D' || n === 'W') ((itemSure = ALL), (itemMay = ALL), (lo = null));
      else if (n === 'S') ((itemSure = ALL & ~SPACE_MASK), (itemMay = itemSure), (lo = null));
      else if (!/[A-Za-z0-9]/.test(n)) ((lo = n), (itemSure = itemMay = maskOf(n)));
      else if (n === 'n') ((lo = '\n'), (itemSure = itemMay = maskOf('\n')));
      else if (n === 't' || n === 'r' || n === 'f' || n === 'v')
        ((lo = n === 't' ? '\t' : n === 'r' ? '\r' : n === 'f' ? '\f' : '\v'), (itemSure = itemMay = 0));
      else ((lo = null), (itemSure = e.may === ALL ? 0 : e.may), (itemMay = e.may));
    } else {
      lo = s[j]!;
      itemSure = itemMay = maskOf(lo);
      j++;
    }
    // A range: every stop between its ends (ends we could not read make it "may read anything").
    if (s[j] === '-' && s[j + 1] !== ']' && j + 1 < s.length) {
      let hi: string | null = s[j + 1]!;
      j += 2;
      if (hi === '\\') {
        const n = s[j] ?? '';
        hi = /[A-Za-z0-9]/.test(n) ? null : n;
        j = escape(s, j - 1).end;
      }
      if (lo === null || hi === null) ((itemSure = 0), (itemMay = ALL));
      else {
        itemSure = 0;
        STOPS.forEach((stop, k) => {
          if (stop >= lo! && stop <= hi!) itemSure |= 1 << k;
        });
        itemMay = itemSure;
      }
    }
    sure |= itemSure;
    may |= itemMay;
  }
  if (s[j] !== ']') return null;
  return { max: 1, may: negated ? ALL & ~sure : may, end: j + 1 };
}

/** Characters RE2 folds onto an ASCII letter that lower-casing leaves apart (ſ is s, K is k): the literal may hide behind them. */
const FOLD_TRAPS = /[\u017f\u212a\u0130\u0131]/;

/**
 * The first index of `text` where a match may start (0 when nothing is known): for each anchor,
 * no match starts more than its prefix's length before the run's first occurrence in `lower`, nor
 * at or before a stop ahead of that occurrence; with no occurrence, there is no match (the text's
 * length). Nothing is concluded when the text holds a character a case-insensitive match reads
 * as a letter of the run while lower-casing does not, or when lower-casing moved the positions.
 */
export function matchFloor(anchors: readonly Anchor[], text: string, lower: string): number {
  // Lower-casing that changed the length (İ becomes two characters) moved the positions of `lower` off those of `text`.
  if (anchors.length === 0 || lower.length !== text.length) return 0;
  let floor = 0,
    reach = 0;
  for (const anchor of anchors) {
    const at = lower.indexOf(anchor.text);
    if (at < 0) return FOLD_TRAPS.test(text) ? 0 : text.length;
    let start = at - anchor.maxLength;
    for (const stop of anchor.stops) start = Math.max(start, text.lastIndexOf(stop, at - 1) + 1);
    floor = Math.max(floor, start);
    reach = Math.max(reach, at + anchor.text.length);
  }
  return floor > 0 && FOLD_TRAPS.test(text.slice(0, reach)) ? 0 : floor;
}
