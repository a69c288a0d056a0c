// Builds the real app on a fresh test database, for app.inject() tests.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/store/db.ts';
import { createTestDb } from './db.ts';
import type { ToolDef } from '../../src/mcp/registry.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', PUBLIC_URL: 'http://stacklens.test', ...env });
}

export async function createTestApp(options: { env?: Record<string, string>; db?: Db; mcpTools?: ToolDef[] } = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDb());
  const config = testConfig(options.env);
  const app = await buildApp({ config, db, mcpTools: options.mcpTools });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
