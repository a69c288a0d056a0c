// `stacklens serve`: refuse weak configured secrets outside demo mode, migrate, listen, seed
// the demo world on first start in demo mode (the API answers
// 503 until it is ready, the probes at once), drain on signals: /readyz and new requests
// turn 503 at once, in-flight requests finish, exports get SHUTDOWN_EXPORT_GRACE_SECONDS
// (then are cut, audited as incomplete), the database is closed (PGlite: CHECKPOINT), exit 0.
import type { Command } from 'commander';
import closeWithGrace from 'close-with-grace';
import { buildApp } from '../app.ts';
import { openContext } from './context.ts';
import { ensureDemoWorld } from '../ingest/demo.ts';
import { exportsSettled } from '../services/exports.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { describeDatabase, weakSecrets } from '../operations.ts';
import { recordPublicEndpoints } from '../auth/public-endpoints.ts';
import { demoCredentialsLine } from '../auth/demo-client.ts';
import { listClients } from '../auth/clients.ts';
import { consoleStartupLines, ensureDemoAdmin } from '../services/console-users.ts';
import { appliedMigrationCount, listMigrations } from '../db/migrate.ts';

/** Beyond the export grace: time for the audit writes, closing the app and the database checkpoint. */
const CLOSE_MARGIN_MS = 20_000;

export function registerServeCommand(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('Run the HTTP API (REST under /api, MCP at /mcp) on HOST:PORT')
    .action(async () => {
      refuseUnsafeSecrets(loadConfig());
      const { config, db } = await openContext({ visit: false });
      const readiness = { ready: false, message: 'Stacklens is starting; retry in a few seconds' };
      const app = await buildApp({ config, db, readiness });
      const grace = config.shutdownExportGraceMs;
      closeWithGrace({ delay: grace + CLOSE_MARGIN_MS }, async ({ signal, err }) => {
        if (err) app.log.error({ err }, 'fatal error, shutting down');
        else app.log.info({ signal, exportGraceMs: grace }, 'shutting down: draining requests');
        // /readyz turns 503 at once; requests already on their way are still served (drain.ts).
        const outcome = await app.drain.settle(grace);
        await exportsSettled(); // the audit entries of finished and cut exports
        app.log.info(outcome, 'drained');
        await app.close(); // stops listening, closes idle connections, MCP sessions
        await db.close(); // checkpoints and closes the embedded database
      });
      await app.listen({ host: config.host, port: config.port, backlog: config.overload.listenBacklog });
      readiness.message = 'The demo world is being generated (first start); retry in a few seconds';
      // Credentials printed by the CLI from now on name this server's audience (auth/public-endpoints.ts).
      await recordPublicEndpoints(db, config);
      await ensureDemoWorld(db, config, (line) => console.log(line));
      if (app.drain.draining) return;
      // The detection threads start (and compile the catalog) now, so the first detection does
      // not wait for them; not before the demo world is written, whose generation and writing
      // already fill the cores on a first start (and no request is served before it is ready).
      app.detector.start().catch((err: unknown) => app.log.warn({ err }, 'the detection workers did not start'));
      const firstAdmin = await ensureDemoAdmin(db, config);
      for (const line of [...(await startupReport(config, db)), ...(await consoleStartupLines(db, config, firstAdmin))]) console.log(line);
      readiness.ready = true;
      console.log(`Stacklens is listening on ${config.publicUrl} (REST: ${config.publicUrl}/api, docs: ${config.publicUrl}/docs)`);
    });
}

/** Outside demo mode a weak or placeholder CURSOR_SECRET / METRICS_TOKEN stops the start (exit 2); in demo mode it is a warning. */
function refuseUnsafeSecrets(config: Config): void {
  const problems = weakSecrets(config);
  if (problems.length === 0) return;
  if (config.mode === 'production') {
    throw new ConfigError(`Refusing to start in production mode (no demo world):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  for (const p of problems) console.warn(`Warning (allowed in demo mode only): ${p}`);
}

/** Which database, which mode, where the credentials are: the lines an operator reads first. */
async function startupReport(config: Config, db: Db): Promise<string[]> {
  const lines = [`Database: ${describeDatabase(config)}, at migration ${await appliedMigrationCount(db)} of ${listMigrations().length}`];
  const demoClients = (await listClients(db)).filter((c) => c.name === 'demo' && !c.disabledAt);
  if (config.mode === 'demo') {
    lines.push(`Mode: demo (SEED_DEMO${config.databaseUrl ? '=true' : ' defaults to true on the embedded database'}): a generated demo world on first start`);
    lines.push(await demoCredentialsLine(db, config.dataDir));
  } else {
    lines.push(
      `Mode: production: no demo world${config.databaseUrl ? ' (SEED_DEMO is off with DATABASE_URL)' : ' (SEED_DEMO=false)'}; add one with SEED_DEMO=true or \`stacklens seed\``,
    );
    lines.push('Credentials: none printed; create a client: stacklens clients create --name NAME --plan PLAN, and a key: stacklens keys create --client ID');
    for (const c of demoClients)
      lines.push(
        `Warning: client ${c.id} named "demo" (made with a demo world) is enabled; disable it unless you mean to keep it: stacklens clients disable ${c.id}`,
      );
  }
  return lines;
}
