// `stacklens clients create --admin` and `stacklens clients set-role`: the admin role is
// granted and taken away from the command line through the audited service (actor "cli"),
// like every other change the CLI makes (keys, credits, disable), on a PGlite data folder
// with the real command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

test('clients create --admin, set-role none/admin, refused role names; every change audited as the command line', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-roles-'));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
  const ok = (...args: string[]) => {
    const r = run(...args);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    return r.stdout;
  };
  try {
    const created = JSON.parse(ok('clients', 'create', '--name', 'ops', '--plan', 'basic', '--admin', '--json'));
    assert.equal(created.role, 'admin');
    assert.match(created.client_secret, /^[A-Za-z0-9_-]{43}$/);
    const roleOf = () =>
      (JSON.parse(ok('clients', 'list', '--json')) as { client_id: string; role: string | null }[]).find((c) => c.client_id === created.client_id)!.role;
    assert.equal(roleOf(), 'admin');
    assert.match(ok('clients', 'set-role', created.client_id, 'none'), /has no role/);
    assert.equal(roleOf(), null);
    assert.match(ok('clients', 'set-role', created.client_id, 'admin'), /has role admin/);
    assert.equal(roleOf(), 'admin');

    const wrong = run('clients', 'set-role', created.client_id, 'root');
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stderr, /role: must be one of viewer, analyst, admin or none/);
    const unknown = run('clients', 'set-role', 'cli_nope', 'admin');
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /no client 'cli_nope'/);

    // The other changes go through the same audited services too.
    const key = JSON.parse(ok('keys', 'create', '--client', created.client_id, '--json'));
    assert.match(key.api_key, /^sl_/);
    ok('credits', 'grant', created.client_id, '5', '--reason', 'trial');
    ok('clients', 'disable', created.client_id);

    // The audit trail, read on the same folder now the commands have exited.
    const { openDb } = await import('../../src/db/db.ts');
    const db = await openDb({ dataDir });
    try {
      const rows = await db.query<{ action: string; client_id: string | null; outcome: string; params: Record<string, unknown> }>(
        `SELECT action, client_id, outcome, params FROM audit_log WHERE action LIKE 'admin.%' ORDER BY id`,
      );
      assert.deepEqual(
        rows.map((r) => [r.action, r.outcome, r.client_id, r.params.actor]),
        [
          ['admin.clients.create', 'success', null, 'cli'],
          ['admin.clients.update', 'success', null, 'cli'],
          ['admin.clients.update', 'success', null, 'cli'],
          ['admin.clients.update', 'failure', null, 'cli'],
          ['admin.keys.create', 'success', null, 'cli'],
          ['admin.credits.grant', 'success', null, 'cli'],
          ['admin.clients.disable', 'success', null, 'cli'],
        ],
      );
      assert.equal(rows[4]!.params.keyId, key.id);
      assert.deepEqual([rows[5]!.params.amount, rows[5]!.params.reason, rows[5]!.params.balance], [5, 'trial', 5]);
    } finally {
      await db.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
