// The traces a technology leaves, written from its own detection rules: for each pattern an
// example string the pattern matches (a small generator over the regex source), placed where
// the rule looks (a script src, an inline snippet, a meta tag, a link to the company's account on
// the vendor's site, a header, a cookie, a DNS record, a phrase in a job post). Rules cannot be inverted in general, so every example is
// checked: the example must match its own pattern, and the kit of one technology, rendered
// alone, must be detected as that technology and nothing else (implied technologies aside).
// Examples that fail are dropped; a technology with no surviving trace is simply invisible.
import { detect } from '../../detect/detect.ts';
import type { CompiledCatalog } from '../../detect/catalog.ts';
import { readCoreRules } from '../../detect/catalog.ts';
import { parsePatternTags, toList, type RuleFile } from '../../detect/rules.ts';
import type { SiteArtifacts } from '../../detect/types.ts';
import { CLAIM_CONFIDENCE, type EvidenceSource } from '../../technographics/evidence.ts';
import { rngFor, type Rng } from './rng.ts';

/** One trace, placed by kind. `{domain}` in a URL stands for the company's domain. */
export type Trace =
  | { kind: 'script'; src: string }
  | { kind: 'inline'; code: string }
  | { kind: 'meta'; name: string; content: string }
  | { kind: 'html'; markup: string }
  | { kind: 'link'; href: string }
  | { kind: 'header'; name: string; value: string }
  | { kind: 'cookie'; name: string; value: string }
  | { kind: 'dns'; type: 'MX' | 'TXT' | 'CNAME' | 'NS' | 'A'; value: string }
  | { kind: 'spf'; include: string }
  | { kind: 'job'; phrase: string };

export interface TraceKit {
  tech: number;
  traces: Trace[];
}

export const TRACE_SOURCE: Record<Trace['kind'], EvidenceSource> = {
  script: 'script',
  inline: 'script',
  meta: 'meta',
  html: 'html',
  link: 'html',
  header: 'header',
  cookie: 'cookie',
  dns: 'dns',
  spf: 'dns',
  job: 'job',
};

// ---- examples of a regular expression ----------------------------------------------------

const NEGATED_PICKS = [' ', 'a', 'x', '0', '-', '/', '_', '.'];

