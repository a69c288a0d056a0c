// The demo world's past: 24 monthly visits of a company's site, each rendered from the
// installs the hidden truth has live at that date (an install is live from its firstVerified
// on; a churned one until its lastVerified), run through the real detector, and folded into
// technology events by the change rules (technographics/changes.ts technologyChanges, the fold
// recordDetections derives events with) and hiring events (technographics/hiring.ts). Alongside: the observation-log rows of the visits and
// the true changes (adoptions and drops inside the window) the eval compares events with.
//
// Why a visit can be detected once per distinct state: an install's public traces are drawn
// once, from a stream of its own (company, product), never from a shared stream, and the page
// holds nothing dated; so the rendered artifacts are a function of (live installs, hiring wave,
// partial fetch) and a visit with the same triple finds the same thing (the cache below).
//
// Noise a crawler meets: a few companies' sites are flaky; any visit may time out (failed,
// covers nothing) or meet a challenge page (partial: only DNS was had whole). Job posts exist
// only in hiring waves; only then does a visit cover the `jobs` kind.
import { detect } from '../../detect/detect.ts';
import type { CompiledCatalog } from '../../detect/catalog.ts';
import { hiringChanges } from '../../technographics/hiring.ts';
import type { SiteArtifacts } from '../../detect/types.ts';
import { CLAIM_CONFIDENCE, evidenceHash } from '../../technographics/evidence.ts';
import { observationOf, type Observation } from '../../technographics/observations.ts';
import { evidenceKinds, technologyChanges, type PageKind, type SeenProduct, type Visit } from '../../technographics/changes.ts';
import type { Catalog } from './catalog.ts';
import type { Company } from './companies.ts';
import type { Install } from './stacks.ts';
import { rngFor } from './rng.ts';
import { placeTrace, type Trace, type TraceKit } from './traces.ts';

const DAY = 86_400_000;
/** Monthly visits over two years. */
export const HISTORY_VISITS = 24;
export const HISTORY_INTERVAL_DAYS = 30;
/** A product's strongest evidence item is logged again when the log has nothing of it this recent (the staleness window, 90 days, always holds a sighting of a live product, even across a failed visit). */
const RELOG_AFTER_DAYS = 45;

export interface HistoryWorld {
  seed: string;
  asOfMs: number;
  catalog: Catalog;
  detector: CompiledCatalog;
  kits: TraceKit[];
  productIds: readonly string[];
}

/**
 * The truth of a product's use over the visited window, what the eval measures events and
 * trends against: in use from `from` (null: since before the first visit) until `until` (null:
 * still in use). An adoption is a non-null `from`, a drop a non-null `until`.
 */
interface TrueUse {
  productId: string;
  /** Its periods of use inside the window, numbered from 0 in time order. */
  period: number;
  from: Date | null;
  until: Date | null;
  /**
   * Whether a crawler could see its use: the detector claimed it on the site or in DNS (job posts
   * aside: they show presence, never absence) on a visit while it was in use.
   * A tool without a public trace (an internal tool, a server-side tag) or with one weak trace
   * only is in use all the same, but no visit can tell when it came or went.
   */
  detectable: boolean;
  /** Whether the detector saw it at all while in use (a weak trace too): the log, and so the trends, count it. */
  visible: boolean;
}

interface CompanyHistory {
  visits: Array<Visit & { reason: string | null }>;
  observations: Observation[];
  events: ReturnType<typeof technologyChanges>;
  /** The hiring events (technographics/hiring.ts) the same visits give. */
  hiring: ReturnType<typeof hiringChanges>;
  truth: TrueUse[];
}

/** Whether company `index` is in the history panel (a deterministic share of the world). */
export function inHistoryPanel(seed: string, index: number, share: number): boolean {
  if (share >= 1) return true;
  if (share <= 0) return false;
  return rngFor(seed, 'history-panel', index).next() < share;
}

interface LiveInstall {
  product: number;
  from: number;
  until: number;
  web: Trace[];
  records: Trace[];
  job: string | null;
}

/** A period of a product's use, and whether the detector claimed it (or saw it at all) on a visit inside it. */
interface Period {
  from: number;
  until: number;
  claimed: boolean;
  sighted: boolean;
}

/** Overlapping or touching periods as one, in time order. */
function mergePeriods(list: Period[]): Period[] {
  const out: Period[] = [];
  for (const p of [...list].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1);
    if (last && p.from <= last.until) last.until = Math.max(last.until, p.until);
    else out.push({ ...p });
  }
  return out;
}

