// The commander program of `stacklens` (loaded by main.ts once the early start has run): each
// command lives in its own module of this folder, loaded only when the command line needs it
// (commands.ts); this file only wires them together.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { AppError } from '../errors.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { commandModulesFor } from './commands.ts';

const program = new Command('stacklens')
  .description('Stacklens: self-hostable account intelligence (technographics, cohorts, firmographics, people).')
  .showHelpAfterError()
  .exitOverride();

for (const register of await Promise.all(commandModulesFor(process.argv.slice(2)).map((m) => m.register()))) register(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  // Expected failures (bad config, locked data folder, a command's 4xx) print their message only.
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof AppError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
}
