// The rendered pass's network: every request a headless page makes is intercepted and either
// refused or fetched here, by the collector's own HTTP client (http.ts: the network policy on
// every resolved address, a pinned connect address, a deadline, a byte cap), and handed to the
// browser whole. The browser itself never opens a connection (render.ts gives it a proxy that
// cannot be reached), so a page cannot reach a private address, rebind a name between the check
// and the connect, or outgrow its budget of requests and bytes. Only what can carry a trace of
// a technology is fetched: documents, scripts and XHR/fetch GETs; images, fonts, media and
// stylesheets are refused (the DOM still names them), and nothing is ever POSTed.
import type { Route } from 'playwright-core';
import { BlockedAddressError, checkUrl, type NetworkPolicy } from './address.ts';
import type { DnsResolver } from './dns.ts';
import { requestOnce, type HopResponse } from './http.ts';

/** What the collector lends the rendered pass: its resolver, policy and manners. */
export interface RenderNetwork {
  resolver: DnsResolver;
  policy: NetworkPolicy;
  userAgent: string;
  /** Deadline of one request (the page's own deadline cuts it shorter). */
  timeoutMs: number;
  ca?: string | Buffer;
  signal?: AbortSignal;
  /**
   * The crawler's manners for a page the main frame navigates to (a script sending it to
   * `/app`): robots.txt answers whether it may be fetched, then the politeness delay is waited.
   */
  pageAllowed(url: URL): Promise<boolean>;
}

/** The document the page opens with: the response the static pass already fetched (no second request for it). */
export interface RenderDocument {
  url: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The bounds of one page's network. */
export interface NetworkLimits {
  /** Requests fetched per page, redirect hops included. */
  maxRequests: number;
  /** Response bytes per page, all requests together (after decompression). */
  maxBytes: number;
  /** Bytes of one response. */
  maxResponseBytes: number;
  /** Requests in flight at once (a browser opens about six per host). */
  parallel: number;
}

/** Why the network stopped fetching for a page before the page was done with it. */
type NetworkCut = 'requests' | 'bytes';

const FETCHED_TYPES = new Set(['document', 'script', 'xhr', 'fetch']);
const MAX_REDIRECTS = 5;
/** Headers of our response that do not describe the body the browser gets (already decoded, whole). */
const HOP_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export class PageNetwork {
  /** URLs of the scripts the page (and its frames) loaded, in order, each once. */
  readonly scripts: string[] = [];
  requests = 0;
  bytes = 0;
  /** Requests refused because their host is not public (or their URL not allowed by the policy). */
  blocked = 0;
  cut: NetworkCut | undefined;
  /** Origins of the documents the page opened (its own, its frames'): whose storage is wiped after it. */
  readonly origins = new Set<string>();
  /** Requests being fetched now, and when the last one began or ended (the page settles on quiet). */
  active = 0;
  lastActivity = Date.now();
  private inFlight = 0;
  private readonly queue: Array<() => void> = [];
  private documentServed = false;

  constructor(
    private readonly net: RenderNetwork,
    private readonly limits: NetworkLimits,
    private readonly document: RenderDocument,
    private readonly signal: AbortSignal,
  ) {}

  /** The route handler of the page's context: every request ends here, fulfilled or aborted. */
  async handle(route: Route): Promise<void> {
    this.active++;
    this.lastActivity = Date.now();
    try {
      await this.answer(route);
    } catch {
      // The page or its context closed while its request was fetched: nothing left to answer.
    } finally {
      this.active--;
      this.lastActivity = Date.now();
    }
  }

  private async answer(route: Route): Promise<void> {
    const req = route.request();
    const url = req.url();
    if (!this.documentServed && req.isNavigationRequest() && url === this.document.url) {
      this.documentServed = true;
      this.origins.add(new URL(url).origin);
      return route.fulfill(fulfilment(this.document));
    }
    const type = req.resourceType();
    if (!FETCHED_TYPES.has(type) || (req.method() !== 'GET' && req.method() !== 'HEAD') || this.signal.aborted) return route.abort('blockedbyclient');
    const mainFrame = req.isNavigationRequest() && isMainFrame(route);
    const res = await this.fetch(url, req.headers()['accept'], mainFrame);
    if (!res) return route.abort('blockedbyclient');
    if (type === 'script' && res.status < 400 && !this.scripts.includes(url)) this.scripts.push(url);
    if (type === 'document') this.origins.add(new URL(url).origin);
    await route.fulfill(fulfilment(res));
  }

  /** One request of the page, its redirects followed here (each hop checked and counted); null when refused or failed. */
  private async fetch(raw: string, accept: string | undefined, mainFrame: boolean): Promise<HopResponse | null> {
    let url: URL;
    try {
      url = checkUrl(raw, this.net.policy);
    } catch {
      this.blocked++;
      return null;
    }
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (this.requests >= this.limits.maxRequests) {
        this.cut ??= 'requests';
        return null;
      }
      const room = this.limits.maxBytes - this.bytes;
      if (room <= 0) {
        this.cut ??= 'bytes';
        return null;
      }
      if (mainFrame && !(await this.net.pageAllowed(url))) return null;
      this.requests++;
      let res: HopResponse;
      await this.slot();
      try {
        res = await requestOnce(url, {
          resolver: this.net.resolver,
          policy: this.net.policy,
          timeoutMs: this.net.timeoutMs,
          maxBytes: Math.min(room, this.limits.maxResponseBytes),
          userAgent: this.net.userAgent,
          accept,
          signal: this.signal,
          ca: this.net.ca,
        });
      } catch (err) {
        if (err instanceof BlockedAddressError) this.blocked++;
        return null;
      } finally {
        this.release();
      }
      this.bytes += res.body.length;
      // A cut script or document is not the resource: the page gets none rather than half of one.
      if (res.truncated) {
        if (res.body.length >= room) this.cut ??= 'bytes';
        return null;
      }
      const location = res.headers.location;
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
      const next = Array.isArray(location) ? location[0]! : location;
      try {
        // An absolute Location is checked as written (decimal IPs, ...), like the static pass's redirects.
        url = checkUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(next.trim()) ? next.trim() : new URL(next, url).href, this.net.policy);
      } catch {
        this.blocked++;
        return null;
      }
    }
    return null;
  }

  private async slot(): Promise<void> {
    if (this.inFlight < this.limits.parallel) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.inFlight--;
  }
}

function isMainFrame(route: Route): boolean {
  try {
    return route.request().frame().parentFrame() === null;
  } catch {
    return false;
  }
}

function fulfilment(res: { status: number; headers: Record<string, string | string[]>; body: Buffer }) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (!HOP_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: res.status, headers, body: res.body };
}
