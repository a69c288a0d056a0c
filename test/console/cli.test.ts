// The first admin and `stacklens users`: the demo world's first start prints the demo admin's
// password once (not again on a restart); `users create` works while the server runs (on the
// embedded database, through the server), prints a generated password once, and the people
// it makes sign in over HTTP; `users list` shows them; set-role is audited as the command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startServe, waitReady } from '../helpers/serve-process.ts';
import { freePortInRange } from '../helpers/ports.ts';

test('first start prints the demo admin once; users create/list work while serving; the people sign in', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-users-'));
  const env = { DEMO_COMPANIES: '10', SEED_DEMO: 'true' };
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
    });
  let port = await freePortInRange();
  let server = startServe(dataDir, port, env);
  try {
    await waitReady(server);
    const printed = /Console: sign in at \S+\/console as (admin@demo\.stacklens\.local) with password (\S+)/.exec(server.output());
    assert.ok(printed, server.output());
    const base = `http://127.0.0.1:${port}`;
    const signIn = (email: string, password: string) =>
      fetch(`${base}/console/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const admin = await signIn(printed[1]!, printed[2]!);
    assert.equal(admin.status, 200);
    assert.equal(((await admin.json()) as { user: { role: string } }).user.role, 'admin');

    // While the server runs: a generated password, printed once.
    const created = cli('users', 'create', '--email', 'Ana@Example.com', '--name', 'Ana', '--role', 'analyst', '--json');
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stderr, /working through the running server/);
    const ana = JSON.parse(created.stdout);
    assert.equal(ana.email, 'ana@example.com');
    assert.match(ana.password, /^[A-Za-z0-9_-]{20}$/);
    const given = cli('users', 'create', '--email', 'vic@example.com', '--name', 'Vic', '--role', 'viewer', '--password', 'a long enough one');
    assert.equal(given.status, 0, given.stderr);
    assert.doesNotMatch(given.stdout, /password:/);
    const signedIn = await signIn('ana@example.com', ana.password);
    assert.equal(signedIn.status, 200);
    assert.equal((await signIn('vic@example.com', 'a long enough one')).status, 200);

    const refused = cli('users', 'create', '--email', 'ana@example.com', '--name', 'Ana 2', '--role', 'root');
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /role: must be one of viewer, analyst, admin/);
    const taken = cli('users', 'create', '--email', 'ANA@example.com', '--name', 'Ana 2', '--role', 'viewer');
    assert.equal(taken.status, 2);
    assert.match(taken.stderr, /exists already/);
    const short = cli('users', 'create', '--email', 'x@example.com', '--name', 'X', '--role', 'viewer', '--password', 'short');
    assert.equal(short.status, 2);
    assert.match(short.stderr, /password: must be at least 10 characters/);

    assert.match(cli('users', 'set-role', 'vic@example.com', 'analyst').stdout, /has role analyst/);
    const listed = JSON.parse(cli('users', 'list', '--json').stdout) as { email: string; role: string }[];
    assert.deepEqual(
      listed.map((u) => [u.email, u.role]),
      [
        ['admin@demo.stacklens.local', 'admin'],
        ['ana@example.com', 'analyst'],
        ['vic@example.com', 'analyst'],
      ],
    );
    assert.doesNotMatch(JSON.stringify(listed), /scrypt|password/i);

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    // A restart prints no password again.
    port = await freePortInRange();
    server = startServe(dataDir, port, env);
    await waitReady(server);
    assert.doesNotMatch(server.output(), /with password/);
    assert.match(server.output(), /Console: http:\/\/\S+\/console \(people: stacklens users list\)/);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  // The audit trail names the command line as the actor.
  const { openDb } = await import('../../src/db/db.ts');
  const db = await openDb({ dataDir });
  try {
    const rows = await db.query<{ action: string; outcome: string; params: Record<string, unknown> }>(
      `SELECT action, outcome, params FROM audit_log WHERE action LIKE 'admin.users.%' ORDER BY id`,
    );
    assert.deepEqual(
      rows.map((r) => [r.action, r.outcome, r.params.actor]),
      [
        ['admin.users.create', 'success', 'cli'],
        ['admin.users.create', 'success', 'cli'],
        ['admin.users.create', 'success', 'cli'],
        ['admin.users.create', 'failure', 'cli'],
        ['admin.users.create', 'failure', 'cli'],
        ['admin.users.update', 'success', 'cli'],
      ],
    );
    assert.ok(!JSON.stringify(rows).includes('a long enough one'), 'no password in the audit log');
  } finally {
    await db.close();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});
