// Opens what a CLI command needs: the configuration and a migrated database.
import { loadConfig, type Config } from '../config.ts';
import { openDb, type Db } from '../store/db.ts';
import { migrate } from '../store/migrate.ts';

export interface CliContext {
  config: Config;
  db: Db;
}

export async function openContext(): Promise<CliContext> {
  const config = loadConfig();
  const db = await openDb({
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements,
    timeouts: { connectMs: config.databaseTimeouts.connectMs, acquireMs: config.databaseTimeouts.acquireMs },
  });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return { config, db };
}

/** Runs a command body with an open context and always closes the database. */
export async function withContext<T>(fn: (ctx: CliContext) => Promise<T>): Promise<T> {
  const ctx = await openContext();
  try {
    return await fn(ctx);
  } finally {
    await ctx.db.close();
  }
}
