// Manners of the crawler: robots.txt (RFC 9309, parsed by robots-parser) fetched once per
// origin and shared across sites, and a per-host spacing of requests so a crawl of many
// domains never hits one host more often than the politeness delay (or its Crawl-delay) allows.
import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS with an `export default` typing: Node hands the function itself.
type RobotsParse = (url: string, text: string) => RobotsRules;
const robotsParser = ((robotsParserModule as unknown as { default?: RobotsParse }).default ?? robotsParserModule) as unknown as RobotsParse;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason ?? new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Spaces the starts of requests to one host by at least `delayMs` (or the host's own Crawl-delay, up to 30 s). */
export class Politeness {
  private readonly next = new Map<string, number>();
  private readonly hostDelay = new Map<string, number>();
  constructor(readonly delayMs: number) {}

  setHostDelay(host: string, ms: number | undefined): void {
    if (ms !== undefined && ms > this.delayMs) this.hostDelay.set(host, Math.min(ms, 30_000));
  }

  /** Resolves when a request to `host` may start; reserves that slot. */
  async wait(host: string, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next.get(host) ?? 0);
    this.next.set(host, at + (this.hostDelay.get(host) ?? this.delayMs));
    // Forget hosts whose slot has long passed, so a crawl of a million domains stays flat.
    if (this.next.size > 10_000) for (const [h, t] of this.next) if (t < now) this.next.delete(h);
    await sleep(at - now, signal);
  }
}

interface RobotsRules {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}
type Verdict = { kind: 'rules'; rules: RobotsRules } | { kind: 'allow' } | { kind: 'deny' };

/** Fetches `url` and returns its status and body; the caller's fetcher applies the network policy. */
type RobotsFetcher = (url: string) => Promise<{ status: number; body: Buffer }>;

/** robots.txt per origin, fetched once (concurrent asks share the fetch); at most `max` origins kept. */
export class RobotsCache {
  private readonly verdicts = new Map<string, Promise<Verdict>>();
  private token = 'stacklens';
  constructor(private readonly max = 10_000) {}

  /** The product token robots.txt groups are matched with (`Stacklens` of `Stacklens/0.1.0 (...)`). */
  setUserAgent(userAgent: string): void {
    this.token = userAgent.split(/[/\s]/, 1)[0]!.toLowerCase() || 'stacklens';
  }

  private verdict(origin: string, fetcher: RobotsFetcher): Promise<Verdict> {
    let v = this.verdicts.get(origin);
    if (!v) {
      v = (async (): Promise<Verdict> => {
        try {
          const res = await fetcher(`${origin}/robots.txt`);
          // RFC 9309 §2.3.1: 4xx → no rules; 5xx → assume complete disallow.
          if (res.status >= 500) return { kind: 'deny' };
          if (res.status >= 400 || res.status < 200) return { kind: 'allow' };
          return { kind: 'rules', rules: robotsParser(`${origin}/robots.txt`, res.body.toString('utf8')) };
        } catch {
          // Unreachable robots.txt: the page fetch that follows meets the same fault and reports it.
          return { kind: 'allow' };
        }
      })();
      if (this.verdicts.size >= this.max) this.verdicts.delete(this.verdicts.keys().next().value!);
      this.verdicts.set(origin, v);
    }
    return v;
  }

  async allowed(url: URL, fetcher: RobotsFetcher): Promise<boolean> {
    const v = await this.verdict(url.origin, fetcher);
    if (v.kind !== 'rules') return v.kind === 'allow';
    return v.rules.isAllowed(url.href, this.token) !== false;
  }

  /** The origin's Crawl-delay for our token, in ms, once its robots.txt is known. */
  async crawlDelayMs(url: URL, fetcher: RobotsFetcher): Promise<number | undefined> {
    const v = await this.verdict(url.origin, fetcher);
    const secs = v.kind === 'rules' ? v.rules.getCrawlDelay(this.token) : undefined;
    return secs !== undefined && Number.isFinite(secs) ? secs * 1000 : undefined;
  }
}
