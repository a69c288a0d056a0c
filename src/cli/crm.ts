// CRM commands, for an operator acting for one client: `stacklens crm connect`, `connections`,
// `disconnect`, `sync --list <id> | --domains a,b [--dry-run]` and `log [--run <id>]`. They call
// the same services as the REST operations, with the same input rules (the operations' schemas)
// and the client's plan held to the same export permission; on the embedded database they work
// through a running server (cli/context.ts), so they may run beside `serve`.
import fs from 'node:fs';
import type { Command } from 'commander';
import type { z } from 'zod';
import { withContext } from './context.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors.ts';
import { findClient } from '../store/access.ts';
import type { Db } from '../db/db.ts';
import { connectCrmOp, syncCrmOp, type CrmSyncRunOut } from '../schemas/crm.ts';
import { connectCrm, deleteCrmConnection, getCrmSyncRun, listCrmConnections, listCrmSyncRuns, syncCrm } from '../services/crm/service.ts';

/** The command-line option of each input field, so an error names what the operator typed. */
const OPTION_OF: Record<string, string> = {
  crm: '--crm',
  baseUrl: '--base-url',
  token: '--token/--token-file',
  externalIdField: '--external-id-field',
  listId: '--list',
  domains: '--domains',
};

/** The input checked by the operation's own schema; the first problem → a 400 naming the option. */
function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  throw new BadRequestError(`${OPTION_OF[field] ?? field}${issue.path.length > 1 ? `[${issue.path.slice(1).join('.')}]` : ''}: ${issue.message}`);
}

/** The client, refused unless its plan has the export permission (the REST operations need it too). */
async function exportingClient(db: Db, clientId: string): Promise<string> {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFoundError(`No client ${clientId}`);
  if (!client.plan.canExport) throw new ForbiddenError(`Permission 'export' is required: client ${clientId}'s plan '${client.planId}' does not have it`);
  return client.id;
}

function readToken(opts: { token?: string; tokenFile?: string }): string {
  if ((opts.token === undefined) === (opts.tokenFile === undefined)) throw new BadRequestError('--token/--token-file: give exactly one');
  if (opts.token !== undefined) return opts.token;
  return fs.readFileSync(opts.tokenFile === '-' ? 0 : opts.tokenFile!, 'utf8').trim();
}

/** The plan of a run, one line per company and one per field change, then the counts. */
function printRun(run: CrmSyncRunOut): void {
  const verb = run.dryRun ? 'would' : 'did';
  console.log(`${run.id}  ${run.crm}  ${run.dryRun ? 'dry run' : 'write'}  ${run.status}${run.overwrite ? '  overwrite' : ''}`);
  for (const r of run.records) {
    console.log(`  ${r.action.padEnd(9)} ${r.domain}${r.outcome ? `  → ${r.outcome}` : ''}${r.error ? `: ${r.error}` : ''}`);
    for (const c of r.changes) console.log(`      ${c.field}: '${c.old}' → '${c.new}'${c.skipped ? `  (kept: ${c.skipped})` : ''}`);
  }
  const c = run.counts;
  console.log(`${verb}: ${c.created} create, ${c.updated} update, ${c.unchanged} unchanged, ${c.skipped} skipped, ${c.failed} failed`);
  if (run.error) console.log(`error: ${run.error}`);
}

