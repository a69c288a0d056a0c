// fetchSite: one site's artifacts from the live web — its home page (and a few common paths if
// asked), followed through redirects within a limit, with headers, Set-Cookie values and HTML,
// plus its DNS records. Every hop is checked by the network policy after resolution (http.ts);
// robots.txt is obeyed; requests to one host are spaced by the politeness delay; transient
// failures (timeouts, resets, 429/502/503/504) are retried with exponential backoff.
import { normalizeDomain } from '../../domain.ts';
import { VERSION } from '../../version.ts';
import type { PageArtifact, SiteArtifacts } from '../types.ts';
import { BlockedAddressError, checkUrl, type NetworkPolicy } from './address.ts';
import { collectDns, DnsError, makeResolver, type DnsOptions, type DnsResolver } from './dns.ts';
import { FetchError, requestOnce, type HopResponse } from './http.ts';
import { Politeness, RobotsCache, sleep } from './politeness.ts';
import { boardListRequest, discoverBoards, parseBoardDetail, parseBoardListing, type BoardRequest, type JobBoard } from './job-boards.ts';
import { LIMITS } from '../detect.ts';
import type { SiteRenderer } from './render.ts';

export interface FetchSiteOptions {
  /** Extra paths fetched after the home page on its final origin, e.g. `['/about', '/careers']` (default none). */
  paths?: string[];
  /** Redirects followed per page (default 5). */
  maxRedirects?: number;
  /** Deadline of one request, connect to last byte (default 10000 ms). */
  timeoutMs?: number;
  /** Body bytes kept per response, after decompression (default 1 MiB); the rest is not read. */
  maxBytes?: number;
  /** Retries of a transient failure (default 2), the first after retryDelayMs (default 500), doubling, with jitter. */
  retries?: number;
  retryDelayMs?: number;
  /** Longest wait a Retry-After header may ask for before the retry is given up (default 30000 ms). */
  maxRetryAfterMs?: number;
  /** Default `Stacklens/<version> (+contactUrl)`. */
  userAgent?: string;
  contactUrl?: string;
  /** Extra trusted CA certificates (PEM) for HTTPS, beside the system's (a private CA; tests). */
  ca?: string | Buffer;
  /** Where requests may go (default: public addresses only). */
  network?: NetworkPolicy;
  /** DNS: a resolver or name servers; `records: false` skips the site's MX/TXT/CNAME/A/NS; DKIM selectors whose CNAMEs are read (default DEFAULT_DKIM_SELECTORS). */
  dns?: DnsOptions & { records?: boolean; dkimSelectors?: string[] };
  /** Obey robots.txt (default true); a shared cache keeps one fetch per origin across sites. */
  robots?: boolean | RobotsCache;
  /** Spacing of requests to one host; share one across sites (default a new one, 1000 ms). */
  politeness?: Politeness;
  signal?: AbortSignal;
  /**
   * Job boards (default on): the applicant-tracking board the site's pages link to or embed
   * (Greenhouse, Lever, Ashby, Workable, SmartRecruiters, Recruitee, Personio, Workday) is read
   * through its public endpoint, and its postings join the site's job posts. `false` skips them;
   * `rewrite` maps an endpoint URL (a mirror or proxy of the board APIs; tests).
   */
  jobBoards?: false | { rewrite?: (url: string) => string };
  /**
   * The rendered pass (off unless given; render.ts): the home page opened again in a headless
   * browser, from the response already fetched, its scripts' requests kept to this fetch's
   * network policy. Its page joins the site's pages (`rendered: true`), its outcome is `site.render`.
   */
  render?: SiteRenderer;
}

/** Why a site could not be fetched; `reason` is stable and `site` has whatever was collected (DNS records, an error page). */
export class CollectError extends Error {
  override name = 'CollectError';
  constructor(
    readonly reason: string,
    message: string,
    readonly site: SiteArtifacts,
  ) {
    super(message);
  }
}

