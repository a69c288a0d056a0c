// CLI entry: `stacklens serve | migrate | seed | import | refresh | clients | plans | keys | credits`.
// Each command lives in src/cli/; this file only wires them into commander.
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config.ts';
import { DataDirLockedError } from './store/lock.ts';
import { registerServeCommand } from './cli/serve.ts';
import { registerDbCommands } from './cli/db.ts';
import { registerClientCommands } from './cli/clients.ts';
import { registerKeyCommands } from './cli/keys.ts';
import { registerCreditCommands } from './cli/credits.ts';
import { AppError } from './errors.ts';
import { registerMcpCommand } from './cli/mcp.ts';

const program = new Command('stacklens')
  .description('Stacklens: self-hostable account intelligence (technographics, cohorts, firmographics, people).')
  .showHelpAfterError()
  .exitOverride();

registerServeCommand(program);
registerDbCommands(program);
registerClientCommands(program);
registerKeyCommands(program);
registerCreditCommands(program);
registerMcpCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (err instanceof AppError) {
    // A refused command (unknown client, bad option value): the message says what to fix.
    console.error(err.message);
    process.exit(1);
  }
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
}
