// Database commands: migrate, seed, import, refresh.
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { appliedMigrationCount, listMigrations } from '../store/migrate.ts';

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
