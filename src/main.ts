// CLI entry: `stacklens serve | migrate | seed | import | refresh | eval | detect | clients | plans | keys | credits | mcp`.
// CLI entry: `stacklens serve | migrate | seed | import | refresh | eval | clients | plans | keys | credits | mcp | backup | restore | users`.
// Each command lives in src/cli/; this file only wires them into commander.
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config.ts';
import { AppError } from './errors.ts';
import { DataDirLockedError } from './db/lock.ts';
import { registerServeCommand } from './cli/serve.ts';
import { registerDbCommands } from './cli/db.ts';
import { registerImportCommand } from './cli/import.ts';
import { registerSeedCommands } from './cli/seed.ts';
import { registerMcpCommand } from './cli/mcp.ts';
import { registerRefreshCommands } from './cli/refresh.ts';
import { registerCreditsCommands } from './cli/credits.ts';
import { registerClientCommands } from './cli/clients.ts';
import { registerKeyCommands } from './cli/keys.ts';
import { registerEvalCommands } from './cli/eval.ts';
import { registerDetectCommand } from './cli/detect.ts';
import { detectSaveExtension, registerObserveCommand } from './cli/observe.ts';
import { registerBackupCommands } from './cli/backup.ts';
import { registerUserCommands } from './cli/users.ts';
import { registerListCommands } from './cli/lists.ts';
import { registerCrmCommands } from './cli/crm.ts';

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
