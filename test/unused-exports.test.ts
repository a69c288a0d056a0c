// No export goes unused: knip (knip.json: the entry points are the CLI, the worker modules,
// the tests, the benchmarks and the scripts) lists every export, exported type and file that
// nothing imports. A name used only inside its own file is not exported; dead code is deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

test('every export, exported type and source file is used somewhere (npm run lint:exports)', () => {
  const knip = resolve(ROOT, 'node_modules/knip/bin/knip.js');
  const run = spawnSync(process.execPath, [knip, '--include', 'exports,types,files', '--no-progress', '--no-config-hints'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.stdout.trim(), '', 'unused: remove the export (or the code), then run npm run lint:exports');
  assert.equal(run.status, 0, run.stderr);
});
