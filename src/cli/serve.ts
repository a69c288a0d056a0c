// `stacklens serve`: migrate, listen, seed the demo world on first start (the API answers
// 503 until it is ready, the probes at once), drain on signals: /readyz and new requests
// turn 503 at once, in-flight requests finish, exports get SHUTDOWN_EXPORT_GRACE_SECONDS
// (then are cut, audited as incomplete), the database is closed (PGlite: CHECKPOINT), exit 0.
import type { Command } from 'commander';
import closeWithGrace from 'close-with-grace';
import { buildApp } from '../app.ts';
import { openContext } from './context.ts';
import { ensureDemoWorld } from '../ingest/demo.ts';
import { exportsSettled } from '../services/exports.ts';

/** Beyond the export grace: time for the audit writes, closing the app and the database checkpoint. */
const CLOSE_MARGIN_MS = 20_000;

export function registerServeCommand(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('Run the HTTP API (REST under /api, MCP at /mcp) on HOST:PORT')
    .action(async () => {
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
      await ensureDemoWorld(db, config, (line) => console.log(line));
      if (app.drain.draining) return;
      readiness.ready = true;
      console.log(`Stacklens is listening on ${config.publicUrl} (REST: ${config.publicUrl}/api, docs: ${config.publicUrl}/docs)`);
    });
}