function defaultUserAgent(contactUrl?: string): string {
  return `Stacklens/${VERSION} (${contactUrl ? `+${contactUrl}` : 'technology detection; no contact URL configured'})`;
}

/** The site's domain and first URL from a domain (`example.com` → `https://example.com/`, `bare`) or a URL. */
export function siteTarget(input: string): { domain: string; url: string; bare: boolean } | null {
  const text = input.trim();
  const domain = normalizeDomain(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const u = new URL(text);
      // The URL as written: checkUrl reads its host text, so `http://2130706433/` is refused as a decimal form.
      return { domain: domain ?? u.hostname.replace(/^\[|\]$/g, ''), url: text, bare: false };
    } catch {
      return null;
    }
  }
  return domain ? { domain, url: `https://${domain}/`, bare: true } : null;
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);
const isHtml = (type: string | undefined) => !type || /html|xml/i.test(type);

function decodeBody(body: Buffer, contentType: string | undefined): string {
  const charset =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const retryAfterMs = (value: string | string[] | undefined): number | undefined => {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
};

interface Ctx {
  resolver: DnsResolver;
  policy: NetworkPolicy;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  retries: number;
  retryDelayMs: number;
  maxRetryAfterMs: number;
  robots: RobotsCache | null;
  politeness: Politeness;
  signal?: AbortSignal;
  ca?: string | Buffer;
}

/** One request with retries of transient failures. */
async function requestWithRetries(url: URL, ctx: Ctx, accept?: string): Promise<HopResponse> {
  for (let attempt = 0; ; attempt++) {
    let wait = ctx.retryDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
    try {
      const res = await requestOnce(url, {
        resolver: ctx.resolver,
        policy: ctx.policy,
        timeoutMs: ctx.timeoutMs,
        maxBytes: ctx.maxBytes,
        userAgent: ctx.userAgent,
        accept,
        signal: ctx.signal,
        ca: ctx.ca,
        beforeConnect: () => ctx.politeness.wait(url.host, ctx.signal),
      });
      if (!RETRY_STATUS.has(res.status) || attempt >= ctx.retries) return res;
      const asked = retryAfterMs(res.headers['retry-after']);
      if (asked !== undefined && asked > ctx.maxRetryAfterMs) return res;
      if (asked !== undefined) wait = Math.max(wait, asked);
    } catch (err) {
      const transient = (err instanceof FetchError && err.transient) || (err instanceof DnsError && err.reason === 'dns_failed');
      if (!transient || attempt >= ctx.retries || ctx.signal?.aborted) throw err;
    }
    await sleep(wait, ctx.signal);
  }
}

/** A page followed through its redirects; cookies set on the way are kept. Robots are checked on every hop. */
async function fetchPage(start: string, ctx: Ctx, accept?: string, obeyRobots = true): Promise<{ res: HopResponse; cookies: string[] }> {
  let url = checkUrl(start, ctx.policy);
  const cookies: string[] = [];
  for (let hop = 0; ; hop++) {
    if (obeyRobots && ctx.robots) {
      const fetcher = (u: string) => fetchPage(u, ctx, 'text/plain,*/*;q=0.5', false).then((r) => r.res);
      if (!(await ctx.robots.allowed(url, fetcher))) {
        throw new CollectError('robots_disallowed', `robots.txt of ${url.origin} disallows ${url.pathname}`, { domain: '', pages: [] });
      }
      ctx.politeness.setHostDelay(url.host, await ctx.robots.crawlDelayMs(url, fetcher));
    }
    const res = await requestWithRetries(url, ctx, accept);
    cookies.push(...res.cookies);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return { res, cookies };
    if (hop >= ctx.maxRedirects) throw new FetchError('too_many_redirects', `more than ${ctx.maxRedirects} redirects from ${start}`, false);
    const next = Array.isArray(location) ? location[0]! : location;
    let resolved: string;
    try {
      resolved = new URL(next, url).href;
    } catch {
      throw new FetchError('protocol', `redirect to an invalid URL '${next.slice(0, 200)}'`, false);
    }
    // A relative Location keeps the host; an absolute one is checked as written (decimal IPs, ...).
    url = checkUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(next.trim()) ? next.trim() : resolved, ctx.policy);
  }
}

