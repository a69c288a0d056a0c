// Builds the real app on a fresh test database, for app.inject() tests.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/db.ts';
import { createTestDb, testJobsSchema } from './db.ts';
import type { ToolDef } from '../../src/mcp/registry.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  // Shedding on event-loop delay is off: it follows the machine's load, not the test (a busy
  // CI runner would turn any test's requests into 503s). 429s are sent at once, not held back,
  // so the quota tests stay quick. The overload and rate-limit tests set what they test.
  // app.inject() sends `Host: localhost:80` on no listening port: /mcp's Host allow-list lets
  // it in (the Host rules are tested on a real port in test/mcp/transport-security.test.ts).
  return loadConfig({
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PUBLIC_URL: 'http://stacklens.test',
    CHECK_REPLIES: 'true',
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    RATE_LIMITED_REPLY_DELAY_MS: '0',
    MCP_ALLOWED_HOSTS: 'localhost:80',
    ...env,
  });
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** A database to share (e.g. two app instances on one database); not closed by close(). */
  db?: Db;
  /** The MCP tools to serve (default: all). */
  mcpTools?: ToolDef[];
  /** Extra routes registered before the app is ready (test-only scopes). */
  routes?: (app: FastifyInstance) => Promise<void>;
  /** Webhook delivery: quicker expiry of a dead worker's jobs, faster polling. */
  webhookTuning?: AppDeps['webhookTuning'];
  /** Captures log lines (set LOG_LEVEL in env too, the default is silent). */
  logStream?: AppDeps['logStream'];
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDb());
  const jobsSchema = testJobsSchema(db);
  const config = testConfig({ ...(jobsSchema ? { JOBS_SCHEMA: jobsSchema } : {}), ...options.env });
  const app = await buildApp({ config, db, mcpTools: options.mcpTools, logStream: options.logStream, webhookTuning: options.webhookTuning });
  if (options.routes) await options.routes(app);
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}
