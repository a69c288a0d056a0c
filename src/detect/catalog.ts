// The technology catalog: our rule files (catalog/technologies/*.json, Apache-2.0, written for
// Stacklens) plus an operator's own file, validated and compiled once into the matchers the
// detector runs. Compiling is pure; loadCatalog() is the one function here that reads files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { categoryNames } from '../technographics/taxonomy.ts';
import {
  compilePattern,
  DNS_RULE_TYPES,
  escapeRegex,
  PatternSet,
  RuleError,
  ruleFileSchema,
  toList,
  type CompiledPattern,
  type DnsRuleType,
  type PatternEngine,
  type RuleFile,
  type TechnologyRule,
} from './rules.ts';

const CATALOG_DIR = new URL('../../catalog/technologies/', import.meta.url);
/** Technologies detected everywhere but not drawn into the demo world (readBuiltInRules). */
const EXTENDED_FOLDER = 'extended';

/** Category names of our taxonomy (catalog/categories.txt): every level is allowed. */
export const CATEGORY_NAMES: ReadonlySet<string> = categoryNames();

export interface TechnologyInfo {
  name: string;
  vendor: string;
  vendorDomain: string;
  website?: string;
  category: string;
  categories: string[];
  description?: string;
  /** [technology index, weight] pairs. */
  implies: Array<[number, number]>;
  excludes: number[];
}

export interface CompiledCatalog {
  technologies: TechnologyInfo[];
  byName: Map<string, number>;
  /** Script src, link href (not hints) and iframe src URLs. */
  resourceUrls: PatternSet;
  /** Inline script text: `js` globals and `scripts` snippets. */
  inlineScripts: PatternSet;
  /** The names of the `js` globals, each once (the rendered pass reads them in the page). */
  jsGlobals: string[];
  html: PatternSet;
  /** The href of `<a>` links: accounts on vendors' domains. */
  links: PatternSet;
  /** The `links` patterns that read a path on the site itself (SITE_PATH), the only ones a link such as `/cdn-cgi/…` is matched with. */
  siteLinks: PatternSet;
  pageUrl: PatternSet;
  job: PatternSet;
  dns: Record<DnsRuleType, PatternSet>;
  /** Keyed rules: lower-case meta name / header name → patterns on the value. */
  meta: Map<string, CompiledPattern[]>;
  headers: Map<string, CompiledPattern[]>;
  /** Cookie name → patterns on the value; names ending in `*` are prefixes. */
  cookies: Map<string, CompiledPattern[]>;
  cookiePrefixes: Array<[string, CompiledPattern]>;
}

const hostOf = (url: string | undefined): string | undefined => {
  try {
    return url ? new URL(url).hostname.replace(/^www\./, '') : undefined;
  } catch {
    return undefined;
  }
};

/** Validates a parsed rule file; the error names the technology and field. */
function parseRuleFile(data: unknown, origin: string): RuleFile {
  const parsed = ruleFileSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const [tech, ...field] = issue.path.map(String);
  const where = tech ? `technology '${tech}'${field.length ? `, field ${field.join('.')}` : ''}` : 'top level';
  throw new RuleError(`${origin}: ${where}: ${issue.message}`);
}

interface CompileOptions {
  /** Technologies whose patterns are validated now (default: all); the others compile on first use. */
  check?: (technology: string) => boolean;
  /** 'linear' (default) for every page from outside; 'own-text' only for pages generated here (rules.ts). */
  engine?: PatternEngine;
}

