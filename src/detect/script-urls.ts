// The addresses a loader in an inline <script> inserts. The classic tag snippets build a <script>
// (or an image) and set its src from a string literal — `ga.src = ('https:' == ... ? 'https://ssl' :
// 'http://www') + '.google-analytics.com/ga.js'`, `gads.src = '//www.googletagservices.com/tag/js/gpt.js'`
// — or document.write a tag: the literal is the address a `scriptSrc` rule would read had the tag
// been in the markup. One forward pass over the text, no regular expression over it: each quote is
// looked at once, and what follows it is read while it can be part of an address (at most
// MAX_URL characters), so the work is linear in the text whatever it holds.
//
// A literal counts only when it is shaped like a script's address — an absolute or scheme-relative
// URL, the rest of a host chosen at run time (`.scorecardresearch.com/beacon.js`), a host and path,
// or a path on the site itself — and either its path ends in `.js` or it is assigned to a `src` or
// passed to a script loader.
// A link, an image or an API endpoint in a page's data is none of these, and stays data. A comment
// is not code: `// …`, `/* … */` and, as JavaScript reads it, `<!--` to the end of its line (a
// commented-out tag, or an unclosed <script> that runs into one, loads nothing).

/** One address found in a literal: where it starts in the text and how long the literal's run is. */
interface ScriptUrl {
  url: string;
  index: number;
  length: number;
}

/** Addresses kept per text (a page has a handful; a hostile one could hold a literal at every other character). */
export const MAX_SCRIPT_URLS = 500;
/** A run longer than this is not an address a tag loads. */
const MAX_URL = 2048;
/** How far back from a literal its `src =`, `src:`, `setAttribute('src',` or `getScript(` is looked for. */
const SRC_REACH = 16;

