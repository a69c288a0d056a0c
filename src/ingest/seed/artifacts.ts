// The demo world made of artifacts: each company's home page (with links to its accounts on
// vendors' sites), response headers, cookies, DNS records and job posts (its job board,
// job-posts.ts), rendered from its hidden true stack with the traces the technologies' own rules
// look for (traces.ts), and with the noise of real crawls:
//   - missing tags: some tools in use leave no public trace at all, sparse ones only one;
//   - proxied analytics: a first-party script path that hides the vendor;
//   - commented-out tags and stale SPF includes of tools the company dropped;
//   - old job posts and an archived copy of the home page that still show dropped tools;
//   - competitors and partners named in blog text and logos (mentions, not use).
// Deterministic from the seed; nothing here is stored — a run regenerates the same artifacts.
import type { CompiledCatalog } from '../../detect/catalog.ts';
import type { SiteArtifacts } from '../../detect/types.ts';
import type { EvidenceSource } from '../../technographics/evidence.ts';
import type { Catalog } from './catalog.ts';
import type { Company } from './companies.ts';
import type { Install } from './stacks.ts';
import { rngFor, type Rng } from './rng.ts';
import { slugify } from '../../slug.ts';
import { placeTrace, TRACE_SOURCE, type Trace, type TraceKit } from './traces.ts';
import { jobBoard, postText, type JobLine, type JobPost } from './job-posts.ts';

const DAY = 86_400_000;

export interface ArtifactWorld {
  seed: string;
  asOfMs: number;
  catalog: Catalog;
  detector: CompiledCatalog;
  kits: TraceKit[];
}

/** One collected snapshot: what a crawl (or a job-board import) saw, and when. */
export interface Capture {
  kind: 'crawl' | 'archive' | 'job';
  seenAt: number;
  site: SiteArtifacts;
}

interface RenderedSite {
  captures: Capture[];
  /**
   * Technology index → the evidence sources whose traces of current use were planted in the
   * latest crawl or a job post of the last year; only technologies with a trace that is a claim
   * on its own (a verification token alone is not: it supports another trace).
   */
  planted: Map<number, Set<EvidenceSource>>;
  /** Technologies the pages name in text only (competitors, partners): must not be detected. */
  mentioned: number[];
}

const ANALYTICS_LEAVES = new Set(['Web Analytics', 'Product Analytics', 'Tag Management', 'Customer Data Platforms', 'Marketing Attribution']);
const ROLES = [
  'Marketing Operations Manager',
  'Senior Software Engineer',
  'Data Analyst',
  'IT Administrator',
  'Customer Success Manager',
  'Sales Operations Analyst',
  'DevOps Engineer',
  'HR Generalist',
  'Finance Manager',
  'Growth Marketer',
  'Support Specialist',
  'Product Designer',
];
/** A post of the board within this many days of a dated line takes it (else the line is a post of its own). */
const SAME_POST_DAYS = 45;
/** Job posts are imported every four months: one capture (one detection run) per four months of posts. */
const IMPORT_DAYS = 120;

interface Page {
  head: string[];
  body: string[];
  headers: Record<string, string>;
  cookies: string[];
}

const newPage = (): Page => ({ head: [], body: [], headers: { 'content-type': 'text/html; charset=utf-8' }, cookies: [] });

function htmlOf(c: Company, page: Page, blog: string[], year: number): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(c.name)} | ${esc(c.industry.name)}</title>`,
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="${esc(c.description)}">`,
    `<link rel="stylesheet" href="/assets/site.css">`,
    ...page.head,
    `</head><body><header><a href="/" class="logo"><img src="/assets/logo.svg" alt="${esc(c.name)}"></a>`,
    `<nav><a href="/products">Products</a><a href="/about">About</a><a href="/careers">Careers</a><a href="/blog">Blog</a><a href="/contact">Contact</a></nav></header>`,
    `<main><section class="hero"><h1>${esc(c.name)}</h1><p>${esc(c.description)}</p><a class="cta" href="/contact">Talk to us</a></section>`,
    `<section class="about"><h2>About us</h2><p>Founded in ${c.foundedYear}, ${esc(c.name)} is based in ${esc(c.city)} and employs about ${c.employees} people.</p></section>`,
    `<section class="blog"><h2>From the blog</h2>${blog.map((b) => `<article><p>${b}</p></article>`).join('')}</section>`,
    ...page.body,
    `</main><footer><p>&copy; ${year} ${esc(c.legalName)}. ${esc(c.street)}, ${esc(c.city)}.</p><a href="/privacy">Privacy</a></footer>`,
    `<script src="/assets/site.js" defer></script></body></html>`,
  ].join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const token = (rng: Rng, n: number) => Array.from({ length: n }, () => 'abcdefghjkmnpqrstuvwxyz0123456789'[rng.int(0, 32)]).join('');