/** Compiles rules into matchers. Unknown categories, relations to unknown technologies and patterns linear-time matching cannot run are errors. */
export function compileCatalog(rules: RuleFile, categories: ReadonlySet<string> = CATEGORY_NAMES, opts: CompileOptions = {}): CompiledCatalog {
  const names = Object.keys(rules);
  const engine = opts.engine ?? 'linear';
  const byName = new Map(names.map((n, i) => [n, i]));
  const technologies: TechnologyInfo[] = [];
  const buckets = {
    resourceUrls: [] as CompiledPattern[],
    inlineScripts: [] as CompiledPattern[],
    html: [] as CompiledPattern[],
    links: [] as CompiledPattern[],
    pageUrl: [] as CompiledPattern[],
    job: [] as CompiledPattern[],
  };
  const dns = Object.fromEntries(DNS_RULE_TYPES.map((t) => [t, [] as CompiledPattern[]])) as Record<DnsRuleType, CompiledPattern[]>;
  const meta = new Map<string, CompiledPattern[]>(),
    headers = new Map<string, CompiledPattern[]>(),
    cookies = new Map<string, CompiledPattern[]>();
  const cookiePrefixes: Array<[string, CompiledPattern]> = [];
  const jsGlobals = new Set<string>();
  const push = (map: Map<string, CompiledPattern[]>, key: string, p: CompiledPattern) => {
    const list = map.get(key);
    if (list) list.push(p);
    else map.set(key, [p]);
  };

  names.forEach((name, t) => {
    const rule: TechnologyRule = rules[name]!;
    const check = opts.check?.(name) ?? true;
    for (const cat of rule.cats)
      if (!categories.has(cat)) throw new RuleError(`${name}: cats: unknown category '${cat}' (use a category name of the taxonomy, docs/detection-rules.md)`);
    const relation = (field: 'implies' | 'excludes', raw: string): [number, number] => {
      const { source, confidence } = parseTags(raw);
      const target = byName.get(source);
      if (target === undefined) throw new RuleError(`${name}: ${field}: unknown technology '${source}'`);
      return [target, confidence !== undefined ? confidence / 100 : 1];
    };
    const vendorDomain = rule.vendorDomain ?? hostOf(rule.website) ?? '';
    technologies.push({
      name,
      vendor: rule.vendor ?? name,
      vendorDomain,
      website: rule.website,
      category: rule.cats[0]!,
      categories: rule.cats,
      description: rule.description,
      implies: toList(rule.implies).map((r) => relation('implies', r)),
      excludes: toList(rule.excludes).map((r) => relation('excludes', r)[0]),
    });
    const list = (field: string, bucket: CompiledPattern[], value: string | string[] | undefined) =>
      toList(value).forEach((raw, i) => bucket.push(compilePattern(t, name, field, String(i), raw, undefined, check, engine)));
    list('scriptSrc', buckets.resourceUrls, rule.scriptSrc);
    list('scripts', buckets.inlineScripts, rule.scripts);
    list('html', buckets.html, rule.html);
    list('links', buckets.links, rule.links);
    list('url', buckets.pageUrl, rule.url);
    list('job', buckets.job, rule.job);
    for (const type of DNS_RULE_TYPES) list(`dns.${type}`, dns[type], rule.dns?.[type]);
    // A `js` global is found statically as the identifier in inline script text (not inside a longer
    // identifier): the characters around it are matched, as linear-time matching has no lookaround
    // (the inline text begins and ends with a newline, page.ts, so there always are two).
    for (const [global, value] of Object.entries(rule.js ?? {})) {
      jsGlobals.add(global);
      const tags = toList(value)[0] ?? '';
      const pattern = `[^\\w$]${escapeRegex(global)}[^\\w$]${tags.includes('\\;') ? tags.slice(tags.indexOf('\\;')) : ''}`;
      buckets.inlineScripts.push(compilePattern(t, name, 'js', global, pattern, global.length >= 3 ? global.toLowerCase() : undefined, check, engine));
    }
    for (const [key, value] of Object.entries(rule.meta ?? {}))
      for (const raw of toList(value)) push(meta, key.toLowerCase(), compilePattern(t, name, 'meta', key, raw, undefined, check, engine));
    for (const [key, value] of Object.entries(rule.headers ?? {}))
      for (const raw of toList(value)) push(headers, key.toLowerCase(), compilePattern(t, name, 'headers', key, raw, undefined, check, engine));
    for (const [key, value] of Object.entries(rule.cookies ?? {})) {
      for (const raw of toList(value)) {
        const p = compilePattern(t, name, 'cookies', key, raw, undefined, check, engine);
        if (key.endsWith('*')) cookiePrefixes.push([key.slice(0, -1), p]);
        else push(cookies, key, p);
      }
    }
  });
  return {
    technologies,
    byName,
    resourceUrls: new PatternSet(buckets.resourceUrls),
    inlineScripts: new PatternSet(buckets.inlineScripts),
    jsGlobals: [...jsGlobals],
    html: new PatternSet(buckets.html),
    links: new PatternSet(buckets.links),
    siteLinks: new PatternSet(buckets.links.filter((p) => SITE_PATH.test(p.source))),
    pageUrl: new PatternSet(buckets.pageUrl),
    job: new PatternSet(buckets.job),
    dns: Object.fromEntries(DNS_RULE_TYPES.map((type) => [type, new PatternSet(dns[type])])) as Record<DnsRuleType, PatternSet>,
    meta,
    headers,
    cookies,
    cookiePrefixes,
  };
}