/** An example string the regex source matches (unverified), or null when the source uses what we do not generate. */
export function exampleOf(source: string, rng: Rng): string | null {
  let i = 0;
  const fail = () => {
    throw new Error('unsupported');
  };
  const alternatives = (): string => {
    const options: string[] = [sequence()];
    while (source[i] === '|') {
      i++;
      options.push(sequence());
    }
    // Prefer the first alternative (the canonical form the rule author wrote first) most of the time.
    return options.length === 1 || rng.chance(0.6) ? options[0]! : rng.pick(options);
  };
  const sequence = (): string => {
    let out = '';
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const start = i;
      let atom = single();
      const q = source[i];
      let lo = 1,
        hi = 1;
      if (q === '?') ((lo = 0), (hi = 1), i++);
      else if (q === '*') ((lo = 0), (hi = 2), i++);
      else if (q === '+') ((lo = 1), (hi = 2), i++);
      else if (q === '{') {
        const m = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i));
        if (m) {
          lo = Number(m[1]);
          hi = m[2] === undefined ? lo : m[2] === '' ? lo + 2 : Number(m[2]);
          i += m[0].length;
        }
      }
      if (source[i] === '?' && i > start) i++; // lazy
      // Optional parts: usually present (versions, ids), so the examples carry what rules extract.
      const times = lo === 0 && hi === 1 ? (rng.chance(0.7) ? 1 : 0) : lo === 0 ? 0 : lo;
      if (atom === '\u0000') atom = '';
      let piece = '';
      for (let k = 0; k < times; k++) piece += k === 0 ? atom : regen(start);
      out += piece;
    }
    return out;
  };
  // Regenerates the atom at `start` (a repeated class should not be the same character each time).
  const regen = (start: number): string => {
    const save = i;
    i = start;
    const s = single();
    i = save;
    return s === '\u0000' ? '' : s;
  };
  const single = (): string => {
    const c = source[i]!;
    if (c === '(') {
      i++;
      let lookahead = false;
      if (source[i] === '?') {
        if (source[i + 1] === ':') i += 2;
        else if (source[i + 1] === '=' || source[i + 1] === '!') ((lookahead = true), (i += 2));
        else if (source[i + 1] === '<') {
          const close = source.indexOf('>', i);
          if (close < 0) fail();
          i = close + 1;
        } else fail();
      }
      const inner = alternatives();
      if (source[i] !== ')') fail();
      i++;
      return lookahead ? '\u0000' : inner;
    }
    if (c === '[') return charClass();
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      i += 2;
      switch (n) {
        case 'd':
          return String(rng.int(1, 9));
        case 'w':
          return 'abcdefghk'[rng.int(0, 8)]!;
        case 's':
          return ' ';
        case 'S':
          return 'x';
        case 'W':
          return '-';
        case 'D':
          return 'x';
        case 'b':
        case 'B':
          return '';
        case 'n':
        case 'r':
        case 't':
          return ' ';
        case 'x': {
          const hex = source.slice(i, i + 2);
          i += 2;
          return String.fromCharCode(parseInt(hex, 16));
        }
        case 'u': {
          const hex = source.slice(i, i + 4);
          i += 4;
          return String.fromCharCode(parseInt(hex, 16));
        }
        default:
          if (/[1-9]/.test(n)) fail(); // back-references
          return n;
      }
    }
    i++;
    if (c === '.') return 'x';
    if (c === '^' || c === '$') return '';
    return c;
  };
  const charClass = (): string => {
    i++;
    const negated = source[i] === '^';
    if (negated) i++;
    const chars: string[] = [];
    const ranges: Array<[string, string]> = [];
    let first = true;
    while (i < source.length && (source[i] !== ']' || first)) {
      first = false;
      let ch = source[i]!;
      if (ch === '\\') {
        const n = source[i + 1]!;
        i += 2;
        if (n === 'd') ranges.push(['0', '9']);
        else if (n === 'w') (ranges.push(['a', 'z'], ['0', '9']), chars.push('_'));
        else if (n === 's') chars.push(' ');
        else if (n === 'S' || n === 'W' || n === 'D') chars.push('x');
        else chars.push(n === 'n' || n === 't' || n === 'r' ? ' ' : n);
        continue;
      }
      i++;
      if (source[i] === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
        let to = source[i + 1]!;
        i += 2;
        if (to === '\\') ((to = source[i]!), i++);
        ranges.push([ch, to]);
        continue;
      }
      chars.push(ch);
    }
    if (source[i] !== ']') fail();
    i++;
    const inClass = (x: string) =>
      chars.includes(x) || ranges.some(([a, b]) => x >= a && x <= b) || (ranges.some(([a, b]) => a <= 'a' && b >= 'z') && /[a-z]/i.test(x));
    if (negated) {
      const pick = NEGATED_PICKS.find((x) => !inClass(x) && !inClass(x.toUpperCase()));
      if (pick === undefined) fail();
      return pick!;
    }
    const pool: string[] = [...chars.filter((x) => x !== '-' || chars.length === 1)];
    for (const [a, b] of ranges) {
      const lo = a.charCodeAt(0),
        hi = b.charCodeAt(0);
      pool.push(String.fromCharCode(lo + rng.int(0, Math.max(0, Math.min(hi - lo, 8)))));
    }
    if (pool.length === 0) fail();
    return rng.pick(pool);
  };
  try {
    const out = alternatives();
    if (i !== source.length) return null;
    return out;
  } catch {
    return null;
  }
}

/** An example that the pattern (with its flags) matches, after a few tries; null when none. */
function verifiedExample(raw: string, flags: string, rng: Rng, shape: (s: string) => string | null = (s) => s): string | null {
  const { source } = parsePatternTags(raw);
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch {
    return null;
  }
  for (let attempt = 0; attempt < 6; attempt++) {
    const sample = exampleOf(source, rng);
    if (sample === null) return null;
    const shaped = shape(sample);
    if (shaped !== null && re.test(shaped)) return shaped;
  }
  return null;
}

// ---- kits ---------------------------------------------------------------------------------

const token = (rng: Rng, n = 10) => Array.from({ length: n }, () => 'abcdefghjkmnpqrstuvwxyz23456789'[rng.int(0, 30)]).join('');

