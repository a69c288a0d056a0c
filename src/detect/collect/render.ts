// The rendered pass (`stacklens detect --render`): a site's home page opened again in headless
// Chromium (the system's, driven by playwright-core), so a single-page app shows what its
// scripts build — the scripts it really loads (tags injected by inline code included), the DOM
// after they ran, the cookies they set and which of the catalog's `js` globals they define.
// One browser serves the whole crawl, with a small pool of contexts; every site gets a new page
// in a context wiped of the previous site's cookies and storage. Each page is bounded:
// one deadline for navigation and settling, a budget of requests and bytes (render-network.ts,
// which also keeps every request inside the network policy), a V8 heap cap per renderer, and a
// short bound on reading the results; a page that never settles is cut at its deadline and
// what it had loaded by then is kept.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { HTML_CAP } from '../page.ts';
import type { PageArtifact, RenderReport } from '../types.ts';
import { PageNetwork, type NetworkLimits, type RenderDocument, type RenderNetwork } from './render-network.ts';
import { sleep } from './politeness.ts';

export type { RenderDocument, RenderNetwork } from './render-network.ts';

interface RenderOptions {
  /** The Chromium (or Chrome) executable; no browser is ever downloaded. */
  executablePath: string;
  /** Names of the globals to read (the catalog's `js` rules: `_paq`, `Shopify.shop`). */
  globals: string[];
  /** Pages rendered at once (default 2). */
  concurrency?: number;
  /** Deadline of one page, navigation and settling (default 15000 ms). */
  timeoutMs?: number;
  /** Quiet network time after the load event that counts as settled (default 500 ms). */
  settleMs?: number;
  /** V8 heap of one renderer process, in MB (default 256): a page past it crashes alone. */
  heapMb?: number;
  limits?: Partial<NetworkLimits>;
}

/** What the rendered pass adds to a site. */
interface RenderedSite {
  /** The page as the browser had it (rendered: true); absent when the render failed. */
  page?: PageArtifact;
  report: RenderReport;
}

/** How fetchSite renders a page (a Renderer, or a stand-in in tests). */
export interface SiteRenderer {
  render(document: RenderDocument, net: RenderNetwork): Promise<RenderedSite>;
}

/** `--render` cannot start: no browser at the path, or no playwright-core. The message says how to fix it. */
export class RenderUnavailableError extends Error {
  override name = 'RenderUnavailableError';
}

const DEFAULT_LIMITS: NetworkLimits = { maxRequests: 150, maxBytes: 8 * 1024 * 1024, maxResponseBytes: 4 * 1024 * 1024, parallel: 6 };
/** Time to read the results (globals, DOM, cookies) once the deadline or the quiet came; a page whose main thread hangs gives none. */
const COLLECT_MS = 3000;
/**
 * Time the browser is given to open or close a context or page before it is judged stuck and
 * restarted (every page in it lost): generous, as a loaded machine (load 20 on 2 cores) took
 * over 5 s to open one.
 */
const CLOSE_MS = 20_000;
const COOKIES_KEPT = 100;

/** Browser-side code, as text (this project's TypeScript has no DOM types): which named globals hold a value that is not a DOM node (an element whose id is `jwplayer` is no player). */
const readGlobals = (names: string[]) => `(() => {
  const out = [];
  for (const name of ${JSON.stringify(names)}) {
    try {
      let v = globalThis;
      for (const part of name.split('.')) v = v == null ? undefined : v[part];
      if (v === undefined || v === null) continue;
      if (typeof Node !== 'undefined' && v instanceof Node) continue;
      if (typeof HTMLCollection !== 'undefined' && v instanceof HTMLCollection) continue;
      out.push(name);
    } catch {}
  }
  return out;
})()`;
const readHtml = `(() => { const h = document.documentElement ? document.documentElement.outerHTML : ''; return h.length > ${HTML_CAP} ? h.slice(0, ${HTML_CAP}) : h; })()`;

type Chromium = typeof import('playwright-core').chromium;