export function renderSite(w: ArtifactWorld, company: Company, installs: Install[]): RenderedSite {
  const rng = rngFor(w.seed, 'site', company.index);
  const domain = company.domain;
  const crawlAt = w.asOfMs - rng.int(0, 20) * DAY - rng.int(0, 86_399) * 1000;
  const archiveAt = rng.chance(0.5) ? w.asOfMs - rng.int(200, 900) * DAY : null;
  const now = newPage(),
    old = newPage();
  const dns = { MX: [] as string[], TXT: [] as string[], CNAME: [] as string[], NS: [] as string[], A: [`203.0.113.${rng.int(1, 254)}`] };
  const spf: string[] = [];
  const blog: string[] = [];
  const jobs: JobLine[] = [];
  /** Installs in use without any public trace (an internal tool, a server-side tag): no post names them either. */
  const silent = new Set<number>();
  const planted = new Map<number, Set<EvidenceSource>>();
  const claimable = new Set<number>();
  const plant = (tech: number, t: Trace) => {
    const set = planted.get(tech) ?? new Set<EvidenceSource>();
    set.add(TRACE_SOURCE[t.kind]);
    planted.set(tech, set);
    if (!(t.kind === 'dns' && t.type === 'TXT')) claimable.add(tech);
  };
  const put = (page: Page, t: Trace) => {
    const jobsSink: string[] = [];
    placeTrace(t, domain, page.head, page.body, page.headers, page.cookies, dns, spf, jobsSink);
  };
  const installed = new Set<number>();

  for (const inst of installs) {
    const product = w.catalog.products[inst.product]!;
    installed.add(product.technology);
    const kit = w.kits[product.technology]!;
    const web = kit.traces.filter((t) => t.kind !== 'dns' && t.kind !== 'spf' && t.kind !== 'job');
    const records = kit.traces.filter((t) => t.kind === 'dns' || t.kind === 'spf');
    const phrases = kit.traces.filter((t): t is Extract<Trace, { kind: 'job' }> => t.kind === 'job');
    const live = (at: number) => inst.firstVerified <= at && at <= Math.max(inst.lastVerified, inst.inUse ? w.asOfMs : 0);
    const tech = product.technology;
    const leafName = w.catalog.categoryById.get(product.categoryId)!.name;
    switch (inst.kind) {
      case 'active': {
        if (rng.chance(0.06)) {
          silent.add(inst.product); // in use, no public trace (internal tool, server-side tag)
          break;
        }
        const proxied = ANALYTICS_LEAVES.has(leafName) && rng.chance(0.2);
        let chosen = web.filter(() => rng.chance(0.55));
        if (chosen.length === 0 && web.length && rng.chance(0.9)) chosen = [rng.pick(web)];
        if (proxied) {
          chosen = chosen.filter((t) => t.kind !== 'script' && t.kind !== 'inline');
          now.body.push(`<script async src="/${token(rng, 6)}/js/script.js" data-api="/${token(rng, 4)}/event"></script>\n`);
        }
        for (const t of chosen) (put(now, t), plant(tech, t));
        if (archiveAt !== null && live(archiveAt)) for (const t of chosen) put(old, t);
        for (const t of records) if (rng.chance(0.9)) (put(now, t), plant(tech, t));
        break; // its job posts: the board's (job-posts.ts)
      }
      case 'active_sparse': {
        // A service's DNS records are configuration (a DKIM key, a help-centre CNAME): there however
        // lightly it is used. What is sparse is the rest: one trace at most.
        const config: Trace[] = records.filter((t) => t.kind === 'spf' || (t.kind === 'dns' && t.type !== 'TXT'));
        for (const t of config) if (rng.chance(0.9)) (put(now, t), plant(tech, t));
        if (rng.chance(0.35) || kit.traces.length === 0) break;
        const t = rng.pick(kit.traces);
        if (config.includes(t)) break;
        if (t.kind === 'job') {
          const at = Math.max(inst.firstVerified, Math.min(inst.lastVerified, w.asOfMs - rng.int(0, 500) * DAY));
          jobs.push({ tech, phrase: t.phrase, at, mention: false });
          if (at >= w.asOfMs - 365 * DAY) plant(tech, t);
        } else (put(now, t), plant(tech, t));
        break;
      }
      case 'churned': {
        // Gone from today's page; what is left is stale: a commented-out tag, an SPF include, a
        // domain-verification token (nobody removes either), old posts, the archive.
        const script = web.find((t) => t.kind === 'script');
        if (script && script.kind === 'script' && rng.chance(0.35))
          now.body.push(
            `<!-- removed ${new Date(inst.lastVerified).toISOString().slice(0, 7)}: <script src="${script.src.replace('{domain}', domain)}"></script> -->\n`,
          );
        for (const t of records) if ((t.kind === 'spf' || (t.kind === 'dns' && t.type === 'TXT')) && rng.chance(0.5)) put(now, t);
        if (phrases.length && rng.chance(0.6))
          jobs.push({ tech, phrase: rng.pick(phrases).phrase, at: Math.max(inst.firstVerified, inst.lastVerified - rng.int(0, 180) * DAY), mention: false });
        if (archiveAt !== null && live(archiveAt)) for (const t of web) if (rng.chance(0.55)) put(old, t);
        break;
      }
      case 'weak_mention': {
        if (rng.chance(0.5)) blog.push(`Our team compared ${esc(product.name)} with a few other ${esc(leafName.toLowerCase())} tools this quarter.`);
        if (phrases.length && rng.chance(0.4)) {
          const t = rng.pick(phrases);
          const at = Math.min(w.asOfMs, inst.lastVerified);
          jobs.push({ tech, phrase: t.phrase, at, mention: true });
          if (inst.inUse && at >= w.asOfMs - 365 * DAY) plant(tech, t);
        }
        break;
      }
    }
  }

  // Competitors and partners named in text and logos: mentions, never use.
  // (Not a technology an installed one implies: a WordPress theme is a WordPress trace, not a mention.)
  const mentioned: number[] = [];
  const byLeaf = w.catalog.productsByLeaf;
  for (const t of [...installed]) for (const [implied] of w.detector.technologies[t]!.implies) installed.add(implied);
  for (let k = rng.int(1, 3); k > 0 && installs.length; k--) {
    const mine = w.catalog.products[rng.pick(installs).product]!;
    const rivals = (byLeaf.get(mine.categoryId) ?? []).filter((p) => !installed.has(p.technology));
    if (!rivals.length) continue;
    const rival = rng.pick(rivals);
    mentioned.push(rival.technology);
    blog.push(
      rng.pick([
        `Why we moved from ${esc(rival.name)} to ${esc(mine.name)}, and what we learned.`,
        `${esc(rival.name)} vs ${esc(mine.name)}: an honest comparison from our ops team.`,
        `Proud to be listed in the ${esc(rival.name)} partner directory. <img src="/assets/partners/${slugify(rival.name)}.svg" alt="${esc(rival.name)} partner badge">`,
      ]),
    );
  }

  if (spf.length) dns.TXT.push(`v=spf1 ${[...new Set(spf)].map((s) => `include:${s}`).join(' ')} ~all`);
  const year = new Date(w.asOfMs).getUTCFullYear();
  const captures: Capture[] = [
    {
      kind: 'crawl',
      seenAt: crawlAt,
      site: {
        domain,
        pages: [{ url: `https://${domain}/`, status: 200, headers: now.headers, cookies: now.cookies, html: htmlOf(company, now, blog, year) }],
        dns,
      },
    },
  ];
  if (archiveAt !== null) {
    captures.push({
      kind: 'archive',
      seenAt: archiveAt,
      site: {
        domain,
        pages: [
          {
            url: `https://${domain}/`,
            status: 200,
            headers: old.headers,
            cookies: old.cookies,
            html: htmlOf(company, old, [], new Date(archiveAt).getUTCFullYear()),
          },
        ],
      },
    });
  }
  // Job posts: the board's (each team's roles naming its tools), and the dated lines of sparse
  // use, dropped tools and mentions, each in a board post near its date or a post of its own.
  const posts: JobPost[] = jobBoard(w.seed, w.asOfMs, w.catalog, w.kits, company, installs, silent);
  for (const p of posts) for (const l of p.lines) if (l.at >= w.asOfMs - 365 * DAY) plant(l.tech, { kind: 'job', phrase: l.phrase });
  for (const j of jobs.sort((a, b) => a.at - b.at)) {
    const near = posts.find((p) => Math.abs(p.at - j.at) <= SAME_POST_DAYS * DAY);
    if (near) near.lines.push(j);
    else posts.push({ at: j.at, role: rng.pick(ROLES), lines: [j] });
  }
  // Captures: an import of the board every four months sees the posts of those months (dated: its
  // latest post); older posts, from archives, are grouped the same way.
  const scrapes = new Map<number, JobPost[]>();
  for (const p of posts) {
    const key = Math.floor((w.asOfMs - p.at) / (IMPORT_DAYS * DAY));
    const list = scrapes.get(key);
    if (list) list.push(p);
    else scrapes.set(key, [p]);
  }
  for (const key of [...scrapes.keys()].sort((a, b) => b - a)) {
    const list = scrapes.get(key)!.sort((a, b) => a.at - b.at);
    captures.push({
      kind: 'job',
      seenAt: Math.max(...list.map((p) => p.at)),
      site: { domain, pages: [], jobs: list.map((p) => postText(rng, company, p)) },
    });
  }
  for (const tech of planted.keys()) if (!claimable.has(tech)) planted.delete(tech);
  return { captures, planted, mentioned };
}
