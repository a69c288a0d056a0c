// Which module registers which top-level command. A command line loads only the modules it
// needs: loading all of them (the server, the MCP SDK, the detector, the demo-world generator)
// cost ~5 CPU-seconds, which every `stacklens clients list` paid before its own work began.
import type { Command } from 'commander';

/**
 * The command modules, with the top-level commands each registers (a test holds this table to
 * what the modules register). Help, a leading option or an unknown name loads them all, so the
 * help and commander's "did you mean" see every command.
 */
export const COMMAND_MODULES: ReadonlyArray<{ commands: readonly string[]; register: () => Promise<(program: Command) => void> }> = [
  { commands: ['serve'], register: async () => (await import('./serve.ts')).registerServeCommand },
  { commands: ['migrate'], register: async () => (await import('./db.ts')).registerDbCommands },
  { commands: ['import'], register: async () => (await import('./import.ts')).registerImportCommand },
  { commands: ['seed', 'world'], register: async () => (await import('./seed.ts')).registerSeedCommands },
  { commands: ['mcp'], register: async () => (await import('./mcp.ts')).registerMcpCommand },
  { commands: ['refresh', 'worker'], register: async () => (await import('./refresh.ts')).registerRefreshCommands },
  { commands: ['credits'], register: async () => (await import('./credits.ts')).registerCreditsCommands },
  { commands: ['clients', 'plans'], register: async () => (await import('./clients.ts')).registerClientCommands },
  { commands: ['keys'], register: async () => (await import('./keys.ts')).registerKeyCommands },
  { commands: ['eval'], register: async () => (await import('./eval.ts')).registerEvalCommands },
  {
    commands: ['detect'],
    register: async () => {
      const [{ registerDetectCommand }, { detectSaveExtension }] = await Promise.all([import('./detect.ts'), import('./observe.ts')]);
      return (program) => registerDetectCommand(program, detectSaveExtension);
    },
  },
  { commands: ['observe'], register: async () => (await import('./observe.ts')).registerObserveCommand },
  { commands: ['backup', 'restore'], register: async () => (await import('./backup.ts')).registerBackupCommands },
  { commands: ['users'], register: async () => (await import('./users.ts')).registerUserCommands },
  { commands: ['lists'], register: async () => (await import('./lists.ts')).registerListCommands },
  { commands: ['crm'], register: async () => (await import('./crm.ts')).registerCrmCommands },
];

/** The modules a command line needs: the named command's, serve's when none is named (the default command), all otherwise. */
export function commandModulesFor(args: readonly string[]): typeof COMMAND_MODULES {
  const name = args[0] ?? 'serve';
  const own = COMMAND_MODULES.filter((m) => m.commands.includes(name));
  return own.length > 0 ? own : COMMAND_MODULES;
}
