// `stacklens detect`: the technologies of sites, from one of five inputs — a JSON Lines artifacts
// file (--artifacts), a live crawl of a domain list (--domains, or --domain for one), a browser's
// HAR file (--har), a WARC file (--warc) or job posts (--jobs). Every input streams and every
// one prints the same output: with --json one line per site `{ domain, technologies }`, else a
// readable report. No database (cli/observe.ts adds --save through the extension hook): the detector is a pure function over the input and the catalog.
// A bad record is reported on stderr (`file:line: field: reason`) and skipped; exit code 1.
// The files (--artifacts, --har, --warc, --jobs) are detected on a pool of worker threads, one
// per core (--workers), a bounded number of sites ahead, and printed in the input's order.
import { createReadStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Command } from 'commander';
import { parseArtifactLine } from '../detect/artifacts.ts';
import { loadCatalog, type CompiledCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import { RuleError } from '../detect/rules.ts';
import type { Detection, SiteArtifacts } from '../detect/types.ts';
import { readHar } from '../detect/collect/har.ts';
import { readJobs } from '../detect/collect/jobs.ts';
import { readWarc } from '../detect/collect/warc.ts';
import { runCrawl, type CrawlCliOptions } from './detect-crawl.ts';
import { formatSite, siteRecord, writeOut, type DetectSink } from './detect-output.ts';
import { visitCoverage } from '../detect/visit.ts';
import { DetectorPool } from '../services/detect-pool.ts';

export interface DetectCliOptions extends CrawlCliOptions {
  artifacts?: string;
  domains?: string;
  domain?: string;
  har?: string;
  warc?: string;
  jobs?: string;
  rules?: string;
  onlyRules?: boolean;
  json?: boolean;
  minConfidence: string;
  workers: string;
}

export const INPUTS = ['artifacts', 'domains', 'domain', 'har', 'warc', 'jobs'] as const;

/**
 * How another module extends the command without editing it: extra options (e.g. `--save`) and
 * the sinks built from the parsed options (e.g. one recording observations in the database).
 */
export interface DetectExtension {
  options?: (command: Command) => void;
  sinks?: (opts: DetectCliOptions & Record<string, unknown>) => Promise<DetectSink[]>;
}

/**
 * Pages fetched after the home page by default: where the tools the home page does not load
 * live — careers (applicant-tracking job boards), contact (form, chat and scheduling
 * widgets), pricing (checkout and billing). A path that is missing (non-2xx) adds nothing.
 */
const DEFAULT_CRAWL_PATHS = ['/careers', '/contact', '/pricing'];

export function registerDetectCommand(program: Command, extension: DetectExtension = {}): void {
  const command = program
    .command('detect')
    .description('Detect the technologies of sites: from an artifacts file, a live crawl of domains, a HAR or WARC file, or job posts (no database needed)')
    .option('--artifacts <file>', 'JSON Lines file: { domain, url, status, headers, cookies, html, scripts, dns, jobs } per line, or - for standard input')
    .option('--domains <file>', "crawl a list of domains (or URLs), one per line (a CSV's first column), or - for standard input")
    .option('--domain <domain>', 'crawl one domain (or URL) and print its report')
    .option('--har <file>', "a HAR file saved from a browser's network panel: one record per site, script loads included")
    .option('--warc <file>', 'a WARC file (.warc or .warc.gz, WARC/1.0 or 1.1): one record per HTML response')
    .option('--jobs <file>', 'job posts, CSV (.csv) or JSON Lines: domain, title, text per row')
    .option('--rules <file>', "an operator's rule file (the open JSON format): adds technologies and replaces ours of the same name")
    .option('--only-rules', 'use only the --rules file, not the built-in catalog')
    .option('--json', 'print one JSON line per site: { domain, technologies: [{ name, vendorDomain, category, version?, confidence, evidence }] }')
    .option('--min-confidence <p>', 'leave out detections below this confidence', '0.5')
    .option('--workers <n>', 'files: threads detecting sites side by side (1: on the main thread)', String(availableParallelism()))
    .option('--out <file>', 'crawl: append the output to this file; with it the crawl is resumable (state in FILE.state)')
    .option('--state <file>', 'crawl: the resume state file (default: --out FILE + .state; without either, no resume)')
    .option('--concurrency <n>', 'crawl: sites fetched at once', '8')
    .option('--delay <ms>', 'crawl: least time between two requests to one host (robots.txt Crawl-delay can raise it)', '1000')
    .option('--timeout <ms>', 'crawl: deadline of one request', '10000')
    .option('--max-bytes <n>', 'crawl: bytes of a response body kept (after decompression)', String(1024 * 1024))
    .option('--retries <n>', 'crawl: retries of a transient failure (timeouts, resets, 429/502/503/504), with backoff', '2')
    .option('--paths <list>', "crawl: extra paths fetched after the home page, comma-separated; '' for the home page only", DEFAULT_CRAWL_PATHS.join(','))
    .option('--dns-server <addr...>', "crawl: name servers to ask (ip or ip:port); default the system's")
    .option('--no-dns', 'crawl: do not collect DNS records (MX, TXT, CNAME, A, NS)')
    .option(
      '--no-job-boards',
      "crawl: do not read the job board (Greenhouse, Lever, Ashby, Workable, SmartRecruiters, Recruitee, Personio, Workday) a site's pages link to",
    )
    .option('--allow-network <cidr...>', 'crawl: a non-public network requests may reach (e.g. 10.20.0.0/16); see DETECT_ALLOW_PRIVATE_NETWORKS')
    .option('--ports <list>', 'crawl: ports a URL may name, comma-separated, or any', '80,443')
    .option('--user-agent <ua>', 'crawl: the User-Agent (default Stacklens/<version> (+PUBLIC_URL))')
    .option(
      '--render',
      "crawl: also open each home page in headless Chromium (single-page apps: the scripts it really loads, its DOM after they ran, the catalog's js globals), every request inside the network policy; per page at most --render-timeout, 150 requests and 8 MiB; off by default: about 0.5 s of CPU per page (docs/collectors.md)",
    )
    .option(
      '--render-timeout <ms>',
      'crawl, --render: deadline of one page, navigation and settling; a page still busy then is cut and what it loaded is kept',
      '15000',
    )
    .option('--render-concurrency <n>', 'crawl, --render: pages rendered at once (each a Chromium renderer of up to 256 MB of heap)', '2')
    .option('--chromium <path>', 'crawl, --render: the Chromium executable (default DETECT_CHROMIUM_PATH, else /usr/bin/chromium)')
    .option('--no-progress', 'crawl: no progress bar (it is drawn only on a terminal anyway)');
  extension.options?.(command);
  command.action(async (opts: DetectCliOptions & Record<string, unknown>) => {
    process.exitCode = await runDetect(opts, extension.sinks ? await extension.sinks(opts) : []);
  });
}

function loadRules(opts: DetectCliOptions): CompiledCatalog | number {
  try {
    return loadCatalog({ rulesFile: opts.rules, replace: opts.onlyRules });
  } catch (err) {
    if (err instanceof RuleError) {
      console.error(`rules: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

async function openInput(flag: string, file: string): Promise<Readable | null> {
  if (file === '-') return process.stdin;
  const input = createReadStream(file);
  try {
    await new Promise<void>((resolve, reject) => input.once('open', () => resolve()).once('error', reject));
    return input;
  } catch (err) {
    console.error(`--${flag}: cannot read '${file}': ${(err as Error).message}`);
    return null;
  }
}

async function runDetect(opts: DetectCliOptions, sinks: DetectSink[] = []): Promise<number> {
  const given = INPUTS.filter((k) => opts[k] !== undefined);
  if (given.length !== 1) {
    console.error(
      given.length ? `give one input, not ${given.map((k) => `--${k}`).join(' and ')}` : `give an input: ${INPUTS.map((k) => `--${k}`).join(', ')}`,
    );
    return 2;
  }
  const minConfidence = Number(opts.minConfidence);
  if (!(minConfidence >= 0 && minConfidence <= 1)) {
    console.error(`--min-confidence: must be a number from 0 to 1, got '${opts.minConfidence}'`);
    return 2;
  }
  const workers = Number(opts.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    console.error(`--workers: must be a whole number from 1 to 256, got '${opts.workers}'`);
    return 2;
  }
  const catalog = loadRules(opts);
  if (typeof catalog === 'number') return catalog;
  const write = async (site: SiteArtifacts, detections: Detection[]): Promise<number> => {
    const record = siteRecord(site.domain, detections, visitCoverage(site));
    for (const sink of sinks) await sink.write(record, site);
    await writeOut(opts.json ? `${JSON.stringify(record)}\n` : formatSite(site.domain, detections));
    return detections.length;
  };
  const rules = opts.rules ? { rulesFile: path.resolve(opts.rules), replace: opts.onlyRules === true } : undefined;
  const pool = workers > 1 ? new DetectorPool(workers, { background: false }) : undefined;
  try {
    if (opts.domains !== undefined || opts.domain !== undefined) return await runCrawl(opts, catalog, minConfidence, sinks);
    const kind = given[0]!;
    const file = opts[kind]!;
    const input = await openInput(kind, file);
    if (!input) return 2;
    let sites = 0,
      found = 0,
      bad = 0;
    const report = (line: number, message: string) => {
      bad++;
      console.error(`${file}:${line}: ${message}`);
    };
    let source: AsyncIterable<SiteArtifacts>;
    if (kind === 'artifacts') source = artifactLines(input, report);
    else if (kind === 'har') source = readHar(input);
    else if (kind === 'warc') source = readWarc(input);
    else source = readJobs(input, { format: /\.csv$/i.test(file) ? 'csv' : 'jsonl', onError: report });
    try {
      if (!pool) {
        for await (const site of source) {
          sites++;
          found += await write(site, detect(site, catalog, { minConfidence }));
        }
      } else {
        // Sites in flight on the threads, oldest first: written in the input's order, at most
        // AHEAD_PER_WORKER per thread ahead of the writer (memory stays bounded on any file).
        const inFlight: { site: SiteArtifacts; detections: Promise<Detection[]> }[] = [];
        const writeOldest = async () => {
          const { site, detections } = inFlight.shift()!;
          found += await write(site, await detections);
        };
        for await (const site of source) {
          sites++;
          const detections = pool.run({ site, minConfidence, ...(rules ? { rules } : {}) });
          detections.catch(() => {}); // awaited in order by writeOldest
          inFlight.push({ site, detections });
          if (inFlight.length >= workers * AHEAD_PER_WORKER) await writeOldest();
        }
        while (inFlight.length > 0) await writeOldest();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') return 0; // the reader of our output left (| head)
      console.error(`--${kind}: ${file}: ${(err as Error).message}`);
      return 2;
    }
    process.stderr.write(
      `${sites} site${sites === 1 ? '' : 's'}, ${found} detections${bad ? `, ${bad} bad ${kind === 'jobs' ? 'row' : 'line'}${bad === 1 ? '' : 's'} skipped` : ''}\n`,
    );
    return bad ? 1 : 0;
  } finally {
    await pool?.close();
    for (const sink of sinks) await sink.close();
  }
}

/** Sites each detection thread may have queued ahead of the output. */
const AHEAD_PER_WORKER = 8;

async function* artifactLines(input: Readable, report: (line: number, message: string) => void): AsyncGenerator<SiteArtifacts> {
  let lineNo = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (!line.trim()) continue;
    const parsed = parseArtifactLine(line);
    if (parsed.ok) yield parsed.site;
    else report(lineNo, parsed.error);
  }
}
