// The detector: a pure function from one site's artifacts to the technologies it uses, each with
// the evidence behind it. Traces are weighed by where they were found (rules.ts FIELD_WEIGHTS);
// a technology's confidence is the noisy-OR of its independent traces (rules of one DNS record
// type count as one), so two independent traces outweigh one. Mentions are not use: page.ts
// keeps comments, links, logos, CSP lists and connection hints out of reach of the patterns. Every input is capped before it is matched.
import type { CompiledCatalog } from './catalog.ts';
import { excludedUntil, HTML_CAP, scanPage } from './page.ts';
import { matchFloor } from './match-floor.ts';
import type { PatternMatch } from './pattern.ts';
import { fillVersion, sourceOfField, type Candidate, type CompiledPattern, type PatternSet } from './rules.ts';
import type { Detection, SiteArtifacts } from './types.ts';
import type { VisitCoverage } from './visit.ts';
import { CLAIM_CONFIDENCE, traceStrength, type EvidenceItem, type EvidenceSource } from '../technographics/evidence.ts';

export const LIMITS = {
  html: HTML_CAP,
  pages: 20,
  headerValue: 4096,
  headers: 200,
  cookies: 100,
  cookieValue: 4096,
  resources: 500,
  dnsRecords: 50,
  dnsValue: 1024,
  jobs: 100,
  jobText: 64 * 1024,
  excerpt: 200,
} as const;

interface DetectOptions {
  /** Detections below this confidence are left out (default 0.5): a verification token alone (0.3) stays out. */
  minConfidence?: number;
  /** Evidence items kept per technology, strongest first (default 5). */
  maxEvidence?: number;
}

/** At most 200 characters of `text` from `before` characters ahead of [index, index + length), whitespace collapsed. */
function excerptOf(text: string, index: number, length: number, before = 40): string {
  const start = Math.max(0, index - before);
  const raw = text.slice(start, Math.min(text.length, index + Math.max(length, 1) + 160));
  const s = raw.replace(/\s+/g, ' ').trim();
  return s.length <= LIMITS.excerpt ? s : `${s.slice(0, LIMITS.excerpt - 1)}…`;
}

const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);
const clip = (s: string) => (s.length <= LIMITS.excerpt ? s : `${s.slice(0, LIMITS.excerpt - 1)}…`);

/** Put before the excerpt of evidence found on a rendered page (a headless browser's DOM and network log, not the HTTP response). */
export const RENDERED_EXCERPT = 'rendered: ';

class Findings {
  readonly byTech = new Map<number, EvidenceItem[]>();
  /** Set while a rendered page is matched: its evidence says where it came from. */
  rendered = false;
  /**
   * `weight`: the trace's own weight when it differs from the rule's (an optional skill in a job
   * post); `source`: where the trace was when it is not where the rule's field looks (a pixel's
   * address read by a script-address rule is markup).
   */
  add(p: CompiledPattern, m: PatternMatch, found: string, url?: string, weight = p.weight, source = sourceOfField(p.field)): void {
    const version = fillVersion(p.version, m);
    const excerpt = this.rendered ? clip(RENDERED_EXCERPT + found) : found;
    const ev: EvidenceItem = { source, url: url ?? null, ruleId: p.ruleId, excerpt, version: version || null, weight };
    const list = this.byTech.get(p.tech);
    const same = list?.findIndex((e) => e.ruleId === ev.ruleId) ?? -1;
    if (!list) this.byTech.set(p.tech, [ev]);
    else if (same < 0) list.push(ev);
    else if (weight > list[same]!.weight)
      list.splice(same, 1, ev); // a post that requires the tool outweighs one that only welcomes it
    else if (version && !list.some((e) => e.version))
      list.splice(
        list.findIndex((e) => e.ruleId === ev.ruleId),
        1,
        ev,
      );
  }
}

/** Runs the candidate patterns of `set` over one short text (a URL, a record), each from where its matches can start; the excerpt is the text. */
function matchShort(set: PatternSet, text: string, found: Findings, excerpt: (m: PatternMatch) => string, url?: string, source?: EvidenceSource): void {
  if (set.size === 0) return;
  for (const c of set.candidatesIn(text.toLowerCase(), text)) {
    const m = c.pattern.re.exec(text, c.floor);
    if (m) found.add(c.pattern, m, excerpt(m), url, c.pattern.weight, source);
  }
}