/**
 * One place in the pool: a context and its page kept from site to site (a new context, page or
 * renderer process per site costs the browser more CPU than the page itself) and wiped between
 * them — the page back on about:blank, every cookie cleared, the storage of every origin the page
 * opened deleted — and replaced after RECYCLE_AFTER sites, after a page that was cut or failed,
 * and after a page that opened another.
 */
interface Slot {
  context: BrowserContext | null;
  /** The context's one page, taken from site to site, and the DevTools session that wipes its storage. */
  page: Page | null;
  cdp: CDPSession | null;
  browser: Browser | null;
  userAgent: string;
  /** The network of the page being rendered (the context's route hands it every request). */
  network: PageNetwork | null;
  sites: number;
}

const RECYCLE_AFTER = 25;

export class Renderer implements SiteRenderer {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private readonly free: Slot[];
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private readonly limits: NetworkLimits;
  private readonly timeoutMs: number;
  private readonly settleMs: number;
  private closed = false;

  private constructor(
    private readonly chromium: Chromium,
    private readonly opts: RenderOptions,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.free = Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, () => ({
      context: null,
      page: null,
      cdp: null,
      browser: null,
      userAgent: '',
      network: null,
      sites: 0,
    }));
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.settleMs = opts.settleMs ?? 500;
  }

  /** Starts the browser now, so a missing or broken Chromium stops the command before it crawls anything. */
  static async launch(opts: RenderOptions): Promise<Renderer> {
    if (!existsSync(opts.executablePath)) {
      throw new RenderUnavailableError(
        `Chromium not found at ${opts.executablePath}: install it (Debian/Ubuntu: apt-get install -y chromium) or give its path with --chromium PATH or DETECT_CHROMIUM_PATH`,
      );
    }
    let chromium: Chromium;
    try {
      ({ chromium } = await import('playwright-core'));
    } catch (err) {
      throw new RenderUnavailableError(`playwright-core cannot be loaded (${(err as Error).message}): install it with npm install playwright-core`);
    }
    const renderer = new Renderer(chromium, opts);
    try {
      await renderer.ensureBrowser();
    } catch (err) {
      throw new RenderUnavailableError(`Chromium at ${opts.executablePath} did not start: ${(err as Error).message.split('\n')[0]}`);
    }
    return renderer;
  }

  private ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    this.launching ??= this.chromium
      .launch({
        executablePath: this.opts.executablePath,
        args: [
          // Every request is fetched by render-network.ts; anything the routing does not see
          // (WebSocket, a prefetch of the browser's own) goes to a proxy no name resolves to, and fails.
          '--proxy-server=http://no-proxy.invalid:1',
          '--proxy-bypass-list=<-loopback>',
          '--host-resolver-rules=MAP * ~NOTFOUND',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          `--js-flags=--max-old-space-size=${this.opts.heapMb ?? 256}`,
          // Starting a renderer process is most of the CPU a page costs (1.7 s of CPU against 0.5 s
          // for a trivial page, measured): pages of one context share one process, whatever their
          // site (the crawler holds no one's session for site isolation to protect).
          '--disable-site-isolation-trials',
          // No back/forward cache: a site left for about:blank must stop, not wait in memory.
          '--disable-features=IsolateOrigins,site-per-process,BackForwardCache',
          '--renderer-process-limit=1',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-domain-reliability',
          '--disable-sync',
          '--mute-audio',
          '--disable-dev-shm-usage',
          // As root (containers, CI) Chromium's sandbox cannot start.
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        ],
      })
      .then((browser) => {
        this.browser = browser;
        return browser;
      })
      .finally(() => (this.launching = null));
    return this.launching;
  }

  private async acquire(signal?: AbortSignal): Promise<Slot> {
    const slot = this.free.pop();
    if (slot) return slot;
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason ?? new Error('aborted'));
      };
      const go = (s: Slot) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(s);
      };
      this.waiting.push(go);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }

  /** The slot's context, opened anew when it has none, belongs to a browser since restarted, or has served its sites. */
  private async contextOf(slot: Slot, browser: Browser, userAgent: string): Promise<BrowserContext> {
    if (slot.context && (slot.browser !== browser || slot.sites >= RECYCLE_AFTER || slot.userAgent !== userAgent)) await this.retire(slot);
    if (slot.context) return slot.context;
    // A browser that cannot open a context in CLOSE_MS is stuck: the render fails and the next one gets a new browser.
    const context = await within(browser.newContext({ userAgent, serviceWorkers: 'block', acceptDownloads: false, locale: 'en-US' }), CLOSE_MS, () =>
      this.dropBrowser(),
    );
    Object.assign(slot, { context, browser, userAgent, sites: 0 });
    await context.route('**/*', (route) => (slot.network ? slot.network.handle(route) : route.abort('blockedbyclient')));
    // One page, kept: its renderer process serves site after site (a new page, or a new process,
    // per site is most of what a render costs).
    slot.page = await within(context.newPage(), CLOSE_MS, () => this.dropBrowser());
    slot.cdp = await context.newCDPSession(slot.page);
    return context;
  }

  /** Renders one page. Never throws for the page's sake: a failure is a report with outcome `failed`, and the site keeps its static pages. */
  async render(document: RenderDocument, net: RenderNetwork): Promise<RenderedSite> {
    const slot = await this.acquire(net.signal);
    const started = Date.now();
    const report = (outcome: RenderReport['outcome'], reason: string | undefined, network?: PageNetwork): RenderReport => ({
      url: document.url,
      outcome,
      ...(reason ? { reason } : {}),
      scripts: network?.scripts.length ?? 0,
      requests: network?.requests ?? 0,
      blocked: network?.blocked ?? 0,
      ms: Date.now() - started,
    });
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    net.signal?.addEventListener('abort', onAbort, { once: true });
    let clean = false;
    try {
      if (this.closed) return { report: report('failed', 'browser_closed') };
      let browser: Browser;
      try {
        browser = await this.ensureBrowser();
      } catch (err) {
        return { report: report('failed', `browser: ${(err as Error).message.split('\n')[0]}`) };
      }
      const context = await this.contextOf(slot, browser, net.userAgent);
      const network = new PageNetwork(net, this.limits, document, stop.signal);
      slot.network = network;
      slot.sites++;
      const page = slot.page!;
      // The page's own clock starts with its navigation: a busy machine's slow page setup does not eat it.
      const deadline = Date.now() + this.timeoutMs;
      let cut: string | undefined;
      try {
        await page.goto(document.url, { waitUntil: 'load', timeout: Math.max(1, deadline - Date.now()) });
        if (!(await this.settled(network, deadline))) cut = 'deadline';
      } catch (err) {
        if (!/timeout/i.test((err as Error).message)) return { report: report('failed', `navigation: ${(err as Error).message.split('\n')[0]}`, network) };
        cut = 'deadline';
      }
      // Results are read under their own short bound: a page whose main thread spins (or a global's getter that never returns) gives none, not a stuck crawl.
      const [globals, html, cookies] = await Promise.all([
        bounded(page.evaluate(readGlobals(this.opts.globals)) as Promise<string[]>),
        bounded(page.evaluate(readHtml) as Promise<string>),
        bounded(context.cookies()),
      ]);
      // The main thread did not answer (a loop, a getter that never returns): the network log is all there is.
      if (html === undefined) cut ??= 'unresponsive';
      cut ??= network.cut;
      const rendered: PageArtifact = { url: safeUrl(page.url(), document.url), status: document.status, rendered: true };
      // The globals first: the DOM is already at the detector's scan cap, and they must stay within it.
      if (html !== undefined || globals?.length) rendered.html = globalsScript(globals ?? []) + (html ?? '');
      if (network.scripts.length) rendered.scripts = [...network.scripts];
      if (cookies?.length) rendered.cookies = cookies.slice(0, COOKIES_KEPT).map((c) => `${c.name}=${c.value}`);
      clean = !cut && context.pages().length === 1 && (await this.wipe(slot, network));
      return { page: rendered, report: report(cut ? 'cut' : 'ok', cut, network) };
    } catch (err) {
      return { report: report('failed', `browser: ${(err as Error).message.split('\n')[0]}`) };
    } finally {
      stop.abort();
      net.signal?.removeEventListener('abort', onAbort);
      slot.network = null;
      if (!clean) await this.retire(slot);
      this.release(slot);
    }
  }

  /**
   * Leaves the slot as new for the next site: its page on about:blank (the site's document, timers
   * and heap gone), the storage of every origin the page opened (local storage, IndexedDB,
   * caches) deleted, every cookie cleared. False when that could not be done in time: the slot
   * then gets a new context.
   */
  private async wipe(slot: Slot, network: PageNetwork): Promise<boolean> {
    const work = (async () => {
      // A third party's storage in a frame is kept under the pair (its origin, the site on top):
      // the storage key of every frame, read before the page goes, is what clears it.
      const keys: string[] = [];
      const tree = (await slot.cdp!.send('Page.getFrameTree')) as { frameTree: FrameTree };
      for (const id of frameIds(tree.frameTree)) {
        const { storageKey } = await slot.cdp!.send('Storage.getStorageKeyForFrame', { frameId: id }).catch(() => ({ storageKey: '' }));
        if (storageKey) keys.push(storageKey);
      }
      await slot.page!.goto('about:blank');
      for (const storageKey of keys) await slot.cdp!.send('Storage.clearDataForStorageKey', { storageKey, storageTypes: 'all' });
      for (const origin of network.origins) await slot.cdp!.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await slot.context!.clearCookies();
      return true;
    })();
    return (await bounded(work)) === true;
  }

  /** Waits until the network has been quiet for settleMs; false when the deadline came first. */
  private async settled(network: PageNetwork, deadline: number): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      const quietFor = now - network.lastActivity;
      if (network.active === 0 && quietFor >= this.settleMs) return true;
      if (now >= deadline) return false;
      await sleep(Math.min(deadline - now, Math.max(20, this.settleMs - quietFor)));
    }
  }

  /** Closes the slot's context (its pages and renderer processes with it). */
  private async retire(slot: Slot): Promise<void> {
    const context = slot.context;
    Object.assign(slot, { context: null, page: null, cdp: null });
    if (!context) return;
    const closed = await Promise.race([
      context.close().then(
        () => true,
        () => true,
      ),
      sleep(CLOSE_MS).then(() => false),
    ]);
    // A context that will not close means a stuck browser: the next page gets a new one.
    if (!closed) await this.dropBrowser();
  }

  private async dropBrowser(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    await browser?.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser ?? (await this.launching?.catch(() => null));
    this.browser = null;
    await browser?.close().catch(() => {});
  }
}

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}
const frameIds = (tree: FrameTree): string[] => [tree.frame.id, ...(tree.childFrames ?? []).flatMap(frameIds)];

/** `work`, or a rejection after `ms` (when `onTimeout` has run). */
async function within<T>(work: Promise<T>, ms: number, onTimeout: () => Promise<void>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => void onTimeout().finally(() => reject(new Error(`the browser did not answer within ${ms} ms`))), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function bounded<T>(work: Promise<T>): Promise<T | undefined> {
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), COLLECT_MS)));
  try {
    return await Promise.race([work.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const safeUrl = (url: string, fallback: string) => (/^https?:\/\//i.test(url) ? url : fallback);

/**
 * The globals the page defined, as an inline script the detector reads like any other: `js`
 * rules match a global's name as an identifier in inline script text (catalog.ts), so the
 * detector needs no second way to match them, and the evidence excerpt says where they came from.
 */
function globalsScript(names: string[]): string {
  if (!names.length) return '';
  return `<script>\n${names.map((n) => `/* the rendered page defines */ window.${n};`).join('\n')}\n</script>\n`;
}
