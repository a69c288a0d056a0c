// Account list commands, acting for one API client (`--client`): `stacklens lists upload FILE
// --name NAME` (a new list, or `--list ID` for its next version; a large file runs as a job
// with its progress on stderr), `lists show ID` (rows, match rate, miss reasons) and
// `lists rows ID [--status review]`. They call the services of the REST routes.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { output, wholeNumber } from './options.ts';
import { BadRequestError } from '../errors.ts';
import { getList, listRows } from '../services/lists.ts';
import { getListUpload, uploadListOrStart } from '../services/list-uploads.ts';
import type { AccountList, ListRow } from '../schemas/lists.ts';

const FORMATS: Record<string, 'csv' | 'jsonl'> = { '.csv': 'csv', '.jsonl': 'jsonl', '.ndjson': 'jsonl' };
const STATUSES = ['matched', 'review', 'unmatched'] as const;
/** How often a running upload's progress is read. */
const POLL_MS = 500;

function summaryLines(l: AccountList): string[] {
  const pct = (n: number) => `${Math.round(n * 1000) / 10} %`;
  const lines = [
    `${l.id}  ${l.name}  version ${l.version}`,
    `rows ${l.rows}: matched ${l.matched} (${pct(l.matchRate)}), review ${l.review}, unmatched ${l.unmatched}`,
  ];
  const misses = Object.entries(l.missReasons).sort((a, b) => b[1] - a[1]);
  if (misses.length > 0) lines.push(`misses: ${misses.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (l.diff) lines.push(`against version ${l.version - 1}: added ${l.diff.added}, removed ${l.diff.removed}, changed ${l.diff.changed}`);
  return lines;
}

function rowLine(r: ListRow): string {
  const who = r.domain ?? [r.name, r.country].filter(Boolean).join(', ');
  const match =
    r.status === 'matched'
      ? `→ ${r.companyDomain} (${r.method}${r.score === null ? '' : `, ${r.score}`})`
      : r.status === 'review'
        ? `? ${r.candidates.map((c) => `${c.companyDomain} ${c.score}`).join(' | ')}`
        : `✗ ${r.reason}`;
  return `${String(r.line).padStart(7)}  ${r.status.padEnd(9)}  ${who}  ${match}`;
}

export function registerListCommands(program: Command): void {
  const lists = program.command('lists').description("Account lists of an API client: upload, show, rows (the REST routes' services)");

  lists
    .command('upload')
    .description('Upload a CSV or JSON Lines file as a new list, or as the next version of --list; a large file runs as a job')
    .argument('<file>', 'the file (.csv, .jsonl or .ndjson; or --format)')
    .requiredOption('--client <clientId>', 'the API client the list belongs to')
    .option('--name <name>', 'the list name (required for a new list)')
    .option('--list <listId>', 'upload the next version of this list')
    .option('--format <format>', 'csv or jsonl (default: from the file name)')
    .option('--async', 'run as a background job whatever its size')
    .option('--json', 'print the list as JSON')
    .action(async (file: string, opts: { client: string; name?: string; list?: string; format?: string; async?: boolean; json?: boolean }) => {
      const format = (opts.format ?? FORMATS[path.extname(file).toLowerCase()]) as 'csv' | 'jsonl' | undefined;
      if (format !== 'csv' && format !== 'jsonl') throw new BadRequestError(`--format: csv or jsonl (the file name '${path.basename(file)}' does not say)`);
      const content = fs.readFileSync(file, 'utf8');
      await withContext(async ({ db, config }) => {
        const input = { format, content, queryName: opts.name, async: opts.async };
        const r = await uploadListOrStart(db, opts.client, opts.list, input, config.listJobs);
        let list: AccountList;
        if ('list' in r) list = r.list;
        else {
          console.error(`stacklens: upload job ${r.job.id} for list ${r.job.listId} (about ${r.job.total} rows)`);
          for (;;) {
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
            const job = await getListUpload(db, opts.client, r.job.id);
            if (job.status === 'failed') throw new BadRequestError(`the upload failed: ${job.error}`);
            if (job.status === 'succeeded' && job.list) {
              list = job.list;
              break;
            }
            console.error(`stacklens: ${job.phase ?? 'queued'} ${job.done} of ${job.total} rows`);
          }
        }
        output(opts.json, list, () => summaryLines(list));
      });
    });

  lists
    .command('show')
    .description('A list: rows, match rate, review count, miss reasons and the diff with the version before')
    .argument('<listId>')
    .requiredOption('--client <clientId>', 'the API client the list belongs to')
    .option('--json', 'print JSON')
    .action(async (listId: string, opts: { client: string; json?: boolean }) => {
      await withContext(async ({ db }) => {
        const l = await getList(db, opts.client, listId);
        output(opts.json, l, () => summaryLines(l));
      });
    });

  lists
    .command('rows')
    .description("The current version's rows in file order, with their match (or candidates, or the reason of a miss)")
    .argument('<listId>')
    .requiredOption('--client <clientId>', 'the API client the list belongs to')
    .option('--status <status>', `only rows of this status: ${STATUSES.join(', ')}`)
    .option('--page <n>', '0-based page', wholeNumber(0), 0)
    .option('--size <n>', 'rows per page (1-200)', wholeNumber(1), 50)
    .option('--json', 'print JSON')
    .action(async (listId: string, opts: { client: string; status?: string; page: number; size: number; json?: boolean }) => {
      if (opts.status !== undefined && !(STATUSES as readonly string[]).includes(opts.status))
        throw new BadRequestError(`--status: one of ${STATUSES.join(', ')}, not '${opts.status}'`);
      await withContext(async ({ db }) => {
        const page = await listRows(db, opts.client, listId, {
          page: opts.page,
          size: Math.min(200, opts.size),
          status: opts.status as ListRow['status'] | undefined,
        });
        output(opts.json, page, () => [...page.content.map(rowLine), `(${page.content.length} of ${page.totalElements}, page ${opts.page})`]);
      });
    });
}
