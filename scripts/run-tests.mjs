#!/usr/bin/env node
// Runs the test suite with node's test runner. Node 20 does not find .ts files from a
// folder or glob (it reports 0 tests and exits 0), so the file list is passed explicitly.
// Usage: npm test [-- substring...]   (only files whose path contains a substring)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return find(p);
    return p.endsWith('.test.ts') ? [p] : [];
  });
}

// Folders whose tests never open a database (the detector and its collectors; their CLI tests
// point DATABASE_URL at a closed port to prove it): they run in the PGlite pass, and the
// PostgreSQL pass of CI skips them (saying so) unless they are named on the command line.
const ENGINE_FREE = ['test/detect/'];

const filters = process.argv.slice(2);
let files = find('test').sort().filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (process.env.DATABASE_URL && filters.length === 0) {
  const engineFree = files.filter((f) => ENGINE_FREE.some((dir) => f.startsWith(dir)));
  files = files.filter((f) => !engineFree.includes(f));
  console.log(`Not run again on PostgreSQL: ${engineFree.length} files under ${ENGINE_FREE.join(', ')} that use no database (the PGlite pass runs them)`);
}
if (files.length === 0) {
  console.error(`No test files match ${filters.join(', ') || 'test/**/*.test.ts'}`);
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(`Running ${files.length} test files on ${engine}`);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