function toPage(res: HopResponse, cookies: string[]): PageArtifact {
  const type = res.headers['content-type'];
  const ct = Array.isArray(type) ? type[0] : type;
  const page: PageArtifact = { url: res.url, status: res.status, headers: res.headers, cookies };
  if (isHtml(ct) && res.body.length) page.html = decodeBody(res.body, ct);
  if (res.truncated) page.truncated = true;
  return page;
}

/** Whether the home page is one the rendered pass opens: a whole HTML page that answered 2xx. */
function rendersAsPage(home: { res: HopResponse }): boolean {
  const type = home.res.headers['content-type'];
  return home.res.status >= 200 && home.res.status < 300 && !home.res.truncated && isHtml(Array.isArray(type) ? type[0] : type) && home.res.body.length > 0;
}

/** The crawler's manners for a page a rendered page navigates to: robots.txt first, then the politeness delay. */
async function pageAllowed(url: URL, ctx: Ctx): Promise<boolean> {
  if (ctx.robots) {
    const fetcher = (u: string) => fetchPage(u, ctx, 'text/plain,*/*;q=0.5', false).then((r) => r.res);
    if (!(await ctx.robots.allowed(url, fetcher))) return false;
    ctx.politeness.setHostDelay(url.host, await ctx.robots.crawlDelayMs(url, fetcher));
  }
  await ctx.politeness.wait(url.host, ctx.signal);
  return true;
}

function reasonOf(err: unknown): string {
  if (err instanceof CollectError) return err.reason;
  if (err instanceof BlockedAddressError) return `blocked_${err.reason}`;
  if (err instanceof DnsError) return err.reason;
  if (err instanceof FetchError) return err.reason;
  return 'error';
}

/**
 * Fetches one site: `input` is a domain (`example.com`, fetched as https://example.com/) or a
 * URL. Resolves with the site's artifacts; rejects with a CollectError (reason, and the
 * artifacts collected anyway, such as DNS records) when the home page cannot be had.
 */
export async function fetchSite(input: string, options: FetchSiteOptions = {}): Promise<SiteArtifacts> {
  const target = siteTarget(input);
  if (!target) throw new CollectError('invalid_target', `'${input.slice(0, 200)}' is neither a domain nor a URL`, { domain: input.slice(0, 253), pages: [] });
  const resolver = makeResolver(options.dns);
  const ctx: Ctx = {
    resolver,
    policy: options.network ?? {},
    userAgent: options.userAgent ?? defaultUserAgent(options.contactUrl),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: options.maxBytes ?? 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
    retries: options.retries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    robots: options.robots === false ? null : options.robots instanceof RobotsCache ? options.robots : new RobotsCache(),
    politeness: options.politeness ?? new Politeness(1000),
    signal: options.signal,
    ca: options.ca,
  };
  ctx.robots?.setUserAgent(ctx.userAgent);
  const dnsPromise =
    options.dns?.records === false || !normalizeDomain(target.domain)
      ? Promise.resolve(undefined)
      : collectDns(resolver, target.domain, options.dns?.dkimSelectors);
  const site: SiteArtifacts = { domain: target.domain, pages: [] };
  let home: { res: HopResponse; cookies: string[] };
  try {
    try {
      home = await fetchPage(target.url, ctx);
    } catch (err) {
      // A bare domain without HTTPS (nothing on 443, or a certificate that does not verify) is tried over HTTP.
      if (!target.bare || !(err instanceof FetchError && (err.reason === 'connect' || err.reason === 'tls'))) throw err;
      home = await fetchPage(`http://${target.domain}/`, ctx);
    }
    site.pages.push(toPage(home.res, home.cookies));
    const status = home.res.status;
    if (status >= 500 || status === 429) throw new CollectError(`http_${status}`, `${target.url} answered ${status}`, site);
    const origin = new URL(home.res.url).origin;
    for (const p of (options.paths ?? []).slice(0, 10)) {
      try {
        const extra = await fetchPage(new URL(p, origin).href, ctx);
        if (extra.res.status >= 200 && extra.res.status < 300) site.pages.push(toPage(extra.res, extra.cookies));
      } catch (err) {
        if (ctx.signal?.aborted) throw err;
        // An extra path that fails leaves the site as it is.
      }
    }
  } catch (err) {
    const dns = await dnsPromise;
    if (dns && Object.keys(dns).length) site.dns = dns;
    if (err instanceof CollectError && err.site === site) throw err;
    throw new CollectError(reasonOf(err), (err as Error).message, site);
  }
  if (options.render && rendersAsPage(home)) {
    const { res } = home;
    const { page, report } = await options.render.render(
      { url: res.url, status: res.status, headers: res.headers, body: res.body },
      {
        resolver,
        policy: ctx.policy,
        userAgent: ctx.userAgent,
        timeoutMs: ctx.timeoutMs,
        ca: ctx.ca,
        signal: ctx.signal,
        pageAllowed: (url) => pageAllowed(url, ctx),
      },
    );
    if (ctx.signal?.aborted) throw new CollectError('aborted', 'aborted', site);
    if (page) site.pages.push(page);
    site.render = report;
  }
  if (options.jobBoards !== false) {
    const boards = discoverBoards(site.pages.map((p) => p.html ?? '').join('\n'), 1);
    const jobs = boards.length ? await boardPostings(boards[0]!, ctx, options.jobBoards?.rewrite ?? ((u) => u)) : [];
    if (jobs.length) site.jobs = jobs;
  }
  const dns = await dnsPromise;
  if (dns && Object.keys(dns).length) site.dns = dns;
  return site;
}

