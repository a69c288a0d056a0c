// `stacklens clients …` and `stacklens plans …`: API clients (one-time secrets, disable,
// secret rotation) and plan definitions. Secrets are printed once and never stored in clear.
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { isoOrDash, output, wholeNumber } from './options.ts';
import { listClients, listPlans } from '../auth/clients.ts';
import { createAdminClient, rotateAdminClientSecret, setAdminClientEnabled, setAdminPlan, updateAdminClient } from '../services/admin.ts';
import { CLI_ACTOR } from '../services/audit.ts';
import { BadRequestError } from '../errors.ts';
import { isRole, ROLES } from '../schemas/roles.ts';
import { CLIENT_CACHE_MS } from '../auth/client-cache.ts';
import { servedEndpoints } from '../auth/public-endpoints.ts';

const BOUND = `${CLIENT_CACHE_MS / 1000} s`;

export function registerClientCommands(program: Command): void {
  const clients = program.command('clients').description('API clients: create, list, set-role, disable, enable, rotate-secret');

  clients
    .command('create')
    .description('Create a client; prints its client_id and secret once')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--plan <plan>', 'plan id (basic, full, or one of `stacklens plans list`)')
    .option('--credits <n>', 'starting credits (default: the plan’s)', wholeNumber(0))
    .option('--external-id <id>', 'client id at the external identity provider (AUTH_ISSUER mode)')
    .option('--admin', 'give the client the admin role: it may call the Admin API (/api/admin/…)')
    .option('--json', 'print JSON (for scripts)')
    .action(async (opts: { name: string; plan: string; credits?: number; externalId?: string; admin?: boolean; json?: boolean }) => {
      await withContext(async ({ db, config }) => {
        // The same audited service as POST /api/admin/clients (actor: cli).
        const created = await createAdminClient(db, config, CLI_ACTOR, {
          name: opts.name,
          plan: opts.plan,
          credits: opts.credits,
          externalId: opts.externalId,
          role: opts.admin ? 'admin' : null,
        });
        const c = { ...created.client, clientSecret: created.clientSecret };
        // The audience the server serves (recorded at its start), not this shell's guess.
        const served = await servedEndpoints(db, config);
        if (served.note) console.error(served.note);
        const data = {
          client_id: c.clientId,
          client_secret: c.clientSecret,
          name: c.name,
          plan: c.plan,
          credits: c.credits,
          external_id: c.externalId ?? null,
          role: c.role,
          audience: served.audience,
          token_url: served.tokenUrl,
        };
        output(opts.json, data, () => [
          `Client created: ${c.name} (plan ${c.plan}, ${c.credits} credits${c.role ? `, role ${c.role}` : ''})`,
          `  client_id:     ${c.clientId}`,
          `  client_secret: ${c.clientSecret}`,
          ...(c.externalId ? [`  external_id:   ${c.externalId}`] : []),
          'Store the secret now: it is not shown again (rotate-secret makes a new one).',
          `Token: curl -s ${data.token_url} -H 'content-type: application/json' -d '{"grant_type":"client_credentials","client_id":"${c.clientId}","client_secret":"<secret>","audience":"${served.audience}"}'`,
        ]);
      });
    });

  clients
    .command('list')
    .description('List clients with plan, credits and state')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withContext(async ({ db }) => {
        const rows = await listClients(db);
        const data = rows.map((c) => ({
          client_id: c.id,
          name: c.name,
          plan: c.planId,
          role: c.role,
          credits: c.credits,
          external_id: c.externalId,
          disabled_at: c.disabledAt,
          secret_rotated_at: c.secretRotatedAt,
          created_at: c.createdAt,
        }));
        output(opts.json, data, () =>
          rows.length === 0
            ? ['No clients. Create one: stacklens clients create --name NAME --plan full']
            : rows.map(
                (c) =>
                  `${c.id}  ${c.name}  plan=${c.planId}${c.role ? `  role=${c.role}` : ''}  credits=${c.credits}  ${c.disabledAt ? `DISABLED since ${c.disabledAt.toISOString()}` : 'enabled'}${c.externalId ? `  external=${c.externalId}` : ''}  created=${isoOrDash(c.createdAt)}`,
              ),
        );
      });
    });

  clients
    .command('set-role <clientId> <role>')
    .description(`Give a client a role (${ROLES.join(', ')}; admin may call the Admin API) or take it away (none); audited`)
    .action(async (clientId: string, role: string) => {
      if (role !== 'none' && !isRole(role)) throw new BadRequestError(`role: must be one of ${ROLES.join(', ')} or none`);
      await withContext(async ({ db }) => {
        const c = await updateAdminClient(db, CLI_ACTOR, clientId, { role: role === 'none' ? null : role });
        console.log(`Client ${c.clientId} ${c.role ? `has role ${c.role}` : 'has no role'} from its next request.`);
      });
    });

  clients
    .command('disable <clientId>')
    .description(`Disable a client: its API keys stop at once, its tokens within ${BOUND}, no new tokens`)
    .action(async (clientId: string) => {
      await withContext(async ({ db }) => {
        await setAdminClientEnabled(db, CLI_ACTOR, clientId, false);
        console.log(`Client ${clientId} disabled. API keys are refused from the next request; access tokens already issued within ${BOUND}.`);
      });
    });

  clients
    .command('enable <clientId>')
    .description('Enable a disabled client again')
    .action(async (clientId: string) => {
      await withContext(async ({ db }) => {
        await setAdminClientEnabled(db, CLI_ACTOR, clientId, true);
        console.log(`Client ${clientId} enabled.`);
      });
    });

  clients
    .command('rotate-secret <clientId>')
    .description(`New client secret (printed once); tokens issued before stop working within ${BOUND}`)
    .option('--json', 'print JSON')
    .action(async (clientId: string, opts: { json?: boolean }) => {
      await withContext(async ({ db }) => {
        const r = await rotateAdminClientSecret(db, CLI_ACTOR, clientId);
        output(opts.json, { client_id: r.clientId, client_secret: r.clientSecret }, () => [
          `New secret for ${r.clientId}: ${r.clientSecret}`,
          `The old secret no longer works; tokens issued with it are refused within ${BOUND}. API keys are unaffected.`,
        ]);
      });
    });

  const plans = program.command('plans').description('Plans: permissions, starting credits, rate limits and watch limits (data, not code)');

  plans
    .command('list')
    .description('List plans')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withContext(async ({ db }) => {
        const rows = await listPlans(db);
        output(opts.json, rows, () =>
          rows.map((p) => {
            const perms = [p.canExport && 'export', p.canAi && 'ai', p.canPurchase && 'purchase'].filter(Boolean).join(',') || 'read-only';
            return `${p.id}  ${perms}  credits=${p.initialCredits}  rpm=${p.requestsPerMinute} ai-rpm=${p.aiRequestsPerMinute} export-rpm=${p.exportRequestsPerMinute}  monitors=${p.maxMonitors} webhooks=${p.maxWebhooks} events/day=${p.eventsPerDay} enrich-rows/day=${p.enrichRowsPerDay} list-rows=${p.maxListRows} facets/day=${p.facetsPerDay} detections/day=${p.detectionsPerDay}  ${p.description ?? ''}`;
          }),
        );
      });
    });

  plans
    .command('set <id>')
    .description('Create a plan, or change only the given fields of an existing one')
    .option('--description <text>', 'what the plan is for')
    .option('--export', 'allow exports')
    .option('--no-export', 'forbid exports')
    .option('--ai', 'allow AI helpers')
    .option('--no-ai', 'forbid AI helpers')
    .option('--purchase', 'allow profile purchases')
    .option('--no-purchase', 'forbid profile purchases')
    .option('--credits <n>', 'starting credits of new clients (new plan: 0)', wholeNumber(0))
    .option('--rpm <n>', 'requests per minute (all calls; required for a new plan)', wholeNumber(1))
    .option('--ai-rpm <n>', 'AI helper calls per minute (required for a new plan)', wholeNumber(1))
    .option('--export-rpm <n>', 'exports per minute (required for a new plan)', wholeNumber(1))
    .option('--max-monitors <n>', 'monitors a client may hold (new plan: 10)', wholeNumber(0))
    .option('--max-webhooks <n>', 'webhook endpoints a client may hold (new plan: 2)', wholeNumber(0))
    .option('--events-per-day <n>', 'events a client may receive per UTC day: pull, streams and webhooks together (new plan: 10000)', wholeNumber(0))
    .option('--enrich-rows-per-day <n>', 'companies a client may enrich per UTC day (new plan: 10000)', wholeNumber(0))
    .option('--max-list-rows <n>', 'rows one account list may hold (new plan: 10000)', wholeNumber(0))
    .option('--facets-per-day <n>', 'market-sizing calls a client may make per UTC day, count mode included (new plan: 1000)', wholeNumber(0))
    .option('--detections-per-day <n>', 'never-observed accounts a client may send to detection per UTC day (new plan: 100)', wholeNumber(0))
    .action(
      async (
        id: string,
        o: {
          description?: string;
          export?: boolean;
          ai?: boolean;
          purchase?: boolean;
          credits?: number;
          rpm?: number;
          aiRpm?: number;
          exportRpm?: number;
          maxMonitors?: number;
          maxWebhooks?: number;
          eventsPerDay?: number;
          enrichRowsPerDay?: number;
          maxListRows?: number;
          facetsPerDay?: number;
          detectionsPerDay?: number;
        },
      ) => {
        await withContext(async ({ db }) => {
          const { created } = await setAdminPlan(db, CLI_ACTOR, id, {
            description: o.description,
            canExport: o.export,
            canAi: o.ai,
            canPurchase: o.purchase,
            initialCredits: o.credits,
            requestsPerMinute: o.rpm,
            aiRequestsPerMinute: o.aiRpm,
            exportRequestsPerMinute: o.exportRpm,
            maxMonitors: o.maxMonitors,
            maxWebhooks: o.maxWebhooks,
            eventsPerDay: o.eventsPerDay,
            enrichRowsPerDay: o.enrichRowsPerDay,
            maxListRows: o.maxListRows,
            facetsPerDay: o.facetsPerDay,
            detectionsPerDay: o.detectionsPerDay,
          });
          console.log(
            `Plan ${id} ${created ? 'created' : 'updated'}. Clients on it see the change from the next request (within 30 s for access tokens already issued).`,
          );
        });
      },
    );
}