/** A resource URL from a scriptSrc example: absolute as written, else under the vendor's host or the site's own path. */
function resourceUrl(sample: string, vendorDomain: string, rng: Rng): string | null {
  if (/[\s"'<>]/.test(sample)) return null;
  if (/^https?:\/\//i.test(sample)) return sample;
  if (sample.startsWith('//')) return `https:${sample}`;
  if (sample.startsWith('/')) return `https://{domain}${sample}`;
  const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?:\/|$)/i.exec(sample)?.[1];
  if (host && !/\.(?:js|css|php|html?|json|png|svg|gif)$/i.test(host)) return `https://${sample}${sample.includes('/') ? '' : `/${token(rng, 6)}.js`}`;
  if (sample.startsWith('.')) return `https://cdn${sample}`;
  return `https://cdn.${vendorDomain || 'example.net'}/${sample}`;
}

/** Closes a tag an html example leaves open, so the rest of the page parses as written. */
function closeMarkup(sample: string): string {
  const lt = sample.lastIndexOf('<');
  if (lt < 0 || sample.lastIndexOf('>') > lt) return sample;
  // An attribute left open (either quote) would swallow the rest of the page, and every trace after it.
  let open: string | null = null;
  for (const ch of sample.slice(lt)) {
    if (ch === open) open = null;
    else if (open === null && (ch === '"' || ch === "'")) open = ch;
  }
  return `${sample}${open ?? ''}>`;
}

function hostExample(sample: string, rng: Rng): string | null {
  const s = sample.replace(/^\.+/, `${token(rng, 6)}.`).replace(/\.$/, '');
  return /^[a-z0-9._-]+$/i.test(s) && s.includes('.') ? s.toLowerCase() : null;
}

/** The raw trace candidates of one technology's rule, before checking. */
function candidateTraces(rule: RuleFile[string], vendorDomain: string, rng: Rng): Trace[] {
  const out: Trace[] = [];
  for (const raw of toList(rule.scriptSrc)) {
    const src = verifiedExample(raw, 'i', rng, (s) => resourceUrl(s, vendorDomain, rng)?.replace('{domain}', 'example.org') ?? null);
    if (src) out.push({ kind: 'script', src: src.replace('https://example.org', 'https://{domain}') });
  }
  for (const raw of toList(rule.scripts)) {
    const code = verifiedExample(raw, 'i', rng, (s) => (/<\/script/i.test(s) ? null : s));
    if (code) out.push({ kind: 'inline', code });
  }
  for (const global of Object.keys(rule.js ?? {})) {
    if (/^[\w$.]+$/.test(global)) out.push({ kind: 'inline', code: `${global} = ${global} || {};` });
  }
  for (const [name, value] of Object.entries(rule.meta ?? {})) {
    const raw = toList(value)[0] ?? '';
    const content = verifiedExample(raw, 'i', rng, (s) => (/["<>]/.test(s) ? null : s));
    if (content !== null) out.push({ kind: 'meta', name: name.toLowerCase(), content: content || '1' });
  }
  for (const raw of toList(rule.html)) {
    const markup = verifiedExample(raw, 'i', rng, closeMarkup);
    if (markup) out.push({ kind: 'html', markup });
  }
  for (const raw of toList(rule.links)) {
    // The company's account on the vendor's site (a careers board, a booking page, a help centre): absolute, or a path on the site.
    const href = verifiedExample(raw, 'i', rng, (s) =>
      /[\s"'<>]/.test(s) ? null : s.startsWith('//') ? `https:${s}` : /^(?:https?:\/\/|\/)/i.test(s) ? s : null,
    );
    if (href) out.push({ kind: 'link', href: withAccount(href, new RegExp(parsePatternTags(raw).source, 'i')) });
  }
  for (const [name, value] of Object.entries(rule.headers ?? {})) {
    const raw = toList(value)[0] ?? '';
    const v = verifiedExample(raw, 'i', rng, (s) => (/[\r\n]/.test(s) ? null : s || token(rng, 8)));
    if (v !== null) out.push({ kind: 'header', name: name.toLowerCase(), value: v });
  }
  for (const [name, value] of Object.entries(rule.cookies ?? {})) {
    const raw = toList(value)[0] ?? '';
    const v = verifiedExample(raw, 'i', rng, (s) => (/[;\s]/.test(s) ? null : s || token(rng, 12)));
    const cookieName = name.endsWith('*') ? `${name.slice(0, -1)}${token(rng, 4)}` : name;
    if (v !== null && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(cookieName)) out.push({ kind: 'cookie', name: cookieName, value: v });
  }
  for (const type of ['MX', 'TXT', 'CNAME', 'NS', 'A'] as const) {
    for (const raw of toList(rule.dns?.[type])) {
      const v = verifiedExample(raw, 'i', rng, (s) => (type === 'TXT' ? s : type === 'A' ? s : hostExample(s, rng)));
      if (v) out.push({ kind: 'dns', type, value: v });
    }
  }
  for (const raw of toList(rule.dns?.SPF)) {
    const v = verifiedExample(raw, 'i', rng, (s) => hostExample(s, rng));
    if (v) out.push({ kind: 'spf', include: v });
  }
  for (const raw of toList(rule.job)) {
    const phrase = verifiedExample(raw, '', rng, (s) => (s.trim().length >= 2 && !/[<>]/.test(s) ? s.trim() : null));
    if (phrase) out.push({ kind: 'job', phrase });
  }
  return out;
}

/**
 * A link example with its account part (the first short segment the pattern lets any name take:
 * `jobs.lever.co/7`) as `{account}`, which placeTrace fills with the company's own name.
 */
function withAccount(href: string, re: RegExp): string {
  const segments = [...href.matchAll(/[a-z0-9_-]{1,3}(?=$|[./?#=])/gi)].filter((m) => m.index > 0 && /[./=]/.test(href[m.index - 1]!));
  for (const m of segments) {
    const template = `${href.slice(0, m.index)}{account}${href.slice(m.index + m[0].length)}`;
    if (re.test(template.replace('{account}', 'acmecorp'))) return template;
  }
  return href;
}

/** The company's name on a vendor's site: its domain's first label, letters and digits only. */
const accountOf = (domain: string) =>
  domain
    .split('.')[0]!
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase() || 'team';

/** Renders traces alone into artifacts (the kit check and the unit tests use it). */
export function siteWithTraces(domain: string, traces: Trace[]): SiteArtifacts {
  const head: string[] = [],
    body: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const dns: Required<Pick<NonNullable<SiteArtifacts['dns']>, 'MX' | 'TXT' | 'CNAME' | 'NS' | 'A'>> = { MX: [], TXT: [], CNAME: [], NS: [], A: [] };
  const spf: string[] = [];
  const jobs: string[] = [];
  for (const t of traces) placeTrace(t, domain, head, body, headers, cookies, dns, spf, jobs);
  if (spf.length) dns.TXT.push(`v=spf1 ${spf.map((s) => `include:${s}`).join(' ')} ~all`);
  const html = `<!doctype html><html><head><title>${domain}</title>${head.join('')}</head><body>${body.join('')}</body></html>`;
  return { domain, pages: [{ url: `https://${domain}/`, status: 200, headers, cookies, html }], dns, jobs: jobs.map((p) => `We use ${p} every day.`) };
}

const LINK_TEXTS = ['Careers', 'Book a call', 'Help centre', 'Status', 'Read our reviews', 'Get in touch', 'Sign up'];

export function placeTrace(
  t: Trace,
  domain: string,
  head: string[],
  body: string[],
  headers: Record<string, string>,
  cookies: string[],
  dns: { MX: string[]; TXT: string[]; CNAME: string[]; NS: string[]; A: string[] },
  spf: string[],
  jobs: string[],
): void {
  switch (t.kind) {
    case 'script':
      head.push(`<script async src="${t.src.replace('{domain}', domain)}"></script>\n`);
      break;
    case 'inline':
      body.push(`<script>${t.code}</script>\n`);
      break;
    case 'meta':
      head.push(`<meta name="${t.name}" content="${t.content}">\n`);
      break;
    case 'html':
      body.push(`${t.markup}\n`);
      break;
    case 'link':
      body.push(`<a href="${t.href.replace('{account}', accountOf(domain))}">${LINK_TEXTS[t.href.length % LINK_TEXTS.length]}</a>\n`);
      break;
    case 'header':
      if (!(t.name in headers)) headers[t.name] = t.value;
      break;
    case 'cookie':
      cookies.push(`${t.name}=${t.value}; Path=/; Secure`);
      break;
    case 'dns':
      dns[t.type].push(t.value);
      break;
    case 'spf':
      spf.push(t.include);
      break;
    case 'job':
      jobs.push(t.phrase);
      break;
  }
}

/**
 * The checked trace kit of every technology of the catalog (index = technology index). A trace
 * survives when, rendered alone, it is detected as its technology and nothing unrelated is claimed.
 */
export function buildTraceKits(seed: string, catalog: CompiledCatalog, rules: RuleFile = readCoreRules()): TraceKit[] {
  const kits: TraceKit[] = [];
  catalog.technologies.forEach((tech, t) => {
    const rule = rules[tech.name];
    const rng = rngFor(seed, 'traces', t);
    const candidates = rule ? candidateTraces(rule, tech.vendorDomain, rng) : [];
    const allowed = new Set([tech.name, ...tech.implies.map(([i]) => catalog.technologies[i]!.name)]);
    const ok = (traces: Trace[]) => {
      const found = detect(siteWithTraces('kit-check.example', traces), catalog, { minConfidence: 0.01 });
      // Another technology's candidate below a claim is allowed: NS1's name servers also serve Netlify's DNS (0.3).
      return (
        found.some((d) => d.name === tech.name && !d.impliedBy) && found.every((d) => allowed.has(d.name) || d.impliedBy || d.confidence < CLAIM_CONFIDENCE)
      );
    };
    const traces = candidates.length && ok(candidates) ? candidates : candidates.filter((c) => ok([c]));
    kits.push({ tech: t, traces });
  });
  return kits;
}
