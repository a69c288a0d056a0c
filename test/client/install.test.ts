// The client is usable as installed, the way its README says: `npm install <folder>` into a
// project of its own builds dist/ on install (the `prepare` script), and a plain .mjs imports
// it. The folder is a fresh copy without dist/ (as in a fresh clone), placed inside the
// repository so the build finds the repository's TypeScript like a clone's would. Uses the npm
// registry (or its cache) for the client's own dependency.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const source = join(root, 'clients/typescript');

test('npm install <client folder> builds it, and a plain .mjs imports it', { timeout: 240_000 }, async () => {
  mkdirSync(join(root, '.scratch'), { recursive: true });
  const clone = mkdtempSync(join(root, '.scratch', 'client-'));
  const project = mkdtempSync(join(tmpdir(), 'stacklens-client-user-'));
  try {
    for (const f of ['package.json', 'tsconfig.json', 'README.md', 'src']) cpSync(join(source, f), join(clone, f), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-stacklens', version: '1.0.0', private: true, type: 'module' }));
    // --install-links: a copy, not a link, so the import below cannot reach the repository's files.
    await run('npm', ['install', '--install-links', '--prefer-offline', '--no-audit', '--no-fund', clone], {
      cwd: project,
      env: { ...process.env, NODE_ENV: 'production' },
    });
    writeFileSync(
      join(project, 'use.mjs'),
      [
        "import { createStacklensClient, csvRecords, StacklensError } from '@stacklens/client';",
        "const client = createStacklensClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sl_test' });",
        'console.log(JSON.stringify([typeof client.get, typeof client.paginate.searchCompanies, typeof csvRecords, typeof StacklensError]));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: project });
    assert.deepEqual(JSON.parse(stdout), ['function', 'function', 'function', 'function']);
  } finally {
    rmSync(clone, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});
