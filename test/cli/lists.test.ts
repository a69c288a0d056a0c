// `stacklens lists upload|show|rows` for one API client, beside a running server on the same
// PGlite data folder (the commands work through it): a small file matched at once, the list's
// summary with its misses, the review queue's rows, a larger file run as a job with its progress
// on stderr, and errors naming the option or the row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { freePort, startServe, waitReady } from '../helpers/serve-process.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const JOB_ENV = { LIST_ASYNC_ROWS: '4', LIST_BATCH_ROWS: '2' };

function cli(dataDir: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...JOB_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('lists upload, show and rows work through a running server for the named client', { timeout: 300_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-lists-cli-'));
  const db = await openDb({ dataDir });
  await migrate(db);
  await insertWorld(db, {
    companies: [
      { id: 'c_acme', domain: 'acme.com', name: 'Acme Corporation', country: 'US' },
      { id: 'c_umbrella_fr', domain: 'umbrella.fr', name: 'Umbrella Pharma', country: 'FR' },
      { id: 'c_umbrella_it', domain: 'umbrella-pharma.it', name: 'Umbrella Pharma', country: 'IT' },
    ],
  });
  await db.close();
  const server = startServe(dataDir, await freePort(), { SEED_DEMO: 'false', ...JOB_ENV });
  try {
    await waitReady(server);
    const created = await cli(dataDir, ['clients', 'create', '--name', 'Lists', '--plan', 'full', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const client = JSON.parse(created.stdout).client_id as string;

    const small = path.join(dataDir, 'targets.csv');
    fs.writeFileSync(small, 'domain,name,country\nwww.acme.com,,US\n,Umbrella Pharma,\nnowhere.example,,\n');
    const up = await cli(dataDir, ['lists', 'upload', small, '--name', 'Targets', '--client', client, '--json']);
    assert.equal(up.code, 0, up.stderr);
    assert.match(up.stderr, /working through the running server/);
    const list = JSON.parse(up.stdout) as { id: string; rows: number; matched: number; review: number };
    assert.deepEqual([list.rows, list.matched, list.review], [3, 1, 1]);

    const show = await cli(dataDir, ['lists', 'show', list.id, '--client', client]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /Targets {2}version 1/);
    assert.match(show.stdout, /rows 3: matched 1 \(33\.3 %\), review 1, unmatched 1/);
    assert.match(show.stdout, /misses: .*ambiguous 1/);
    assert.match(show.stdout, /domain_unknown 1/);

    const review = await cli(dataDir, ['lists', 'rows', list.id, '--status', 'review', '--client', client]);
    assert.equal(review.code, 0, review.stderr);
    assert.match(review.stdout, /3 {2}review .*Umbrella Pharma {2}\? .*umbrella/);
    assert.doesNotMatch(review.stdout, /acme\.com/);
    assert.match(review.stdout, /\(1 of 1, page 0\)/);

    // More rows than LIST_ASYNC_ROWS: a job, its progress on stderr, then the new version.
    const big = path.join(dataDir, 'big.jsonl');
    fs.writeFileSync(
      big,
      ['acme.com', 'a1.example', 'a2.example', 'a3.example', 'a4.example', 'a5.example'].map((d) => JSON.stringify({ domain: d })).join('\n'),
    );
    const job = await cli(dataDir, ['lists', 'upload', big, '--list', list.id, '--client', client]);
    assert.equal(job.code, 0, job.stderr);
    assert.match(job.stderr, /upload job \d+ for list lst_/);
    assert.match(job.stdout, /Targets {2}version 2/);
    assert.match(job.stdout, /rows 6: matched 1/);

    const other = await cli(dataDir, ['clients', 'create', '--name', 'Other', '--plan', 'full', '--json']);
    const otherId = JSON.parse(other.stdout).client_id as string;
    const hidden = await cli(dataDir, ['lists', 'show', list.id, '--client', otherId]);
    assert.notEqual(hidden.code, 0);
    assert.match(hidden.stderr, /no list '.*' of this client/);
    const bad = path.join(dataDir, 'bad.csv');
    fs.writeFileSync(bad, 'domain\nacme.com\nnot a domain\n');
    const refused = await cli(dataDir, ['lists', 'upload', bad, '--name', 'Bad', '--client', client]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /line 3: domain: 'not a domain' is not a domain name/);
    const status = await cli(dataDir, ['lists', 'rows', list.id, '--status', 'maybe', '--client', client]);
    assert.match(status.stderr, /--status: one of matched, review, unmatched/);
  } finally {
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output());
  }
});
