// Which of many literals occur in a text, in one pass: an Aho-Corasick automaton. The prefilter
// of every pattern set (rules.ts PatternSet) asks this for each page, URL and job post, so its
// cost is per character of text: one table lookup, whatever the number of literals or how many of
// them share a prefix. (JavaScript's RegExp of the literals joined with `|` tried every literal
// that starts with `src="` or `class="` at every such place of a page: 4-5 ns a character for a
// hundred literals, and time in proportion to the longest literal on a page built to defeat it.)

/** Literal texts in, indexes of those found out. Texts are matched as given (the callers pass lower-case both sides). */
export class LiteralMatcher {
  /**
   * Dense transitions, as row offsets: from the state whose row starts at `row`, a character of
   * class k leads to the state whose row starts at `next[row + k]` (state × width: no multiply per
   * character), negated when some literal ends at that state (the one test per character).
   */
  private readonly next: Int32Array;
  private readonly width: number;
  /** Character class of each UTF-16 code unit; 0 for those no literal has. A table, so a step has no branch. */
  private readonly charClass: Uint8Array | Uint16Array;
  /** The literal ending at each state, or -1. */
  private readonly output: Int32Array;
  /** The nearest state, along the failure links, whose literal ends there (0: none): the shorter literals found with this one. */
  private readonly outputLink: Int32Array;
  /** The first state of each state's output walk: itself when a literal ends there, else its output link (0: none). */
  private readonly firstOutput: Int32Array;
  /** Found marks: `seen[i] === epoch` when literal i was found in the current text (no clearing between texts). */
  private readonly seen: Uint32Array;
  private epoch = 0;

  constructor(readonly literals: readonly string[]) {
    const classes = new Map<number, number>();
    for (const lit of literals)
      for (let i = 0; i < lit.length; i++) {
        const c = lit.charCodeAt(i);
        if (!classes.has(c)) classes.set(c, classes.size + 1);
      }
    this.charClass = classes.size < 0xff ? new Uint8Array(0x10000) : new Uint16Array(0x10000);
    for (const [c, k] of classes) this.charClass[c] = k;
    this.width = classes.size + 1;

    // The trie: children as maps while building, one state per distinct prefix.
    const children: Array<Map<number, number>> = [new Map()];
    const output: number[] = [-1];
    literals.forEach((lit, index) => {
      let state = 0;
      for (let i = 0; i < lit.length; i++) {
        const k = classes.get(lit.charCodeAt(i))!;
        let child = children[state]!.get(k);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          output.push(-1);
          children[state]!.set(k, child);
        }
        state = child;
      }
      // A literal given twice is found as its first index (callers pass distinct literals).
      if (output[state]! < 0) output[state] = index;
    });

    const states = children.length;
    const width = this.width;
    const next = new Int32Array(states * width);
    const fail = new Int32Array(states);
    const outputLink = new Int32Array(states);
    // Breadth first, so a state's failure state (a shorter prefix) is complete before the state:
    // a missing transition is the failure state's, which makes every step a single lookup.
    const queue: number[] = [];
    for (const [k, child] of children[0]!) {
      next[k] = child * width;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const f = fail[state]!;
      outputLink[state] = output[f]! >= 0 ? f : outputLink[f]!;
      const row = state * width,
        failRow = f * width;
      for (let k = 0; k < width; k++) next[row + k] = next[failRow + k]!;
      for (const [k, child] of children[state]!) {
        next[row + k] = child * width;
        fail[child] = next[failRow + k]! / width;
        queue.push(child);
      }
    }
    this.next = next;
    this.output = Int32Array.from(output);
    this.outputLink = outputLink;
    this.firstOutput = new Int32Array(states);
    for (let state = 1; state < states; state++) this.firstOutput[state] = output[state]! >= 0 ? state : outputLink[state]!;
    for (let i = 0; i < next.length; i++) if (this.firstOutput[next[i]! / width] !== 0) next[i] = -next[i]!;
    this.seen = new Uint32Array(literals.length);
  }

  /** Indexes of the literals that occur in `text`, in the order they were first found. */
  found(text: string): number[] {
    const out: number[] = [];
    if (this.literals.length === 0) return out;
    if (++this.epoch === 0xffffffff) (this.seen.fill(0), (this.epoch = 1));
    const { next, width, charClass, firstOutput, output, outputLink, seen, epoch } = this;
    let row = 0;
    for (let i = 0, n = text.length; i < n; i++) {
      row = next[row + charClass[text.charCodeAt(i)]!]!;
      if (row >= 0) continue;
      row = -row;
      // Every literal ending here: this state's, then the shorter ones along the output links. A
      // literal seen before had its shorter ones marked then, so the walk stops there: marking
      // costs one step per literal per text, not per occurrence.
      for (let s = firstOutput[row / width]!; s !== 0; s = outputLink[s]!) {
        const lit = output[s]!;
        if (seen[lit] === epoch) break;
        seen[lit] = epoch;
        out.push(lit);
      }
    }
    return out;
  }
}