/** The public traces one install shows while it is live: drawn once, from its own stream. */
function tracesOf(w: HistoryWorld, company: Company, inst: Install): LiveInstall | null {
  if (inst.kind === 'weak_mention') return null; // a mention, not a use: no claim on any page
  const product = w.catalog.products[inst.product]!;
  const kit = w.kits[product.technology]!;
  const rng = rngFor(w.seed, 'history', `${company.index}:${inst.product}`);
  const live = { product: inst.product, from: inst.firstVerified, until: inst.kind === 'churned' ? inst.lastVerified : Infinity };
  const web: Trace[] = kit.traces.filter((t) => t.kind !== 'dns' && t.kind !== 'spf' && t.kind !== 'job');
  const records: Trace[] = kit.traces.filter((t) => t.kind === 'dns' || t.kind === 'spf');
  const phrases = kit.traces.filter((t): t is Extract<Trace, { kind: 'job' }> => t.kind === 'job');
  if (inst.kind === 'active_sparse') {
    // One trace on the site or in DNS (a tool seen only in job posts shows in today's posts, not in the visited past).
    const visible = [...web, ...records];
    if (rng.chance(0.35) || visible.length === 0) return { ...live, web: [], records: [], job: null };
    const t = rng.pick(visible);
    return { ...live, web: web.includes(t) ? [t] : [], records: records.includes(t) ? [t] : [], job: null };
  }
  // active, or churned while it was in use: the traces of normal use
  if (rng.chance(0.06)) return { ...live, web: [], records: [], job: null }; // in use, no public trace
  let chosen = web.filter(() => rng.chance(0.55));
  if (chosen.length === 0 && web.length && rng.chance(0.9)) chosen = [rng.pick(web)];
  const dns = records.filter(() => rng.chance(0.9));
  const job = phrases.length && rng.chance(0.5) ? rng.pick(phrases).phrase : null;
  return { ...live, web: chosen, records: dns, job };
}

