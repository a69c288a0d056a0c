// A light scanner over one page's HTML: one pass from '<' to '<' (no DOM) that collects what the
// rules look at (resource URLs, meta tags, inline script text) and the ranges that are mentions,
// not use (comments, links and images in text, CSP meta, dns-prefetch/preconnect hints, code
// samples, script bodies), which `html` patterns must not match in.
import { scriptUrls } from './script-urls.ts';

/** HTML beyond this many characters is not scanned (home pages are rarely larger; the head is what counts). */
export const HTML_CAP = 512 * 1024;

/** Links read per page, of each kind (a page has tens; a hostile one could have a hundred thousand). */
const MAX_LINKS = 1000;
/** Tracking pixels read per page. */
const MAX_PIXELS = 100;
/** An `<img>` one pixel (or none) wide or high: a tracking pixel, not a picture. */
const PIXEL_SIZE = /(?:^|\s)(?:width|height)\s*=\s*["']?[01](?:px)?(?:["'\s/]|$)/;

interface ResourceRef {
  url: string;
  /** The tag's range in the page, for the excerpt. */
  start: number;
  end: number;
}

interface MetaTag {
  name: string;
  content: string;
  start: number;
  end: number;
}

interface PageFacts {
  /** The scanned (capped) HTML and its lower-case copy of the same length. */
  html: string;
  lower: string;
  /** Script src, iframe src and link href (not dns-prefetch, preconnect, prefetch or other hints). */
  resources: ResourceRef[];
  metas: MetaTag[];
  /** The href of `<a>` links (absolute, scheme-relative, or a path on the site itself): read by `links` rules only. */
  links: ResourceRef[];
  /** The src of tracking pixels: an `<img>` inside `<noscript>` (a tag's fallback) or one pixel in size. */
  pixels: ResourceRef[];
  /** Inline JavaScript bodies, each between newlines (JSON and templates left out), and its lower-case copy. */
  inlineScript: string;
  inlineLower: string;
  /** Script addresses a loader in the inline JavaScript inserts (script-urls.ts): start and end are in `inlineScript`. */
  inlineUrls: ResourceRef[];
  /** Sorted, disjoint [start, end) pairs, flat: where `html` patterns may not match. */
  excluded: number[];
}

/** Link relations that announce a host without loading anything from it. */
const HINT_RELS =
  /(?:^|\s)(?:dns-prefetch|preconnect|prefetch|prerender|alternate|canonical|shortlink|next|prev|author|me|nofollow|noopener|noreferrer|external|help|license|search|bookmark)(?:\s|$)/;
/** Script types whose body is not JavaScript we should read globals from. */
const NON_JS_TYPE = /json|template|text\/html|x-handlebars|x-tmpl|text\/x-|markdown/;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  ATTRIBUTE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTRIBUTE.exec(tag)) !== null) {
    const name = m[1]!.toLowerCase();
    if (!out.has(name)) out.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/** The index just after the `>` that closes the tag whose name ends at `from` (quotes respected). */
function tagEnd(lower: string, from: number): number {
  let quote = 0;
  for (let i = from; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      // A quote opens a value only after `=` (optionally spaced); a stray quote elsewhere is text.
      let k = i - 1;
      while (k > from && lower.charCodeAt(k) <= 32) k--;
      if (lower.charCodeAt(k) === 61) quote = c;
    } else if (c === 62) return i + 1;
  }
  return lower.length;
}

/** The tag names the scanner reads, each as its length and first letter (`length * 128 + letter`): a name's one lookup before it is sliced. */
const WANTED = new Set(
  ['a', 'img', 'pre', 'xmp', 'code', 'link', 'meta', 'style', 'script', 'iframe', 'noscript', 'textarea'].map((n) => n.length * 128 + n.charCodeAt(0)),
);
const isNameChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45;