export function registerCrmCommands(program: Command): void {
  const crm = program.command('crm').description("A client's CRM write-back (HubSpot, Salesforce): connect, sync with a dry run, the sync log");

  crm
    .command('connect')
    .description("Store (or replace) a client's CRM connection; the token is kept encrypted")
    .requiredOption('--client <clientId>', 'API client id (cli_...)')
    .requiredOption('--crm <crm>', 'hubspot or salesforce')
    .requiredOption('--base-url <url>', 'API base URL (https://api.hubapi.com, or your Salesforce instance)')
    .option('--token <token>', 'API token (visible to other users of this machine while it runs: prefer --token-file)')
    .option('--token-file <path>', "a file holding the API token ('-': standard input)")
    .option('--external-id-field <name>', 'Salesforce: the Account External ID field (default Stacklens_Id__c)')
    .option('--overwrite', 'syncs overwrite fields a person edited in the CRM by default')
    .option('--json', 'print the connection as JSON')
    .action(
      async (opts: {
        client: string;
        crm: string;
        baseUrl: string;
        token?: string;
        tokenFile?: string;
        externalIdField?: string;
        overwrite?: boolean;
        json?: boolean;
      }) => {
        const input = parsed(connectCrmOp.input, {
          crm: opts.crm,
          baseUrl: opts.baseUrl,
          token: readToken(opts),
          externalIdField: opts.externalIdField,
          overwrite: opts.overwrite ?? false,
        });
        await withContext(async ({ db, config }) => {
          const c = await connectCrm(db, config.crm, await exportingClient(db, opts.client), input);
          if (opts.json) console.log(JSON.stringify(c));
          else
            console.log(
              `${opts.client}: ${c.crm} at ${c.baseUrl}, token ${c.tokenHint}${c.externalIdField ? `, key ${c.externalIdField}` : ''}${c.overwrite ? ', overwrite' : ''}`,
            );
        });
      },
    );

  crm
    .command('connections')
    .description("A client's CRM connections (never their tokens)")
    .requiredOption('--client <clientId>', 'API client id (cli_...)')
    .action(async (opts: { client: string }) => {
      await withContext(async ({ db }) => {
        const { connections } = await listCrmConnections(db, opts.client);
        if (connections.length === 0) console.log(`${opts.client}: no CRM connection`);
        for (const c of connections) console.log(`${c.crm}  ${c.baseUrl}  token ${c.tokenHint}${c.overwrite ? '  overwrite' : ''}  updated ${c.updatedAt}`);
      });
    });

  crm
    .command('disconnect')
    .description("Delete a client's CRM connection (the sync log stays)")
    .requiredOption('--client <clientId>', 'API client id (cli_...)')
    .requiredOption('--crm <crm>', 'hubspot or salesforce')
    .action(async (opts: { client: string; crm: string }) => {
      const { crm: kind } = parsed(syncCrmOp.input.pick({ crm: true }), { crm: opts.crm });
      await withContext(async ({ db }) => {
        await deleteCrmConnection(db, opts.client, kind);
        console.log(`${opts.client}: ${kind} connection deleted`);
      });
    });

  crm
    .command('sync')
    .description("Write a list's (or some domains') companies to the client's CRM; --dry-run prints the plan and writes nothing")
    .requiredOption('--client <clientId>', 'API client id (cli_...)')
    .option('--crm <crm>', 'hubspot or salesforce (default: the client’s only connection)')
    .option('--list <listId>', "one of the client's account lists: its matched companies")
    .option('--domains <domains>', 'or comma-separated company domains')
    .option('--dry-run', 'read the CRM and print what would change; write nothing')
    .option('--overwrite', 'overwrite fields a person edited in the CRM')
    .option('--on-behalf-of <email>', 'the person the sync is done for (recorded in the audit log)')
    .option('--json', 'print the run as JSON')
    .action(
      async (opts: {
        client: string;
        crm?: string;
        list?: string;
        domains?: string;
        dryRun?: boolean;
        overwrite?: boolean;
        onBehalfOf?: string;
        json?: boolean;
      }) => {
        await withContext(async ({ db, config }) => {
          const clientId = await exportingClient(db, opts.client);
          let kind = opts.crm;
          if (kind === undefined) {
            const { connections } = await listCrmConnections(db, clientId);
            if (connections.length !== 1)
              throw new BadRequestError(`--crm: the client has ${connections.length} connections; name one (hubspot or salesforce)`);
            kind = connections[0]!.crm;
          }
          const input = parsed(syncCrmOp.input, {
            crm: kind,
            listId: opts.list,
            domains: opts.domains?.split(',').map((d) => d.trim()),
            dryRun: opts.dryRun ?? false,
            overwrite: opts.overwrite,
          });
          const run = await syncCrm(db, config.crm, { clientId, onBehalfOf: opts.onBehalfOf ?? null }, input);
          if (opts.json) console.log(JSON.stringify(run));
          else printRun(run);
          if (run.status === 'failed') process.exitCode = 1;
        });
      },
    );

  crm
    .command('log')
    .description("A client's sync runs, newest first; --run prints one run's plan and outcomes")
    .requiredOption('--client <clientId>', 'API client id (cli_...)')
    .option('--run <runId>', 'one run, with every company')
    .option('--page <n>', '0-based page', (v) => Number.parseInt(v, 10), 0)
    .option('--size <n>', 'runs per page (1-200)', (v) => Number.parseInt(v, 10), 20)
    .option('--json', 'print JSON')
    .action(async (opts: { client: string; run?: string; page: number; size: number; json?: boolean }) => {
      await withContext(async ({ db }) => {
        if (opts.run) {
          const run = await getCrmSyncRun(db, opts.client, opts.run);
          if (opts.json) console.log(JSON.stringify(run));
          else printRun(run);
          return;
        }
        const page = await listCrmSyncRuns(db, opts.client, { page: Math.max(0, opts.page || 0), size: Math.min(200, Math.max(1, opts.size || 20)) });
        if (opts.json) return console.log(JSON.stringify(page));
        for (const r of page.content) {
          const c = r.counts;
          console.log(
            `${r.startedAt}  ${r.id}  ${r.crm}  ${r.dryRun ? 'dry run' : 'write'}  ${r.status}  +${c.created} ~${c.updated} =${c.unchanged} skipped ${c.skipped} failed ${c.failed}${r.error ? `  ${r.error}` : ''}`,
          );
        }
        console.log(`${page.totalElements} run(s)`);
      });
    });
}