/** The site as a visit sees it: its pages (unless a challenge page stood in the way), its DNS, its open job posts. */
function siteOf(company: Company, live: LiveInstall[], wave: number | null, partial: boolean): SiteArtifacts {
  const head: string[] = [],
    body: string[] = [],
    cookies: string[] = [],
    spf: string[] = [],
    jobs: string[] = [];
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
  const dns = { MX: [] as string[], TXT: [] as string[], CNAME: [] as string[], NS: [] as string[], A: ['203.0.113.10'] };
  for (const l of live) {
    for (const t of l.web) placeTrace(t, company.domain, head, body, headers, cookies, dns, spf, jobs);
    for (const t of l.records) placeTrace(t, company.domain, head, body, headers, cookies, dns, spf, jobs);
  }
  if (spf.length) dns.TXT.push(`v=spf1 ${[...new Set(spf)].map((s) => `include:${s}`).join(' ')} ~all`);
  const phrases = wave !== null ? live.flatMap((l) => (l.job ? [l.job] : [])) : [];
  const html = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(company.name)}</title>`,
    ...head,
    `</head><body><main><h1>${esc(company.name)}</h1><p>${esc(company.description)}</p>`,
    ...body,
    `</main></body></html>`,
  ].join('\n');
  return {
    domain: company.domain,
    pages: partial ? [] : [{ url: `https://${company.domain}/`, status: 200, headers, cookies, html }],
    dns,
    // One post per tool a wave hires for, its opening numbered by the wave: a post stays listed through its wave, a later wave posts anew.
    ...(wave !== null
      ? { jobs: [...new Set(phrases)].map((p, n) => `Opening ${wave + 1}.${n + 1} at ${company.name} (${company.city}). Experience with ${p}. Join us.`) }
      : {}),
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function companyHistory(w: HistoryWorld, company: Company, companyId: string, installs: readonly Install[]): CompanyHistory {
  const rng = rngFor(w.seed, 'history-visits', company.index);
  const lives = installs.map((i) => tracesOf(w, company, i)).filter((l): l is LiveInstall => l !== null);
  // The truth: a product is in use while its own install is live, and while a product that
  // implies it is (a WordPress plugin runs on WordPress, WordPress on PHP): the periods of use,
  // per product, are the union of those intervals, closed under implies.
  const periods = new Map<number, Period[]>();
  const use = (product: number, from: number, until: number, path: readonly number[]) => {
    let list = periods.get(product);
    if (!list) periods.set(product, (list = []));
    list.push({ from, until, claimed: false, sighted: false });
    for (const implied of w.catalog.implies[product] ?? []) if (!path.includes(implied)) use(implied, from, until, [...path, implied]);
  };
  for (const l of lives) use(l.product, l.from, l.until, [l.product]);
  for (const [product, list] of periods) periods.set(product, mergePeriods(list));
  lives.sort((a, b) => a.product - b.product);
  // A response header has one value: the first install to use a header name keeps it for good, so
  // a later install never takes it over (its other traces still show it).
  const headers = new Set<string>();
  for (const l of [...lives].sort((a, b) => a.from - b.from || a.product - b.product)) {
    l.web = l.web.filter((t) => t.kind !== 'header' || !headers.has(t.name.toLowerCase()));
    for (const t of l.web) if (t.kind === 'header') headers.add(t.name.toLowerCase());
  }
  const offset = rng.int(0, HISTORY_INTERVAL_DAYS - 1) * DAY + rng.int(0, 86_399) * 1000;
  const times = Array.from({ length: HISTORY_VISITS }, (_, k) => w.asOfMs - offset - (HISTORY_VISITS - 1 - k) * HISTORY_INTERVAL_DAYS * DAY);
  const failRate = rng.chance(0.1) ? 0.2 : 0.04; // a few flaky sites
  /** Per visit: the hiring wave whose posts are open (null: none); a later wave overlapping an earlier one takes over its months. */
  const hiring = new Array<number | null>(HISTORY_VISITS).fill(null);
  for (let waves = Math.min(4, rng.poisson(1 + 2 * company.scale01)), n = 0; n < waves; n++) {
    const start = rng.int(0, HISTORY_VISITS - 1);
    for (let k = start; k < Math.min(HISTORY_VISITS, start + rng.int(1, 3)); k++) hiring[k] = n;
  }

  type Item = { hash: string; item: Parameters<typeof observationOf>[0] };
  const cache = new Map<string, { seen: Map<string, SeenProduct>; items: Map<string, Item[]> }>();
  const visits: CompanyHistory['visits'] = [];
  const observations: Observation[] = [];
  const loggedHashes = new Set<string>();
  const lastLogged = new Map<string, number>();
  for (let k = 0; k < HISTORY_VISITS; k++) {
    const at = times[k]!;
    const u = rng.next();
    const outcome = u < failRate * 0.6 ? 'failed' : u < failRate ? 'partial' : 'ok';
    if (outcome === 'failed') {
      visits.push({ at: new Date(at), outcome, kinds: [], seen: new Map(), reason: 'timeout' });
      continue;
    }
    const live = lives.filter((l) => l.from <= at && at <= l.until);
    const partial = outcome === 'partial';
    const wave = partial ? null : hiring[k]!;
    const key = `${live.map((l) => l.product).join(',')}|${wave ?? ''}|${partial ? 'p' : ''}`;
    let found = cache.get(key);
    if (!found) {
      found = { seen: new Map(), items: new Map() };
      for (const d of detect(siteOf(company, live, wave, partial), w.detector)) {
        const tech = w.detector.byName.get(d.name);
        if (tech === undefined || w.catalog.productOfTechnology[tech]! < 0) continue;
        const productId = w.productIds[w.catalog.productOfTechnology[tech]!]!;
        const hashed = d.evidence.map((e) => ({ hash: evidenceHash(e), item: e }));
        found.items.set(productId, hashed);
        const jobPosts = hashed.filter((h) => h.item.source === 'job').map((h) => h.hash);
        found.seen.set(productId, {
          confidence: d.confidence,
          version: d.version ?? null,
          kinds: evidenceKinds(d.evidence),
          evidence: hashed.map((h) => h.hash),
          ...(jobPosts.length > 0 ? { jobPosts } : {}),
        });
      }
      cache.set(key, found);
    }
    const kinds: PageKind[] = partial ? ['dns'] : wave !== null ? ['dns', 'jobs', 'web'] : ['dns', 'web'];
    visits.push({ at: new Date(at), outcome, kinds, seen: found.seen, reason: partial ? 'challenge page' : null });
    // Whether the detector saw each product in use on this visit (a claim, or a weak trace only).
    for (const [product, list] of periods) {
      const seen = found.seen.get(w.productIds[product]!);
      const period = seen && list.find((p) => p.from <= at && at <= p.until);
      if (!period) continue;
      period.sighted = true;
      // A claim on the site or in DNS: job posts name a sample of the tools and show no absence (changes.ts), so a tool claimed only in posts has no change a crawler can date.
      if (seen.confidence >= CLAIM_CONFIDENCE && seen.kinds.some((kind) => kind !== 'jobs')) period.claimed = true;
    }
    // The observation log: every item on its first sighting; afterwards a product's strongest item every RELOG_AFTER_DAYS.
    for (const [productId, list] of found.items) {
      const relog = (lastLogged.get(productId) ?? -Infinity) <= at - RELOG_AFTER_DAYS * DAY;
      let strongest = list[0];
      for (const x of list) if (strongest && x.item.weight > strongest.item.weight) strongest = x;
      let logged = false;
      for (const x of list) {
        const first = !loggedHashes.has(`${productId}|${x.hash}`);
        if (!first && !(relog && x === strongest)) continue;
        loggedHashes.add(`${productId}|${x.hash}`);
        observations.push(observationOf(x.item, { companyId, productId, seenAt: new Date(at), input: 'demo', runId: 'demo-history' }, x.hash));
        logged = true;
      }
      if (logged) lastLogged.set(productId, at);
    }
  }

  const truth: TrueUse[] = [];
  const firstVisit = times[0]!;
  for (const [product, list] of [...periods].sort((x, y) => x[0] - y[0])) {
    // The periods in use inside the window, numbered in time order.
    list
      .filter((p) => p.until >= firstVisit && p.from <= w.asOfMs)
      .forEach((p, period) =>
        truth.push({
          productId: w.productIds[product]!,
          period,
          from: p.from > firstVisit ? new Date(p.from) : null,
          until: p.until <= w.asOfMs ? new Date(p.until) : null,
          detectable: p.claimed,
          visible: p.sighted,
        }),
      );
  }
  return { visits, observations, events: technologyChanges(companyId, visits), hiring: hiringChanges(companyId, visits), truth };
}