/** The characters the pass stops at: quotes, and the `/` and `<` that may open a comment. */
const NEXT_MARK = /['"`/<]/g;
const isQuote = (c: number) => c === 34 || c === 39 || c === 96;
/** Characters an address in a literal can hold: no space, quote, angle bracket or control character. */
const isUrlChar = (c: number) => c > 32 && c !== 34 && c !== 39 && c !== 96 && c !== 60 && c !== 62 && c !== 127;
const isLetter = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isIdentifierChar = (c: number) => isLetter(c) || isDigit(c) || (c >= 65 && c <= 90) || c === 95 || c === 36;

/** The script-like addresses in string literals of `text` (inline JavaScript), in order, at most `max`. */
export function scriptUrls(text: string, max = MAX_SCRIPT_URLS): ScriptUrl[] {
  const out: ScriptUrl[] = [];
  const n = text.length;
  let i = 0;
  while (i < n && out.length < max) {
    // To the next character that can open a literal or a comment (one character class: no backtracking).
    NEXT_MARK.lastIndex = i;
    if (!NEXT_MARK.test(text)) break;
    i = NEXT_MARK.lastIndex - 1;
    const c = text.charCodeAt(i);
    if (!isQuote(c)) {
      if (c === 47 && commentStarts(text, i)) i = text.charCodeAt(i + 1) === 47 ? lineEnd(text, i) : blockEnd(text, i);
      else if (c === 60 && text.startsWith('!--', i + 1)) i = lineEnd(text, i);
      else i++;
      continue;
    }
    const start = i + 1;
    let k = start;
    while (k < n && k - start <= MAX_URL && isUrlChar(text.charCodeAt(k))) k++;
    if (k > start && k - start <= MAX_URL) {
      const url = scriptAddress(text.slice(start, k), () => assignedToSrc(text, i));
      if (url) out.push({ url, index: start, length: k - start });
    }
    i = k > start ? k : start;
  }
  return out;
}

/**
 * Whether a `//` or `/*` at `at` opens a comment. Quotes are not paired (a quote inside a regular
 * expression would throw the pairing off for the rest of a minified line), so a comment is told
 * from the `//` of an address by what stands before it: the start of a line, a space or the end of
 * a statement or call, never a quote or the `:` of a scheme.
 */
function commentStarts(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  if (next !== 47 && next !== 42) return false;
  const before = at > 0 ? text.charCodeAt(at - 1) : 10;
  return before <= 32 || before === 59 || before === 123 || before === 125 || before === 41 || before === 44;
}

const lineEnd = (text: string, from: number) => {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e + 1;
};

const blockEnd = (text: string, from: number) => {
  const e = text.indexOf('*/', from + 2);
  return e < 0 ? text.length : e + 2;
};

/**
 * The address a literal's run holds, or null. JSON-style escapes (`http:\/\/host\/a.js`) are
 * undone; the run may end with the backslash of an escaped quote (`src=\"...\"`).
 */
function scriptAddress(run: string, srcAssigned: () => boolean): string | null {
  const url = (run.includes('\\') ? run.replace(/\\+\//g, '/') : run).replace(/\\+$/, '');
  const lower = url.toLowerCase();
  let p = lower.startsWith('https://') ? 8 : lower.startsWith('http://') ? 7 : lower.startsWith('//') ? 2 : 0;
  if (p === 0 && lower.charCodeAt(0) === 46) p = 1; // `.host.tld/…`: the start of the host is chosen at run time
  if (p > 0 || lower.charCodeAt(0) !== 47) {
    const hostEnd = hostAt(lower, p);
    if (hostEnd < 0 || lower.charCodeAt(hostEnd) !== 47) return null;
  } else if (lower.length < 2) return null; // a path on the site itself: `/x…`
  let pathEnd = lower.length;
  for (let k = 0; k < lower.length; k++) {
    const c = lower.charCodeAt(k);
    if (c === 63 || c === 35) {
      pathEnd = k;
      break;
    }
  }
  const script = lower.startsWith('.js', pathEnd - 3) || lower.startsWith('.mjs', pathEnd - 4);
  return script || srcAssigned() ? url : null;
}

/**
 * Where a host name starting at `from` ends (after an optional `:port`): labels of letters, digits
 * and hyphens joined by dots, at least two, the last of two letters or more (a top-level domain);
 * -1 when there is none.
 */
function hostAt(lower: string, from: number): number {
  let labels = 0,
    labelStart = from,
    letters = true,
    q = from;
  for (; q < lower.length; q++) {
    const c = lower.charCodeAt(q);
    if (c === 46) {
      if (q === labelStart) return -1;
      labels++;
      labelStart = q + 1;
      letters = true;
    } else if (isLetter(c)) continue;
    else if (isDigit(c) || c === 45) letters = false;
    else break;
  }
  if (labels < 1 || q - labelStart < 2 || !letters) return -1;
  if (lower.charCodeAt(q) === 58) {
    let d = q + 1;
    while (d < lower.length && isDigit(lower.charCodeAt(d))) d++;
    if (d === q + 1) return -1;
    q = d;
  }
  return q;
}

/**
 * Whether the literal opening at `quote` is assigned or passed to a `src` (`x.src = '…'`, `src: "…"`,
 * `setAttribute('src', '…')`, `src="…"` in written markup) or to a script loader (`loadScript('…')`,
 * `jQuery.getScript("…")`).
 */
function assignedToSrc(text: string, quote: number): boolean {
  let k = quote - 1;
  const stop = Math.max(0, quote - SRC_REACH);
  // Over what may stand between a name and its value: spaces, `=`, `:`, `(`, `[`, `,` and the quotes of `'src'`.
  while (k >= stop) {
    const c = text.charCodeAt(k);
    if (c <= 32 || c === 61 || c === 58 || c === 40 || c === 91 || c === 44 || isQuote(c)) k--;
    else break;
  }
  if (k === quote - 1) return false;
  for (const word of ['src', 'script']) {
    const from = k - word.length + 1;
    if (from < 0 || text.slice(from, k + 1).toLowerCase() !== word) continue;
    // `js.src`, `"src"`, `src=` stand alone; inside a longer name only a capitalised one (`scrSrc`, `getScript`) is that word.
    if (from === 0 || !isIdentifierChar(text.charCodeAt(from - 1)) || text.charCodeAt(from) === word.toUpperCase().charCodeAt(0)) return true;
  }
  return false;
}
