// `stacklens import` as a process: exit codes, the summary line, `file:line: field: reason`.
// Runs on PGlite in a temp DATA_DIR, or in a fresh schema when DATABASE_URL is set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../helpers/db.ts';
import { EXAMPLES, tempDir, writeFile } from './helpers.ts';
import { openDb } from '../../src/db/db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = tempDir();
const schema = `t_cli_${process.pid}_${randomBytes(3).toString('hex')}`;
let databaseUrl = '';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  await c.query(sql).finally(() => c.end());
}

before(async () => {
  if (!TEST_DATABASE_URL) return;
  await admin(`CREATE SCHEMA "${schema}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  databaseUrl = url.toString();
});
after(async () => {
  if (TEST_DATABASE_URL) await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});

const ACCESS_LINE = /^stacklens: (opened the embedded database|working through the running server|using the PostgreSQL database).*\n/;

function stacklens(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: path.join(dir, 'data'), DATABASE_URL: databaseUrl, SEED_DEMO: 'false' } },
      // The first stderr line says how the database was reached (cli/context.ts); the tests read what follows it.
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr: stderr.replace(ACCESS_LINE, '') }),
    );
  });
}

test('a good file exits 0 with a summary; the same file again changes nothing', async () => {
  const first = await stacklens('import', 'industries', path.join(EXAMPLES, 'industries.csv'));
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^industries: 4 rows read, 4 inserted, 0 updated, 0 unchanged, 0 rejected in [\d.]+ s \([\d,]+ rows\/s\)\n$/);
  const again = await stacklens('import', 'industries', path.join(EXAMPLES, 'industries.csv'), '--json', '--no-refresh');
  assert.equal(again.code, 0, again.stderr);
  const summary = JSON.parse(again.stdout);
  assert.deepEqual([summary.committed, summary.inserted, summary.updated, summary.unchanged], [true, 0, 0, 4]);
});

test('a file with bad rows exits 1, writes nothing and lists file:line: field: reason', async () => {
  const file = writeFile(dir, 'industries-bad.jsonl', [
    JSON.stringify({ id: 'ind_new', name: 'New' }),
    JSON.stringify({ id: 'ind_bad id', name: 'Bad' }),
    JSON.stringify({ id: 'ind_other', name: 'Software' }),
  ]);
  const r = await stacklens('import', 'industries', file);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `${file}:2: id: 'ind_bad id' is not a valid id (letters, digits, _ - . : up to 128)\n` +
      `${file}:3: name: name Software already belongs to industry ind_software\n`,
  );
  assert.match(r.stdout, /^industries: nothing written: 2 of 3 rows rejected \(2 errors\)/);
  const check = await stacklens('import', 'industries', writeFile(dir, 'probe.csv', ['id,name', 'ind_new,New']), '--json');
  assert.equal(JSON.parse(check.stdout).inserted, 1, 'ind_new was not written by the rejected file');
});

test('an unusable invocation exits 2 with one message', async () => {
  const r = await stacklens('import', 'installs', path.join(dir, 'missing.csv'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^stacklens import: file: .*missing\.csv does not exist or is not a file\n$/);
  const noFormat = await stacklens('import', 'installs', writeFile(dir, 'installs.txt', ['x']));
  assert.equal(noFormat.code, 2);
  assert.match(noFormat.stderr, /format: give --format csv\|jsonl/);
});

test('every import above is a job in the database, started by the CLI, with its outcome', async () => {
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir: path.join(dir, 'data') });
  try {
    const jobs = await db.query<{ status: string; started_by: string; params: { kind: string; file: string }; error: string | null }>(
      "SELECT status, started_by, params, error FROM jobs WHERE kind = 'import' ORDER BY id",
    );
    assert.deepEqual(
      jobs.map((j) => [j.params.file.split('/').pop(), j.status]),
      [
        ['industries.csv', 'succeeded'],
        ['industries.csv', 'succeeded'],
        ['industries-bad.jsonl', 'failed'],
        ['probe.csv', 'succeeded'],
        ['missing.csv', 'failed'],
        ['installs.txt', 'failed'],
      ],
    );
    assert.ok(jobs.every((j) => j.started_by === 'cli'));
    assert.equal(jobs[2]!.error, '2 of 3 rows rejected (2 errors): nothing written');
  } finally {
    await db.close();
  }
});
