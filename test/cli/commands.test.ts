// The command table: a command line loads only the modules it needs, so the table of which
// module registers which top-level command must match what the modules really register.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { COMMAND_MODULES, commandModulesFor } from '../../src/cli/commands.ts';

test('every command module registers exactly the top-level commands the table names, and no command is in two modules', async () => {
  const seen = new Set<string>();
  for (const entry of COMMAND_MODULES) {
    const program = new Command('stacklens');
    (await entry.register())(program);
    assert.deepEqual(
      program.commands.map((c) => c.name()),
      [...entry.commands],
    );
    for (const name of entry.commands) {
      assert.ok(!seen.has(name), `${name} is in two modules`);
      seen.add(name);
    }
  }
});

test('a named command loads its own module only; no command loads serve (the default); help and unknown names load all', () => {
  const commandsOf = (args: string[]) => commandModulesFor(args).flatMap((m) => m.commands);
  assert.deepEqual(commandsOf(['clients', 'list', '--json']), ['clients', 'plans']);
  assert.deepEqual(commandsOf(['restore', 'x.tar']), ['backup', 'restore']);
  assert.deepEqual(commandsOf([]), ['serve']);
  for (const args of [['--help'], ['help', 'keys'], ['cliens', 'list'], ['--port', '8080']])
    assert.equal(commandModulesFor(args).length, COMMAND_MODULES.length);
});
