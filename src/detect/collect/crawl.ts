// The crawl of a domain list: fetchSite over many targets with a global concurrency, one
// robots.txt cache and one politeness schedule shared by all, and a resumable record of what
// is finished (a JSON Lines state file beside the output; the output file itself counts too,
// so a crash between writing a site and noting it cannot duplicate the site on the next run).
import { closeSync, existsSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { CollectError, fetchSite, siteTarget, type FetchSiteOptions } from './fetch-site.ts';
import { Politeness, RobotsCache } from './politeness.ts';
import type { SiteArtifacts } from '../types.ts';

export interface CrawlResult {
  target: string;
  domain: string;
  /** What was collected: the whole site, or (failed) whatever was had, such as DNS records. */
  site?: SiteArtifacts;
  /** Set when the home page could not be fetched: a stable reason such as `timeout`, `robots_disallowed`. */
  reason?: string;
  message?: string;
}

interface CrawlOptions {
  /** Sites fetched at once (default 8). */
  concurrency?: number;
  /** fetchSite's options; robots and politeness are shared across the crawl when not given. */
  fetch?: FetchSiteOptions;
  /** Stops taking new targets and aborts the fetches in flight (their sites stay unfinished). */
  signal?: AbortSignal;
}

/**
 * Fetches every target (domain or URL) and hands each result to `onResult` as it finishes
 * (calls never overlap). Sites aborted by the signal are not handed over.
 */
export async function crawl(targets: string[], opts: CrawlOptions, onResult: (r: CrawlResult) => void | Promise<void>): Promise<void> {
  const fetchOpts: FetchSiteOptions = {
    ...opts.fetch,
    robots: opts.fetch?.robots ?? new RobotsCache(),
    politeness: opts.fetch?.politeness ?? new Politeness(1000),
    signal: opts.signal,
  };
  let next = 0;
  let chain = Promise.resolve();
  const deliver = (r: CrawlResult) => (chain = chain.then(() => onResult(r)));
  const worker = async () => {
    while (next < targets.length && !opts.signal?.aborted) {
      const target = targets[next++]!;
      const domain = siteTarget(target)?.domain ?? target;
      try {
        const site = await fetchSite(target, fetchOpts);
        await deliver({ target, domain, site });
      } catch (err) {
        if (opts.signal?.aborted) return;
        if (err instanceof CollectError)
          await deliver({ target, domain, site: err.site.pages.length || err.site.dns ? err.site : undefined, reason: err.reason, message: err.message });
        else await deliver({ target, domain, reason: 'error', message: (err as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 8, targets.length)) }, worker));
  await chain;
}

/** One line of the state file. */
interface StateLine {
  domain: string;
  reason?: string;
}

/**
 * The finished-domain record of a resumable crawl: `outFile` (JSON Lines of results, each with
 * `domain`) and `stateFile` (JSON Lines of finished domains, failures with their reason).
 * Opening repairs a line cut by a crash at the end of either file.
 */
export class CrawlState {
  readonly done = new Set<string>();
  private readonly stateFd: number;

  constructor(
    readonly stateFile: string,
    readonly outFile?: string,
  ) {
    for (const file of [stateFile, outFile]) if (file && existsSync(file)) this.load(file);
    this.stateFd = openSync(stateFile, 'a');
  }

  /** Reads the domains of a JSON Lines file in 1 MB chunks (an output of millions of sites stays out of memory) and cuts a partial last line. */
  private load(file: string): void {
    const fd = openSync(file, 'r+');
    try {
      const chunk = Buffer.alloc(1024 * 1024);
      let carry = Buffer.alloc(0),
        pos = 0,
        complete = 0,
        n: number;
      while ((n = readSync(fd, chunk, 0, chunk.length, pos)) > 0) {
        const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
        const startOfData = pos - carry.length;
        pos += n;
        let from = 0,
          nl: number;
        while ((nl = data.indexOf(0x0a, from)) >= 0) {
          this.take(data.subarray(from, nl).toString('utf8'));
          from = nl + 1;
          complete = startOfData + from;
        }
        carry = Buffer.from(data.subarray(from));
      }
      if (complete < pos) ftruncateSync(fd, complete);
    } finally {
      closeSync(fd);
    }
  }

  private take(line: string): void {
    // The output record starts with its domain ({"domain":"…",…}): read that, not the whole record.
    const head = /^\{"domain":("(?:[^"\\]|\\.)*")/.exec(line);
    let domain: unknown;
    try {
      domain = head ? JSON.parse(head[1]!) : line.trim() ? (JSON.parse(line) as { domain?: unknown }).domain : undefined;
    } catch {
      return; // a foreign line: not ours to judge
    }
    if (typeof domain === 'string') this.done.add(domain);
  }

  /** Notes a domain as finished (one write of one whole line). */
  finish(line: StateLine): void {
    writeSync(this.stateFd, `${JSON.stringify(line)}\n`);
    this.done.add(line.domain);
  }

  close(): void {
    closeSync(this.stateFd);
  }
}
