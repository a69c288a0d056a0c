// The commander program of `stacklens` (loaded by main.ts once the early start has run): each
// command lives in its own module of this folder; this file only wires them together.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { AppError } from '../errors.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { registerServeCommand } from './serve.ts';
import { registerDbCommands } from './db.ts';
import { registerImportCommand } from './import.ts';
import { registerSeedCommands } from './seed.ts';
import { registerMcpCommand } from './mcp.ts';
import { registerRefreshCommands } from './refresh.ts';
import { registerCreditsCommands } from './credits.ts';
import { registerClientCommands } from './clients.ts';
import { registerKeyCommands } from './keys.ts';
import { registerEvalCommands } from './eval.ts';
import { registerDetectCommand } from './detect.ts';
import { detectSaveExtension, registerObserveCommand } from './observe.ts';
import { registerBackupCommands } from './backup.ts';
import { registerUserCommands } from './users.ts';
import { registerListCommands } from './lists.ts';
import { registerCrmCommands } from './crm.ts';

const program = new Command('stacklens')
  .description('Stacklens: self-hostable account intelligence (technographics, cohorts, firmographics, people).')
  .showHelpAfterError()
  .exitOverride();

registerServeCommand(program);
registerDbCommands(program);
registerImportCommand(program);
registerSeedCommands(program);
registerMcpCommand(program);
registerRefreshCommands(program);
registerCreditsCommands(program);
registerClientCommands(program);
registerKeyCommands(program);
registerEvalCommands(program);
registerDetectCommand(program, detectSaveExtension);
registerObserveCommand(program);
registerBackupCommands(program);
registerUserCommands(program);
registerListCommands(program);
registerCrmCommands(program);

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
