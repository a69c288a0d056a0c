// The code is formatted by Prettier (.prettierrc.json; .prettierignore names what it leaves
// alone): a file written by hand in another layout fails here, with the command that fixes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
/** The files `npm run format` writes (package.json). */
export const FORMATTED = ['src/**/*.{ts,js}', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}', 'clients/typescript/src/**/*.ts', 'bin/*.js'];

test('every source file is as Prettier formats it (npm run format)', () => {
  const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
  const run = spawnSync(process.execPath, [prettier, '--list-different', ...FORMATTED], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.stderr, '');
  assert.deepEqual(run.stdout.split('\n').filter(Boolean), [], 'not formatted: run npm run format');
  assert.equal(run.status, 0);
});
