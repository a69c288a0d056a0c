// `stacklens detect --domains FILE|-` and `--domain D`: the live crawl behind the detect command.
// Reads the list, skips what an earlier run finished (--out/--state), crawls with a progress bar,
// prints each site as it finishes, stops cleanly on Ctrl-C (rerun the same command to resume)
// and ends with a summary: fetched, failed by reason, detections.
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import { ConfigError, loadConfig } from '../config.ts';
import type { CompiledCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import type { SiteArtifacts } from '../detect/types.ts';
import { compileAllowList } from '../detect/collect/address.ts';
import { crawl, CrawlState, type CrawlResult } from '../detect/collect/crawl.ts';
import { siteTarget, type FetchSiteOptions } from '../detect/collect/fetch-site.ts';
import { Renderer, RenderUnavailableError } from '../detect/collect/render.ts';
import { Politeness, RobotsCache } from '../detect/collect/politeness.ts';
import { formatSite, siteRecord, writeOut, type DetectSink } from './detect-output.ts';
import { visitCoverage } from '../detect/visit.ts';

export interface CrawlCliOptions {
  domains?: string;
  domain?: string;
  json?: boolean;
  out?: string;
  state?: string;
  concurrency: string;
  delay: string;
  timeout: string;
  maxBytes: string;
  retries: string;
  paths: string;
  dnsServer?: string[];
  dns: boolean;
  jobBoards: boolean;
  allowNetwork?: string[];
  ports: string;
  userAgent?: string;
  progress: boolean;
  render?: boolean;
  renderTimeout: string;
  renderConcurrency: string;
  chromium?: string;
}

class UsageError extends Error {}

function intOption(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name}: must be an integer ${min}-${max}, got '${value}'`);
  return n;
}

/** The list's targets in order, deduplicated by domain; bad lines reported by number. */
async function readTargets(opts: CrawlCliOptions, report: (line: number, message: string) => void): Promise<Array<{ target: string; domain: string }>> {
  const seen = new Set<string>();
  const out: Array<{ target: string; domain: string }> = [];
  const add = (raw: string, line: number) => {
    const t = siteTarget(raw);
    if (!t) return report(line, `domain: '${raw.slice(0, 100)}' is neither a domain nor an http(s) URL`);
    if (seen.has(t.domain)) return;
    seen.add(t.domain);
    out.push({ target: raw, domain: t.domain });
  };
  if (opts.domain !== undefined) {
    add(opts.domain, 1);
    return out;
  }
  const input = opts.domains === '-' ? process.stdin : createReadStream(opts.domains!);
  if (input !== process.stdin) {
    await new Promise<void>((resolve, reject) =>
      input.once('open', () => resolve()).once('error', (e: Error) => reject(new UsageError(`--domains: cannot read '${opts.domains}': ${e.message}`))),
    );
  }
  let n = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    // A CSV's first column; comments and a header row are skipped.
    const cell = text
      .split(',', 1)[0]!
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (!cell || cell.startsWith('#') || (n === 1 && /^(domain|website|url|company_domain)$/i.test(cell))) continue;
    add(cell, n);
  }
  return out;
}

export async function runCrawl(opts: CrawlCliOptions, catalog: CompiledCatalog, minConfidence: number, sinks: DetectSink[]): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  let badLines = 0;
  const report = (line: number, message: string) => {
    badLines++;
    console.error(`${opts.domains ?? '--domain'}:${line}: ${message}`);
  };
  let fetchOptions: FetchSiteOptions, concurrency: number, targets: Array<{ target: string; domain: string }>;
  let renderer: Renderer | undefined;
  try {
    concurrency = intOption('concurrency', opts.concurrency, 1, 1000);
    const ports = opts.ports.trim() === 'any' ? ('any' as const) : opts.ports.split(',').map((p) => intOption('ports', p.trim(), 1, 65535));
    try {
      compileAllowList(opts.allowNetwork);
    } catch (err) {
      throw new UsageError(`--allow-network: ${(err as Error).message.replace(/^allowNetworks: /, '')}`);
    }
    const paths = opts.paths
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    for (const p of paths) if (!p.startsWith('/')) throw new UsageError(`--paths: each path must start with /, got '${p}'`);
    fetchOptions = {
      paths,
      timeoutMs: intOption('timeout', opts.timeout, 100, 600_000),
      maxBytes: intOption('max-bytes', opts.maxBytes, 1024, 100 * 1024 * 1024),
      retries: intOption('retries', opts.retries, 0, 10),
      userAgent: opts.userAgent,
      contactUrl: config.detect.contactUrl,
      network: { allowPrivateNetworks: config.detect.allowPrivateNetworks, allowNetworks: opts.allowNetwork, ports },
      dns: { servers: opts.dnsServer, records: opts.dns },
      ...(opts.jobBoards ? {} : { jobBoards: false as const }),
      robots: new RobotsCache(),
      politeness: new Politeness(intOption('delay', opts.delay, 0, 600_000)),
    };
    targets = await readTargets(opts, report);
    renderer = opts.render ? await startRenderer(opts, catalog, config.detect.chromiumPath) : undefined;
  } catch (err) {
    if (err instanceof UsageError || err instanceof RenderUnavailableError) {
      console.error(err instanceof RenderUnavailableError ? `--render: ${err.message}` : err.message);
      return 2;
    }
    throw err;
  }
  if (renderer) fetchOptions = { ...fetchOptions, render: renderer };

  const stateFile = opts.state ?? (opts.out ? `${opts.out}.state` : undefined);
  const state = stateFile ? new CrawlState(stateFile, opts.out) : null;
  const outFd = opts.out ? openSync(opts.out, 'a') : null;
  const todo = targets.filter((t) => !state?.done.has(t.domain));
  const skipped = targets.length - todo.length;

  const bar =
    opts.progress && process.stderr.isTTY && opts.domain === undefined
      ? new cliProgress.SingleBar(
          { stream: process.stderr, format: 'detect |{bar}| {value}/{total} sites | {failed} failed | {domain}', hideCursor: true, clearOnComplete: false },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(todo.length, 0, { failed: 0, domain: '' });

  const controller = new AbortController();
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let fetched = 0,
    failed = 0,
    detections = 0,
    withDetections = 0;
  const reasons = new Map<string, number>();
  const renders = { ok: 0, cut: 0, failed: 0 };
  const onResult = async (r: CrawlResult) => {
    let found = 0;
    if (r.site?.render) renders[r.site.render.outcome]++;
    if (r.site) {
      const site: SiteArtifacts = { ...r.site, domain: r.domain };
      const list = detect(site, catalog, { minConfidence });
      found = list.length;
      const record = siteRecord(r.domain, list, visitCoverage(site, r.reason));
      for (const sink of sinks) await sink.write(record, site);
      if (outFd !== null) writeSync(outFd, `${JSON.stringify(record)}\n`);
      else if (opts.json) await writeOut(`${JSON.stringify(record)}\n`);
      else {
        const note = fetchNote(r);
        await writeOut(note ? `${formatSite(r.domain, list).trimEnd()}\n${note}` : formatSite(r.domain, list));
      }
    } else if (!opts.json && outFd === null) await writeOut(`${r.domain}: not fetched (${r.reason}: ${r.message})\n\n`);
    if (r.reason) {
      failed++;
      reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
    } else fetched++;
    detections += found;
    if (found) withDetections++;
    state?.finish(r.reason ? { domain: r.domain, reason: r.reason } : { domain: r.domain });
    bar?.increment(1, { failed, domain: r.domain });
  };

  try {
    await crawl(
      todo.map((t) => t.target),
      { concurrency, fetch: fetchOptions, signal: controller.signal },
      onResult,
    );
  } finally {
    await renderer?.close();
    bar?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    state?.close();
    if (outFd !== null) closeSync(outFd);
  }
  const byReason = [...reasons]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const left = todo.length - fetched - failed;
  process.stderr.write(
    [
      `${targets.length} domain${targets.length === 1 ? '' : 's'}: ${fetched} fetched, ${failed} failed${failed ? ` (${byReason})` : ''}`,
      skipped ? `, ${skipped} skipped (finished in an earlier run)` : '',
      `; ${detections} detections on ${withDetections} site${withDetections === 1 ? '' : 's'}`,
      badLines ? `; ${badLines} bad line${badLines === 1 ? '' : 's'} skipped` : '',
      renderer
        ? `; rendered ${renders.ok + renders.cut} (${renders.cut} cut at a bound), ${renders.failed} render${renders.failed === 1 ? '' : 's'} failed`
        : '',
      '\n',
      interrupted
        ? `interrupted with ${left} left${stateFile ? ': run the same command again to resume' : ' (no --out or --state: a rerun starts over)'}\n`
        : '',
    ].join(''),
  );
  if (interrupted) return 130;
  if (opts.domain !== undefined) return failed ? 1 : 0;
  return badLines ? 1 : 0;
}

/** The rendered pass's browser, started before the crawl so a missing Chromium stops the command at once. */
async function startRenderer(opts: CrawlCliOptions, catalog: CompiledCatalog, chromiumPath: string): Promise<Renderer> {
  return Renderer.launch({
    executablePath: opts.chromium ?? chromiumPath,
    globals: catalog.jsGlobals,
    timeoutMs: intOption('render-timeout', opts.renderTimeout, 1000, 600_000),
    concurrency: intOption('render-concurrency', opts.renderConcurrency, 1, 32),
  });
}

/** Under the readable report of a crawled site: where its page came from and what DNS gave. */
function fetchNote(r: CrawlResult): string {
  const lines: string[] = [];
  for (const p of r.site?.pages ?? [])
    if (!p.rendered) lines.push(`  page   ${p.url} (${p.status ?? '?'}${p.html ? `, ${Buffer.byteLength(p.html)} bytes` : ''})`);
  const dns = r.site?.dns ?? {};
  const counts = Object.entries(dns).map(([k, v]) => `${k} ${v?.length ?? 0}`);
  if (counts.length) lines.push(`  dns    ${counts.join(', ')}`);
  const render = r.site?.render;
  if (render) {
    const what = `${render.scripts} script${render.scripts === 1 ? '' : 's'}, ${render.requests} requests${render.blocked ? `, ${render.blocked} blocked` : ''}, ${render.ms} ms`;
    lines.push(`  render ${render.url} (${render.outcome}${render.reason ? `: ${render.reason}` : ''}; ${what})`);
  }
  if (r.reason) lines.push(`  failed ${r.reason}: ${r.message}`);
  return lines.length ? `${lines.join('\n')}\n\n` : '';
}
