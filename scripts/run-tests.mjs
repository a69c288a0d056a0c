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

// Tests that never open a database: the detector and its collectors (their CLI tests point
// DATABASE_URL at a closed port to prove it), and the checks of the source tree that run a
// tool over it (formatting, unused exports, the console's types, the typed client's install,
// the layering, the docs' links). They run in the PGlite pass; the PostgreSQL pass of CI skips
// them (saying so) unless they are named on the command line.
const ENGINE_FREE = [
  'test/detect/',
  'test/format.test.ts',
  'test/unused-exports.test.ts',
  'test/console/type-check.test.ts',
  'test/client/install.test.ts',
  'test/architecture.test.ts',
  'test/docs/links.test.ts',
];

const filters = process.argv.slice(2);
let files = find('test')
  .sort()
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (process.env.DATABASE_URL && filters.length === 0) {
  const engineFree = files.filter((f) => ENGINE_FREE.some((dir) => f.startsWith(dir)));
  files = files.filter((f) => !engineFree.includes(f));
  console.log(`Not run again on PostgreSQL: ${engineFree.length} files that use no database (the PGlite pass runs them): ${ENGINE_FREE.join(', ')}`);
}
if (files.length === 0) {
  console.error(`No test files match ${filters.join(', ') || 'test/**/*.test.ts'}`);
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
// Tests that hold the server to a latency bound while they load it themselves (/healthz p99
// under a flood, under hostile detections) run after the others, one file at a time: beside
// another test file on a 2-core machine they measured the neighbour, not the server.
const ALONE = ['test/http/caller-limits.test.ts', 'test/http/detect-workers.test.ts'];
const alone = files.filter((f) => ALONE.includes(f));
const together = files.filter((f) => !ALONE.includes(f));
console.log(`Running ${files.length} test files on ${engine}${alone.length ? ` (${alone.length} of them alone, after the others)` : ''}`);
const run = (list, concurrency) =>
  list.length === 0
    ? 0
    : (spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...list], {
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'test' },
      }).status ?? 1);
const statuses = [run(together, 3), run(alone, 1)];
process.exit(statuses.find((s) => s !== 0) ?? 0);
