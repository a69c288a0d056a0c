// `npx stacklens …` after `npm install`: the package's bin runs the TypeScript entry through
// tsx, with no build step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

test('bin/stacklens.js runs the CLI from source, and npx finds it', () => {
  const help = execFileSync(process.execPath, ['bin/stacklens.js', '--help'], { encoding: 'utf8' });
  for (const command of ['serve', 'import', 'backup', 'restore', 'mcp']) assert.match(help, new RegExp(`\\n  ${command}\\b`));
  const viaNpx = execFileSync('npx', ['--no-install', 'stacklens', 'backup', '--help'], { encoding: 'utf8' });
  assert.match(viaNpx, /--verify/);
});