/**
 * Runs the patterns of one key (a meta name, a header, a cookie) over its value; the excerpt is
 * made only for a match. A pattern whose anchor the value lacks cannot match and is not run
 * (match-floor.ts), and the others start where their matches can.
 */
function matchKeyed(rules: CompiledPattern[] | undefined, value: string, found: Findings, excerpt: () => string, url: string): void {
  if (!rules) return;
  const lower = value.toLowerCase();
  for (const p of rules) {
    const from = matchFloor(p.anchors, value, lower);
    if (from === value.length && p.anchors.length > 0) continue;
    const m = p.re.exec(value, from);
    if (m) found.add(p, m, excerpt(), url);
  }
}

function scanHtml(catalog: CompiledCatalog, html: string, url: string, found: Findings): void {
  const page = scanPage(html, LIMITS.html);
  for (const r of page.resources.slice(0, LIMITS.resources)) {
    matchShort(catalog.resourceUrls, r.url, found, () => excerptOf(page.html, r.start, r.end - r.start, 0), url);
  }
  // A tag's fallback pixel is the address of its collection endpoint, read by the same address
  // rules as a script; the trace is markup (an image), not a script.
  for (const r of page.pixels) matchShort(catalog.resourceUrls, cap(r.url, 2048), found, () => excerptOf(page.html, r.start, r.end - r.start, 0), url, 'html');
  // The address an inline loader inserts is the script it loads.
  for (const r of page.inlineUrls) matchShort(catalog.resourceUrls, r.url, found, () => excerptOf(page.inlineScript, r.start, r.end - r.start), url);
  if (catalog.links.size) {
    // A page links to hundreds of its own paths; they are matched only when the page holds a literal of a pattern that reads one.
    const siteLinks = catalog.siteLinks.size > 0 && catalog.siteLinks.candidates(page.lower).length > 0;
    for (const link of page.links) {
      const onSite = link.url.charCodeAt(0) === 47 && link.url.charCodeAt(1) !== 47;
      if (onSite && !siteLinks) continue;
      matchShort(onSite ? catalog.siteLinks : catalog.links, cap(link.url, 2048), found, () => excerptOf(page.html, link.start, link.end - link.start, 0), url);
    }
  }
  for (const meta of page.metas) {
    matchKeyed(
      catalog.meta.get(meta.name),
      cap(meta.content, LIMITS.headerValue),
      found,
      () => excerptOf(page.html, meta.start, meta.end - meta.start, 0),
      url,
    );
  }
  if (page.inlineScript && catalog.inlineScripts.size) {
    for (const c of catalog.inlineScripts.candidatesIn(page.inlineLower, page.inlineScript)) {
      const m = firstMatch(c, page.inlineScript, () => -1);
      if (m) found.add(c.pattern, m, excerptOf(page.inlineScript, m.index, m[0].length), url);
    }
  }
  if (catalog.html.size) {
    for (const c of catalog.html.candidatesIn(page.lower, page.html)) {
      // A match inside a comment, a link, a logo, a code sample or a CSP list does not count: look further.
      const m = firstMatch(c, page.html, (m) => {
        const until = excludedUntil(page.excluded, m.index);
        return until < 0 ? -1 : Math.max(until, m.index + 1);
      });
      if (m) found.add(c.pattern, m, excerptOf(page.html, m.index, m[0].length), url);
    }
  }
}

/** How far before the first occurrence of a pattern's literal its match is looked for first. */
const BEFORE_LITERAL = 1024;

/**
 * The first match of a candidate in a long text that is not refused (`refuse` answers -1 to take
 * a match, else where to look on from; at most 50 tries). Every match holds the pattern's literal,
 * so the search starts shortly before the literal's first occurrence: the capturing automaton then
 * reads a few hundred characters, not the whole text up to there. Only a match reaching further
 * back than that is missed by the first search; when it finds none to take, the whole text is
 * searched. Neither search starts before the candidate's floor, where no match starts (the
 * pattern's part before its literal cannot reach further back, match-floor.ts): the same matches,
 * found reading a tag rather than a kilobyte.
 */
