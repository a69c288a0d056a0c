// `stacklens serve`: migrate, listen, seed the demo world on first start (the API answers
// 503 until it is ready, the probes at once), drain on signals.
import type { Command } from 'commander';
import closeWithGrace from 'close-with-grace';
import { buildApp } from '../app.ts';
import { openContext } from './context.ts';
import { ensureDemoWorld } from '../ingest/demo.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('Run the HTTP API (REST under /api, MCP at /mcp) on HOST:PORT')
    .action(async () => {
      const { config, db } = await openContext();
      const readiness = { ready: false, message: 'Stacklens is starting; retry in a few seconds' };
      const app = await buildApp({ config, db, readiness });
      closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
        if (err) app.log.error({ err }, 'fatal error, shutting down');
        else app.log.info({ signal }, 'shutting down: draining requests');
        await app.close(); // stops accepting, waits for in-flight requests
        await db.close(); // checkpoints and closes the embedded database
      });
      await app.listen({ host: config.host, port: config.port, backlog: config.overload.listenBacklog });
      readiness.message = 'The demo world is being generated (first start); retry in a few seconds';
      await ensureDemoWorld(db, config, (line) => console.log(line));
      readiness.ready = true;
      console.log(`Stacklens is listening on ${config.publicUrl} (REST: ${config.publicUrl}/api, docs: ${config.publicUrl}/docs)`);
    });
}
