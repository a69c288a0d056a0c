// Opens what a CLI command needs: the configuration and a migrated database. On the embedded
// database, a command works through the process that owns the data folder when one runs (the
// server, embedded-socket.ts) and opens the folder itself otherwise; one line on stderr says
// which, so an operator knows whether a server saw the change.
import path from 'node:path';
import { loadConfig, type Config } from '../config.ts';
import { openDb, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';

export interface CliContext {
  config: Config;
  db: Db;
}

interface ContextOptions {
  /** false for `serve`, which must own the database; true (default) for every other command. */
  visit?: boolean;
  /** Skip migrating (restore migrates to the backup's version itself). */
  migrate?: boolean;
  /** Say on stderr how the embedded database was reached (default true). */
  announce?: boolean;
}

export async function openContext(options: ContextOptions = {}): Promise<CliContext> {
  const config = loadConfig();
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    // Only the server reads from a replica: commands act on what they just wrote.
    readUrl: options.visit === false ? config.databaseReadUrl : undefined,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    timeouts: { connectMs: config.databaseTimeouts.connectMs, acquireMs: config.databaseTimeouts.acquireMs },
    whenOwned: options.visit === false ? 'refuse' : 'visit',
  });
  if (options.visit !== false && options.announce !== false) console.error(accessLine(config, db));
  try {
    if (options.migrate !== false) await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return { config, db };
}

/** The one line saying how a command reached its database. */
function accessLine(config: Config, db: Db): string {
  if (db.engine === 'postgres') return 'stacklens: using the PostgreSQL database of DATABASE_URL';
  const dir = path.resolve(config.dataDir);
  return db.visiting
    ? `stacklens: working through the running server (process ${db.visiting.ownerPid}) that holds the embedded database in ${dir}`
    : `stacklens: opened the embedded database in ${dir} directly (no server is running on it)`;
}

/** Runs a command body with an open context and always closes the database. */
export async function withContext<T>(fn: (ctx: CliContext) => Promise<T>, options: ContextOptions = {}): Promise<T> {
  const ctx = await openContext(options);
  try {
    return await fn(ctx);
  } finally {
    await ctx.db.close();
  }
}