function firstMatch(c: Candidate, text: string, refuse: (m: PatternMatch) => number): PatternMatch | null {
  const p = c.pattern;
  for (const start of c.literalAt > BEFORE_LITERAL ? [c.literalAt - BEFORE_LITERAL, 0] : [0]) {
    let from = Math.max(start, c.floor);
    let m: PatternMatch | null;
    for (let tries = 0; tries < 50 && (m = p.re.exec(text, from)) !== null; tries++) {
      const next = refuse(m);
      if (next < 0) return m;
      from = next;
    }
  }
  return null;
}

function cookieParts(setCookie: string): [string, string] {
  const first = setCookie.split(';', 1)[0]!;
  const eq = first.indexOf('=');
  return eq < 0 ? [first.trim(), ''] : [first.slice(0, eq).trim(), first.slice(eq + 1).trim()];
}

/** The domains an SPF record authorises by name (include:, redirect=, a:, mx:, exists:). */
export function spfDomains(record: string): string[] {
  if (!/^\s*"?v=spf1\b/i.test(record)) return [];
  const out: string[] = [];
  for (const m of record.matchAll(/(?:^|\s)[+~?-]?(?:include:|redirect=|a:|mx:|exists:)([^\s"]+)/gi)) out.push(m[1]!.toLowerCase());
  return out;
}

/** The domains a DMARC record sends its aggregate and failure reports to (the `rua=` and `ruf=` mailto addresses). */
export function dmarcReportDomains(record: string): string[] {
  if (!/^\s*"?v=DMARC1\b/i.test(record)) return [];
  const out: string[] = [];
  for (const tag of record.matchAll(/\bru[af]\s*=\s*([^;"]+)/gi))
    for (const address of tag[1]!.split(',')) {
      const m = /^\s*mailto:[^@\s]+@([a-z0-9.-]+)/i.exec(address);
      if (m) out.push(m[1]!.toLowerCase());
    }
  return out;
}

export function detect(site: SiteArtifacts, catalog: CompiledCatalog, opts: DetectOptions = {}): Detection[] {
  const minConfidence = opts.minConfidence ?? CLAIM_CONFIDENCE;
  const maxEvidence = opts.maxEvidence ?? 5;
  const found = new Findings();

  for (const page of site.pages.slice(0, LIMITS.pages)) {
    const url = page.url;
    found.rendered = page.rendered === true;
    matchShort(catalog.pageUrl, cap(url, 2048), found, () => cap(url, LIMITS.excerpt), url);
    const headers = Object.entries(page.headers ?? {}).slice(0, LIMITS.headers);
    for (const [rawName, rawValue] of headers) {
      const name = rawName.toLowerCase();
      const value = cap(Array.isArray(rawValue) ? rawValue.join(', ') : String(rawValue), LIMITS.headerValue);
      matchKeyed(catalog.headers.get(name), value, found, () => excerptOf(`${name}: ${value}`, 0, 0), url);
    }
    const setCookies = page.cookies ?? toArray(page.headers?.['set-cookie']);
    for (const raw of setCookies.slice(0, LIMITS.cookies)) {
      const [name, value] = cookieParts(cap(raw, LIMITS.cookieValue));
      if (!name) continue;
      const excerpt = () => excerptOf(`${name}=${value}`, 0, 0);
      matchKeyed(catalog.cookies.get(name), value, found, excerpt, url);
      for (const [prefix, p] of catalog.cookiePrefixes) {
        if (!name.startsWith(prefix)) continue;
        const m = p.re.exec(value);
        if (m) found.add(p, m, excerpt(), url);
      }
    }
    for (const src of (page.scripts ?? []).slice(0, LIMITS.resources)) {
      const s = cap(String(src), 2048);
      matchShort(catalog.resourceUrls, s, found, () => excerptOf(s, 0, 0), url);
    }
    if (page.html) scanHtml(catalog, page.html, url, found);
  }

  found.rendered = false;
  const dns = site.dns ?? {};
  for (const type of ['MX', 'NS', 'CNAME', 'A', 'AAAA', 'TXT'] as const) {
    for (const raw of (dns[type] ?? []).slice(0, LIMITS.dnsRecords)) {
      const record = cap(String(raw), LIMITS.dnsValue);
      matchShort(catalog.dns[type], record, found, () => excerptOf(`${type} ${record}`, 0, 0));
      if (type !== 'TXT') continue;
      for (const domain of spfDomains(record)) matchShort(catalog.dns.SPF, domain, found, () => excerptOf(`TXT ${record}`, 0, 0));
      for (const domain of dmarcReportDomains(record)) matchShort(catalog.dns.DMARC, domain, found, () => excerptOf(`TXT ${record}`, 0, 0));
    }
  }

  const postsNaming = new Map<number, number>(); // technology → job posts that name it
  for (const raw of (site.jobs ?? []).slice(0, LIMITS.jobs)) {
    const text = cap(String(raw), LIMITS.jobText);
    if (catalog.job.size === 0) break;
    const lower = text.toLowerCase();
    const named = new Set<number>();
    for (const c of catalog.job.candidatesIn(lower, text)) {
      const m = firstMatch(c, text, () => -1);
      if (!m) continue;
      found.add(c.pattern, m, excerptOf(text, m.index, m[0].length), undefined, optionalSkill(lower, m.index) ? OPTIONAL_SKILL_WEIGHT : c.pattern.weight);
      named.add(c.pattern.tech);
    }
    for (const tech of named) postsNaming.set(tech, (postsNaming.get(tech) ?? 0) + 1);
  }
  if (postsNaming.size > 1) weighRareMentions(catalog, found, postsNaming);

  return resolve(catalog, found, minConfidence, maxEvidence);
}

/**
 * A job post that welcomes a tool ("nice to have", "a plus", "bonus", "preferred") says less
 * than one that requires it: many teams list tools they do not run. Its mention weighs as much
 * as a verification token: a candidate alone, support for another trace.
 */
const OPTIONAL_SKILL_WEIGHT = 0.3;
/**
 * Relative occurrence within a category: when a company's posts name one tool of a category
 * again and again (PostgreSQL in 12 posts) and another only in passing (MySQL in 2), the rare
 * one is more often a list of alternatives, a past migration or one team's exception than the
 * company's stack: its mentions weigh as an optional skill's (support for another trace, not a
 * claim). Only once the category's leader is named in RARE_MENTION_LEADER posts, and for a tool
 * named in at most RARE_MENTION_SHARE of the leader's posts.
 */
const RARE_MENTION_LEADER = 4;
const RARE_MENTION_SHARE = 0.25;
function weighRareMentions(catalog: CompiledCatalog, found: Findings, postsNaming: ReadonlyMap<number, number>): void {
  const leader = new Map<string, number>();
  for (const [tech, posts] of postsNaming) {
    const category = catalog.technologies[tech]!.category;
    leader.set(category, Math.max(leader.get(category) ?? 0, posts));
  }
  for (const [tech, posts] of postsNaming) {
    const top = leader.get(catalog.technologies[tech]!.category)!;
    if (top < RARE_MENTION_LEADER || posts > top * RARE_MENTION_SHARE) continue;
    for (const e of found.byTech.get(tech) ?? []) if (e.source === 'job' && e.weight > OPTIONAL_SKILL_WEIGHT) e.weight = OPTIONAL_SKILL_WEIGHT;
  }
}

const OPTIONAL_MARKERS = ['nice to have', 'nice-to-have', 'good to have', 'a plus', 'bonus', 'preferred', 'desirable', 'ideally', 'not required', 'optional'];
/** How far a sentence is read around a mention, each way. */
const SENTENCE_REACH = 300;

/** Whether the sentence around `index` of a lower-cased job post marks its skills as optional. */
function optionalSkill(lower: string, index: number): boolean {
  let start = Math.max(0, index - SENTENCE_REACH);
  for (let k = index - 1; k >= start; k--) {
    const c = lower.charCodeAt(k);
    if (c === 10 || c === 46 || c === 33 || c === 63 || c === 59) {
      start = k + 1;
      break;
    }
  }
  let end = Math.min(lower.length, index + SENTENCE_REACH);
  for (let k = index; k < end; k++) {
    const c = lower.charCodeAt(k);
    // A full stop inside a name (Node.js, ASP.NET) is not the end of the sentence.
    if (c === 10 || c === 33 || c === 63 || c === 59 || (c === 46 && !(lower.charCodeAt(k + 1) > 32))) {
      end = k;
      break;
    }
  }
  const sentence = lower.slice(start, end);
  return OPTIONAL_MARKERS.some((marker) => sentence.includes(marker));
}

const toArray = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** At most `max` items, strongest first, but the strongest of every source before a second of any: the reader sees where all the traces were. */
function pickEvidence(sorted: EvidenceItem[], max: number): EvidenceItem[] {
  const firsts: EvidenceItem[] = [],
    rest: EvidenceItem[] = [];
  const seen = new Set<string>();
  for (const e of sorted) {
    if (seen.has(e.source)) rest.push(e);
    else (seen.add(e.source), firsts.push(e));
  }
  return [...firsts, ...rest].slice(0, max);
}

/** Confidence per technology, then `implies` (transitively), then `excludes`, then the threshold. */
function resolve(catalog: CompiledCatalog, found: Findings, minConfidence: number, maxEvidence: number): Detection[] {
  interface Entry {
    confidence: number;
    evidence: EvidenceItem[];
    impliedBy?: string[];
  }
  const entries = new Map<number, Entry>();
  for (const [tech, evidence] of found.byTech) {
    entries.set(tech, { confidence: traceStrength(evidence), evidence: evidence.sort((a, b) => b.weight - a.weight) });
  }
  // Implications run to a fixed point (a chain such as WooCommerce → WordPress → PHP); only claims imply.
  let changed = true;
  for (let round = 0; changed && round < 10; round++) {
    changed = false;
    for (const [tech, entry] of [...entries]) {
      if (entry.confidence < minConfidence) continue;
      const parent = catalog.technologies[tech]!;
      for (const [target, weight] of parent.implies) {
        const current = entries.get(target);
        if (current?.impliedBy?.includes(parent.name)) continue;
        const implied = entry.confidence * weight;
        const carried: EvidenceItem = { ...entry.evidence[0]!, ruleId: `${parent.name}/implies/${catalog.technologies[target]!.name}`, version: null, weight };
        if (current) {
          current.confidence = Math.max(current.confidence, implied);
          current.evidence.push(carried);
          (current.impliedBy ??= []).push(parent.name);
        } else entries.set(target, { confidence: implied, evidence: [carried], impliedBy: [parent.name] });
        changed = true;
      }
    }
  }
  for (const [tech, entry] of entries) {
    if (entry.confidence < minConfidence) continue;
    for (const target of catalog.technologies[tech]!.excludes) entries.delete(target);
  }
  const out: Detection[] = [];
  for (const [tech, entry] of entries) {
    if (entry.confidence < minConfidence) continue;
    const info = catalog.technologies[tech]!;
    const direct = entry.evidence.filter((e) => !e.ruleId.includes('/implies/'));
    const version = direct.find((e) => e.version)?.version;
    const d: Detection = {
      name: info.name,
      vendor: info.vendor,
      vendorDomain: info.vendorDomain,
      category: info.category,
      confidence: Math.round(entry.confidence * 1000) / 1000,
      evidence: pickEvidence(entry.evidence, maxEvidence),
    };
    if (version) d.version = version;
    if (entry.impliedBy && direct.length === 0) d.impliedBy = entry.impliedBy;
    out.push(d);
  }
  return out.sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
}

export type SiteRecord = ReturnType<typeof siteRecord>;

/**
 * The record of one site's detections, as the contract names it (SiteDetections: `stacklens
 * detect --json`, `POST /api/detect`), in that field order; with the collection's coverage
 * (detect/visit.ts) where the CLI knows it, so a saved record can show absences.
 */
export function siteRecord(domain: string, detections: Detection[], visit?: VisitCoverage) {
  return {
    domain,
    technologies: detections.map((d) => ({
      name: d.name,
      vendorDomain: d.vendorDomain,
      category: d.category,
      ...(d.version ? { version: d.version } : {}),
      confidence: d.confidence,
      evidence: d.evidence,
    })),
    ...(visit ? { visit } : {}),
  };
}
