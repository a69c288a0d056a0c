// `stacklens detect --artifacts FILE [--json] [--rules FILE]`: technologies of each site in a
// JSON Lines artifacts file (docs/detection-rules.md), streamed line by line with flat memory.
// No database, unless --save records the detections (cli/observe.ts): the detector is a pure function over the file and the catalog. A bad line is
// reported on stderr as `file:line: field: reason` and skipped; the exit code is 1 if any was.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { parseArtifactLine } from '../detect/artifacts.ts';
import { loadCatalog } from '../detect/catalog.ts';
import { detect } from '../detect/detect.ts';
import { RuleError } from '../detect/rules.ts';
import type { Detection } from '../detect/types.ts';
import { formatSaveSummary, openRunSaver } from './observe.ts';

interface DetectCliOptions {
  artifacts: string;
  rules?: string;
  onlyRules?: boolean;
  json?: boolean;
  minConfidence: string;
  save?: boolean;
}

export function registerDetectCommand(program: Command): void {
  program
    .command('detect')
    .description('Detect the technologies of each site in an artifacts file (JSON Lines, one site per line; no database needed)')
    .requiredOption('--artifacts <file>', 'JSON Lines file: { domain, url, status, headers, cookies, html, dns, jobs } per line, or - for standard input')
    .option('--rules <file>', "an operator's rule file (the open JSON format): adds technologies and replaces ours of the same name")
    .option('--only-rules', 'use only the --rules file, not the built-in catalog')
    .option('--json', 'print one JSON line per site: { domain, technologies: [{ name, vendorDomain, category, version?, confidence, evidence }] }')
    .option('--min-confidence <p>', 'leave out detections below this confidence', '0.5')
    .option('--save', 'also record the detections in the database (observation log), derive installs and refresh cohorts (README "Bring your own data")')
    .action(async (opts: DetectCliOptions) => {
      process.exitCode = await runDetect(opts);
    });
}

/** The output record of one site: the fields the issue fixes, in that order. */
export function siteRecord(domain: string, detections: Detection[]) {
  return {
    domain,
    technologies: detections.map((d) => ({
      name: d.name, vendorDomain: d.vendorDomain, category: d.category, ...(d.version ? { version: d.version } : {}), confidence: d.confidence, evidence: d.evidence,
    })),
  };
}

async function runDetect(opts: DetectCliOptions): Promise<number> {
  const minConfidence = Number(opts.minConfidence);
  if (!(minConfidence >= 0 && minConfidence <= 1)) {
    console.error(`--min-confidence: must be a number from 0 to 1, got '${opts.minConfidence}'`);
    return 2;
  }
  let catalog;
  try {
    catalog = loadCatalog({ rulesFile: opts.rules, replace: opts.onlyRules });
  } catch (err) {
    if (err instanceof RuleError) {
      console.error(`rules: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const input = opts.artifacts === '-' ? process.stdin : createReadStream(opts.artifacts);
  const opened = new Promise<void>((resolve, reject) => {
    if (input === process.stdin) resolve();
    else input.once('open', () => resolve()).once('error', reject);
  });
  try {
    await opened;
  } catch (err) {
    console.error(`--artifacts: cannot read '${opts.artifacts}': ${(err as Error).message}`);
    return 2;
  }
  const saver = opts.save ? await openRunSaver({ source: 'artifacts' }) : undefined;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0, sites = 0, bad = 0, found = 0;
  const write = async (text: string) => {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  };
  for await (const line of lines) {
    lineNo++;
    if (!line.trim()) continue;
    const parsed = parseArtifactLine(line);
    if (!parsed.ok) {
      bad++;
      console.error(`${opts.artifacts}:${lineNo}: ${parsed.error}`);
      continue;
    }
    const detections = detect(parsed.site, catalog, { minConfidence });
    sites++;
    found += detections.length;
    await saver?.add(siteRecord(parsed.site.domain, detections));
    await write(opts.json ? `${JSON.stringify(siteRecord(parsed.site.domain, detections))}\n` : formatSite(parsed.site.domain, detections));
  }
  process.stderr.write(`${sites} site${sites === 1 ? '' : 's'}, ${found} detections${bad ? `, ${bad} bad line${bad === 1 ? '' : 's'} skipped` : ''}\n`);
  if (saver) process.stderr.write(formatSaveSummary(await saver.finish()));
  return bad ? 1 : 0;
}

/** The readable report of one site: one line per technology, its strongest evidence under it. */
export function formatSite(domain: string, detections: Detection[]): string {
  const out = [`${domain}: ${detections.length} technolog${detections.length === 1 ? 'y' : 'ies'}`];
  for (const d of detections) {
    out.push(`  ${`${d.name}${d.version ? ` ${d.version}` : ''}`.padEnd(36)} ${d.category.padEnd(30)} ${d.confidence.toFixed(2)}${d.impliedBy ? `  (implied by ${d.impliedBy.join(', ')})` : ''}`);
    for (const e of d.evidence.slice(0, 2)) out.push(`      ${e.source.padEnd(6)} ${e.excerpt.slice(0, 110)}`);
  }
  return `${out.join('\n')}\n\n`;
}