/**
 * A `links` pattern written for a path on the site itself starts `^/` or `^(?:https?://[^/]+)?/`
 * (docs/detection-rules.md). A page has hundreds of such links (its navigation) and the catalog
 * one or two such patterns: the others all start with a vendor's host, so those links are matched
 * with these alone.
 */
const SITE_PATH = /^\^(?:\/(?!\/)|\(\?:https\?:\/\/\[\^\/\]\+\)\?\/)/;

function parseTags(raw: string): { source: string; confidence?: number } {
  const [source, ...tags] = raw.split('\\;');
  const c = tags.find((t) => t.startsWith('confidence:'));
  return { source: source!, confidence: c ? Number(c.slice(11)) : undefined };
}

/** Reads and validates one JSON rule file. */
export function readRuleFile(path: string): RuleFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RuleError(`${path}: ${(err as Error).message}`);
  }
  // The open format nests the map under "technologies"; ours is the map itself. Accept both.
  if (
    data &&
    typeof data === 'object' &&
    !Array.isArray(data) &&
    'technologies' in data &&
    z.record(z.string(), z.unknown()).safeParse((data as { technologies: unknown }).technologies).success
  ) {
    data = (data as { technologies: unknown }).technologies;
  }
  return parseRuleFile(data, path);
}

/**
 * Our own rules: every file of catalog/technologies/ and of its `extended/` folder, merged (a
 * name defined twice is an error). `core: true` reads the top-level files alone: the core
 * catalog the demo world draws its products from, so that growing the catalog leaves the demo
 * world (its size, its first start, the figures measured on it) as it is.
 */
export function readBuiltInRules(dir: URL | string = CATALOG_DIR, { core = false }: { core?: boolean } = {}): RuleFile {
  const root = typeof dir === 'string' ? dir : dir.pathname;
  const folders = core ? [root] : [root, join(root, EXTENDED_FOLDER)];
  const out: RuleFile = {};
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      for (const [name, rule] of Object.entries(readRuleFile(join(folder, file)))) {
        if (name in out) throw new RuleError(`${file}: technology '${name}' is defined in two catalog files`);
        out[name] = rule;
      }
    }
  }
  return out;
}

/** The core catalog's rules: the technologies the demo world draws its products from. */
export const readCoreRules = (): RuleFile => readBuiltInRules(CATALOG_DIR, { core: true });

interface LoadCatalogOptions {
  /** An operator's rule file: adds technologies and replaces ours of the same name. */
  rulesFile?: string;
  /** Use only the operator's file, not the built-in catalog. */
  replace?: boolean;
}

/** Our catalog plus an operator's file (or that file alone); the operator's patterns are validated at load. */
export function loadCatalog(opts: LoadCatalogOptions = {}): CompiledCatalog {
  const own = opts.rulesFile ? readRuleFile(opts.rulesFile) : {};
  if (opts.replace && !opts.rulesFile) throw new RuleError('replacing the catalog needs a rules file');
  return compileCatalog(opts.replace ? own : { ...readBuiltInRules(), ...own }, CATEGORY_NAMES, { check: (name) => name in own });
}

let builtIn: CompiledCatalog | undefined;

/** The built-in catalog, compiled once per process (the evals and the detection service share it); its patterns compile on first use. */
export function builtInCatalog(): CompiledCatalog {
  return (builtIn ??= compileCatalog(readBuiltInRules(), CATEGORY_NAMES, { check: () => false }));
}

let core: CompiledCatalog | undefined;

/** The core catalog (the demo world's products) on the linear engine: what the world evaluation renders the world from. */
export function coreCatalog(): CompiledCatalog {
  return (core ??= compileCatalog(readCoreRules(), CATEGORY_NAMES, { check: () => false }));
}

let ownText: CompiledCatalog | undefined;

/**
 * The core catalog for the demo world's generator, which detects the pages it rendered
 * itself: JavaScript's own RegExp where it reads a pattern as RE2 does (pattern.ts says why it
 * may, and a test holds the two catalogs' detections equal on the generated pages).
 */
export function ownTextCatalog(): CompiledCatalog {
  return (ownText ??= compileCatalog(readCoreRules(), CATEGORY_NAMES, { check: () => false, engine: 'own-text' }));
}