export function scanPage(input: string, cap = HTML_CAP): PageFacts {
  const html = input.length > cap ? input.slice(0, cap) : input;
  let lower = html.toLowerCase();
  // A few characters change length when lower-cased (U+0130); positions must agree between the two copies.
  if (lower.length !== html.length) lower = html.replace(/[^\x00-\x7f]/g, '?').toLowerCase();
  const resources: ResourceRef[] = [];
  const metas: MetaTag[] = [];
  const links: ResourceRef[] = [];
  const pixels: ResourceRef[] = [];
  let absoluteLinks = 0,
    siteLinks = 0;
  /** Where the `<noscript>` being read ends (its `<img>` are a tag's fallback pixels); -1 outside one. */
  let noscriptEnd = -1;
  /** The first `>` at or after the last `<img` read (len: none): every `<img` before it ends there. */
  let nextGt = -1;
  const inline: string[] = [];
  const excluded: number[] = [];
  const exclude = (start: number, end: number) => {
    if (end > start) excluded.push(start, end);
  };
  const len = lower.length;
  let i = 0;
  while ((i = lower.indexOf('<', i)) !== -1) {
    const c = lower.charCodeAt(i + 1);
    if (c === 33) {
      if (lower.startsWith('!--', i + 1)) {
        const e = lower.indexOf('-->', i + 4);
        const end = e < 0 ? len : e + 3;
        exclude(i, end);
        i = end;
      } else i += 2;
      continue;
    }
    if (c < 97 || c > 122) {
      i++;
      continue;
    }
    let j = i + 2;
    while (j < len && isNameChar(lower.charCodeAt(j))) j++;
    // Most tags (div, p, span, li, nav, h2...) are none of ours: decide on length and first letter before slicing the name.
    if (!WANTED.has((j - i - 1) * 128 + c)) {
      i = j;
      continue;
    }
    const name = lower.slice(i + 1, j);
    switch (name) {
      case 'script':
      case 'link':
      case 'meta':
      case 'iframe':
      case 'a':
      case 'pre':
      case 'code':
      case 'textarea':
      case 'style':
      case 'xmp':
      case 'img':
      case 'noscript':
        break;
      default:
        i = j;
        continue;
    }
    if (name === 'img') {
      // Pages hold hundreds of pictures: the tag is read to its first `>` (native, no quote
      // tracking; a `>` inside an attribute value only shortens what is read), and only a pixel's
      // attributes are parsed. The scan goes on from the name, as for a tag it does not read; the
      // `>` found is remembered, so a page of `<img` with none reads the text once, not once per tag.
      if (pixels.length < MAX_PIXELS) {
        if (nextGt < j) {
          const gt = lower.indexOf('>', j);
          nextGt = gt < 0 ? len : gt;
        }
        // Nor past the next `<`, where the scan goes on: the stretches read are disjoint.
        const lt = lower.indexOf('<', j);
        const stop = lt >= 0 && lt < nextGt ? lt : nextGt;
        if (i < noscriptEnd || PIXEL_SIZE.test(lower.slice(j, stop))) {
          const src = attributes(html.slice(j, stop)).get('src');
          if (src) pixels.push({ url: src, start: i, end: stop + 1 });
        }
      }
      i = j;
      continue;
    }
    const end = tagEnd(lower, j);
    if (name === 'noscript') {
      // Read on inside it: its iframes and images are the markup a browser without scripts gets.
      const close = lower.indexOf('</noscript', end);
      noscriptEnd = close < 0 ? len : close;
      i = end;
      continue;
    }
    if (name === 'a') {
      // A link in the text names a vendor (a partner, a case study, "powered by"); it is not use,
      // so `html` rules never see it. Only `links` rules read its address: they name an account
      // on the vendor's domain (a booking page, a hosted form, a job board), which a mention is not.
      // Images stay matchable: an `html` rule names an asset host or a pixel path, never a logo file.
      exclude(i, end);
      // A path on the site itself (`/cdn-cgi/l/email-protection`) is read too: a `links` rule names
      // a host or such a path, never a path of someone else's site.
      if (absoluteLinks < MAX_LINKS || siteLinks < MAX_LINKS) {
        const href = attributes(html.slice(j, end - 1)).get('href');
        if (href && (href.startsWith('//') || /^https?:/i.test(href))) {
          if (absoluteLinks++ < MAX_LINKS) links.push({ url: href, start: i, end });
        } else if (href?.startsWith('/') && siteLinks++ < MAX_LINKS) links.push({ url: href, start: i, end });
      }
      i = end;
      continue;
    }
    if (name === 'pre' || name === 'code' || name === 'textarea' || name === 'xmp' || name === 'style') {
      // Code samples and form text quote snippets without running them; styles are skipped whole.
      const close = lower.indexOf(`</${name}`, end);
      const stop = close < 0 ? len : close;
      if (name !== 'style') exclude(i, stop);
      else styleImports(html, lower, end, stop, resources);
      i = stop;
      continue;
    }
    const attrs = attributes(html.slice(j, end - 1));
    if (name === 'script') {
      const close = lower.indexOf('</script', end);
      const stop = close < 0 ? len : close;
      const src = attrs.get('src');
      if (src) resources.push({ url: src, start: i, end });
      else if (!NON_JS_TYPE.test(attrs.get('type')?.toLowerCase() ?? '')) inline.push(html.slice(end, stop));
      exclude(end, stop);
      i = stop;
      continue;
    }
    if (name === 'link') {
      const rel = (attrs.get('rel') ?? '').toLowerCase();
      const href = attrs.get('href');
      if (HINT_RELS.test(rel) && !/(?:^|\s)(?:stylesheet|icon|preload|modulepreload|manifest)(?:\s|$)/.test(rel)) exclude(i, end);
      else if (href) resources.push({ url: href, start: i, end });
    } else if (name === 'meta') {
      const equiv = (attrs.get('http-equiv') ?? '').toLowerCase();
      if (equiv.startsWith('content-security-policy')) exclude(i, end);
      else {
        const key = (attrs.get('name') ?? attrs.get('property') ?? equiv).toLowerCase();
        const content = attrs.get('content');
        // An empty value is a template's blank (`<meta name="google-site-verification" content="">`): it carries no token, no name, nothing a rule can claim.
        if (key && content !== undefined && content.trim() !== '') metas.push({ name: key, content, start: i, end });
      }
    } else if (name === 'iframe') {
      const src = attrs.get('src') ?? attrs.get('data-src');
      if (src) resources.push({ url: src, start: i, end });
    }
    i = end;
  }
  // Every body on lines of its own, the text framed by newlines too: a `js` global's pattern needs
  // a character on each side, and no `^`/`$`, which would keep matching off the fast automaton.
  const inlineScript = inline.length ? `\n${inline.join('\n')}\n` : '';
  const inlineUrls = scriptUrls(inlineScript).map((u) => ({ url: u.url, start: u.index, end: u.index + u.length }));
  return { html, lower, resources, metas, links, pixels, inlineScript, inlineLower: inlineScript.toLowerCase(), inlineUrls, excluded };
}

