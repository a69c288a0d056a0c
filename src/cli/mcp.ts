// `stacklens mcp`: the same MCP tools over stdio against the local database, for desktop
// clients. stdout carries the protocol, so everything else goes to stderr.
import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { ToolList } from '../mcp/toolsets.ts';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openContext } from './context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { createMcpServer } from '../mcp/server.ts';
import { allTools } from '../mcp/tools/index.ts';
import { UsageRecorder } from '../services/usage.ts';
import { PublishWatcher } from '../services/monitor-updates.ts';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the MCP tools over stdio (for desktop AI clients). Authenticates with an API key: --api-key, STACKLENS_API_KEY, or the demo client of DATA_DIR',
    )
    .option('--api-key <key>', 'API key of the client the tools act as')
    .addOption(
      new Option(
        '--tools <list>',
        'What tools/list answers: core (the short list plus more_tools, which reaches the rest) or all; default MCP_TOOL_LIST',
      ).choices(['core', 'all']),
    )
    .action(async (opts: { apiKey?: string; tools?: ToolList }) => {
      const { config, db } = await openContext();
      const apiKey = opts.apiKey ?? config.stdioApiKey ?? demoApiKey(config.dataDir);
      if (!apiKey) {
        await db.close();
        throw new Error('No API key: pass --api-key, set STACKLENS_API_KEY, or start the demo world once (npm start) to create a demo client');
      }
      let server: Server;
      // Calls count in the usage records as over HTTP; the last counts are written on the way out.
      const usage = new UsageRecorder(db);
      // This process publishes no events (the server, or a CLI writer, does): it watches the
      // published seq, while a resource subscription listens, to tell its client of new ones.
      const watcher = new PublishWatcher(db, (err) => console.error(`Watching for new events failed: ${(err as Error).message}`));
      try {
        const principal = await authenticate(db, config, { apiKey });
        server = createMcpServer(allTools, { db, config, principal, usage, toolList: opts.tools }, undefined, {
          events: watcher,
          onError: (err) => console.error(`Resource update: ${(err as Error).message}`),
        });
      } catch (err) {
        await db.close();
        throw new Error(`MCP stdio: ${(err as Error).message}`);
      }
      const transport = new StdioServerTransport();
      let closing = false;
      const shutdown = async () => {
        if (closing) return; // server.close() closes the transport, which reports back here
        closing = true;
        watcher.stop();
        await server.close();
        await usage.flush();
        await db.close();
        process.exit(0);
      };
      const onclose = server.onclose; // the subscriptions' end
      server.onclose = () => {
        onclose?.();
        void shutdown();
      };
      process.on('SIGINT', () => void shutdown());
      process.on('SIGTERM', () => void shutdown());
      // The client closed our stdin (a desktop client quit or restarted): no request can come
      // any more. End now; a connection to a running server would keep the process alive.
      process.stdin.once('end', () => void shutdown());
      process.stdin.once('close', () => void shutdown());
      await server.connect(transport);
      watcher.start();
      console.error(`Stacklens MCP server on stdio (${db.engine}); ${allTools.length} tools.`);
    });
}

function demoApiKey(dataDir: string): string | undefined {
  try {
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-client.json'), 'utf8')) as { api_key?: string };
    return demo.api_key;
  } catch {
    return undefined;
  }
}