/** Board answers may be larger than a page (every posting's text in one listing). */
const BOARD_MAX_BYTES = 4 * 1024 * 1024;
/** Postings whose text needs a request of its own (SmartRecruiters, Workday): at most this many. */
const BOARD_DETAIL_REQUESTS = 10;

/**
 * The postings of a board, as job-post texts (at most the detector's count and length). A board
 * that cannot be read (gone, private, an answer of another shape) gives none: job posts are
 * extra evidence, never a reason to fail the site.
 */
async function boardPostings(board: JobBoard, ctx: Ctx, rewrite: (url: string) => string): Promise<string[]> {
  const boardCtx: Ctx = { ...ctx, maxBytes: BOARD_MAX_BYTES, retries: Math.min(ctx.retries, 1) };
  const get = async (req: BoardRequest): Promise<string | null> => {
    try {
      const url = checkUrl(rewrite(req.url), ctx.policy);
      const res = req.post
        ? await requestOnce(url, {
            resolver: ctx.resolver,
            policy: ctx.policy,
            timeoutMs: ctx.timeoutMs,
            maxBytes: BOARD_MAX_BYTES,
            userAgent: ctx.userAgent,
            accept: 'application/json',
            signal: ctx.signal,
            ca: ctx.ca,
            beforeConnect: () => ctx.politeness.wait(url.host, ctx.signal),
            post: { body: Buffer.from(JSON.stringify(req.post)), headers: { 'content-type': 'application/json' } },
          })
        : await requestWithRetries(url, boardCtx, 'application/json, application/xml;q=0.9');
      return res.status === 200 && !res.truncated ? res.body.toString('utf8') : null;
    } catch (err) {
      if (ctx.signal?.aborted) throw err;
      return null;
    }
  };
  const listing = await get(boardListRequest(board));
  if (listing === null) return [];
  const { texts, details } = parseBoardListing(board, listing);
  for (const req of details.slice(0, BOARD_DETAIL_REQUESTS)) {
    const body = await get(req);
    if (body !== null) texts.push(parseBoardDetail(board, body));
  }
  return texts
    .filter(Boolean)
    .slice(0, LIMITS.jobs)
    .map((t) => (t.length > LIMITS.jobText ? t.slice(0, LIMITS.jobText) : t));
}
