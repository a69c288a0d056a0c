// A rule pattern compiled for linear-time matching. JavaScript's RegExp backtracks: a rule of
// the common shape `<[^>]+literal` tries every `<` of a page as a start and scans on from each,
// O(n²) on a page full of `<` (3 s at 64 K characters for one rule). RE2 (re2js, pure JavaScript)
// simulates the automaton instead: time proportional to the text whatever the pattern, at the
// price of the constructs that need backtracking (lookaround, backreferences), which it refuses.
import { RE2JS } from 're2js';

/** A match as RegExp.exec gives it: the matched text, then the groups (undefined when a group did not take part). */
export type PatternMatch = Array<string | undefined> & { 0: string; index: number };

/** A compiled rule pattern, whichever engine runs it. */
export interface Pattern {
  readonly source: string;
  readonly ignoreCase: boolean;
  /** Compiles now; throws what the engine cannot run. */
  check(): this;
  /** The size of the compiled program (the linear engine's bound per character of text). */
  readonly programSize: number;
  test(text: string): boolean;
  /** The leftmost match starting at or after `from` (the text before it still counts for `\b` and `^`), or null. */
  exec(text: string, from?: number): PatternMatch | null;
}

export class LinearPattern implements Pattern {
  private compiled: RE2JS | undefined;

  /**
   * Compiled on first use (compiling RE2 costs about a millisecond a pattern, and a page runs
   * few of the catalog's); check() compiles at once, which is how a rule file is validated.
   */
  constructor(
    readonly source: string,
    readonly ignoreCase: boolean,
  ) {}

  /** Compiles now: throws RE2's syntax error (re2js RE2JSSyntaxException) for what RE2 cannot run. */
  check(): this {
    void this.re;
    return this;
  }

  private get re(): RE2JS {
    return (this.compiled ??= RE2JS.compile(this.source, this.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
  }

  /** The size of the compiled program: what each character of the text costs at most. */
  get programSize(): number {
    return this.re.programSize();
  }

  /** Whether the pattern matches anywhere in `text`: the automaton without captures (a DFA), several times faster than exec. */
  test(text: string): boolean {
    return this.re.test(text);
  }

  /** The leftmost match starting at or after `from` (the text before it still counts for `\b` and `^`), or null. */
  exec(text: string, from = 0): PatternMatch | null {
    const m = this.re.matcher(text);
    if (!m.find(from)) return null;
    const out = [m.group(0) ?? ''] as PatternMatch;
    for (let g = 1, n = m.groupCount(); g <= n; g++) out.push(m.group(g) ?? undefined);
    out.index = m.start(0);
    return out;
  }
}

/**
 * JavaScript's own backtracking RegExp, for text this process generated itself and nothing
 * else: the demo world's rendered pages (seed/artifacts.ts), bounded and free of hostile
 * shapes. It runs the catalog's patterns there in about half the time of RE2 (a sixth of the
 * demo world's generating), and a test holds its detections equal to the linear engine's on
 * the same pages. Fetched or submitted pages always get LinearPattern.
 */
export class BacktrackingPattern implements Pattern {
  private readonly re: RegExp;

  constructor(
    readonly source: string,
    readonly ignoreCase: boolean,
  ) {
    this.re = new RegExp(source, ignoreCase ? 'gi' : 'g');
  }

  check(): this {
    return this;
  }

  get programSize(): number {
    return 0;
  }

  test(text: string): boolean {
    this.re.lastIndex = 0;
    return this.re.test(text);
  }

  exec(text: string, from = 0): PatternMatch | null {
    this.re.lastIndex = from;
    return this.re.exec(text) as PatternMatch | null;
  }
}

/** A pattern for text of our own making: backtracking where JavaScript reads the RE2 syntax the same, else linear. */
export function ownTextPattern(source: string, ignoreCase: boolean): Pattern {
  // RE2-only syntax (named groups written (?P<…>), inline flags, \z, POSIX classes) stays with RE2.
  if (/\(\?P<|\(\?[imsU]|\\[zAC]|\[\[:/.test(source)) return new LinearPattern(source, ignoreCase);
  try {
    return new BacktrackingPattern(source, ignoreCase);
  } catch {
    return new LinearPattern(source, ignoreCase);
  }
}
