// `stacklens migrate`: applies pending migrations (every other command does too, at start)
// and says which migration the database is at. Seeding, imports and the refresh have
// their own command modules (seed.ts, import.ts, refresh.ts).
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { appliedMigrationCount, listMigrations } from '../db/migrate.ts';

export function registerDbCommands(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (also done by every other command)')
    .action(async () => {
      await withContext(async ({ db }) => {
        const total = listMigrations().length;
        console.log(`Database (${db.engine}) is at migration ${await appliedMigrationCount(db)} of ${total}.`);
      });
    });
}