/**
 * The stylesheets an inline `<style>` block loads with `@import url(...)` or `@import "..."`: read
 * like `<link rel=stylesheet>` URLs. One forward scan of the block.
 */
function styleImports(html: string, lower: string, from: number, to: number, resources: ResourceRef[]): void {
  let k = lower.indexOf('@import', from);
  while (k >= 0 && k < to) {
    let p = k + 7;
    while (p < to && /\s/.test(html[p]!)) p++;
    if (lower.startsWith('url(', p)) {
      p += 4;
      while (p < to && /\s/.test(html[p]!)) p++;
    }
    const quote = html[p] === '"' || html[p] === "'" ? html[p] : '';
    if (quote) p++;
    let q = p;
    while (q < to && (quote ? html[q] !== quote : !/[\s;)]/.test(html[q]!))) q++;
    if (q > p && q < to) resources.push({ url: html.slice(p, q), start: k, end: q });
    k = lower.indexOf('@import', q + 1);
  }
}

/** The end of the excluded range holding `pos`, or -1 when `pos` is free. */
export function excludedUntil(excluded: number[], pos: number): number {
  let lo = 0,
    hi = excluded.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = excluded[2 * mid]!,
      e = excluded[2 * mid + 1]!;
    if (pos < s) hi = mid - 1;
    else if (pos >= e) lo = mid + 1;
    else return e;
  }
  return -1;
}
