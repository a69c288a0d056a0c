// Backup and restore on either engine: a backup taken while requests and writes run is one
// consistent snapshot; it restores into a fresh database, verified table by table; a changed
// or cut-short file fails verification; restore refuses a database holding data unless
// forced, and a restore that fails part-way changes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { createTestDb, TEST_DATABASE_URL } from '../helpers/db.ts';
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { backupDatabase, restoreDatabase, RestoreRefusedError, type BackupProgress } from '../../src/backup/run.ts';
import { BackupFileError, verifyBackupFile } from '../../src/backup/file.ts';
import { worldDigest } from '../../src/store/digest.ts';
import { AS_OF, intelligenceWorld } from '../intelligence/world.ts';

let t: TestApp;
let client: TestClient;
let dir: string;
let file: string;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, intelligenceWorld());
  await refreshAll(t.db);
  client = await createTestClient(t.db, 'full');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-backup-'));
  file = path.join(dir, 'stacklens.backup.gz');
});
after(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const usageUrl = '/api/companies/me.example/cohort/Default/metrics/usage';

test('a backup taken under light load restores into a fresh database, verified, as one snapshot', async () => {
  const usageBefore = (await t.app.inject({ method: 'GET', url: usageUrl, headers: client.headers })).json();
  // Writers: each transaction adds a company and its install together; readers: REST.
  let stop = false;
  let written = 0;
  const statuses: number[] = [];
  const writer = (async () => {
    while (!stop) {
      const n = written++;
      await t.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO companies (id, domain, name) VALUES ($1, $2, $2)`, [`cmp_load${n}`, `load${n}.example`]);
        await tx.query(`INSERT INTO installs (company_id, product_id, first_verified, last_verified) VALUES ($1, 'prd_crm_a', $2, $2)`, [
          `cmp_load${n}`,
          AS_OF,
        ]);
      });
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const reader = (async () => {
    while (!stop) statuses.push((await t.app.inject({ method: 'GET', url: usageUrl, headers: client.headers })).statusCode);
  })();
  await new Promise((r) => setTimeout(r, 50));
  const progress: BackupProgress[] = [];
  const summary = await backupDatabase(t.db, file, { onProgress: (p) => progress.push(p) });
  stop = true;
  await Promise.all([writer, reader]);
  assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), `reads during the backup: ${[...new Set(statuses)]}`);
  assert.ok(written > 0);
  assert.ok(
    progress.some((p) => p.table === 'installs'),
    'progress names the tables',
  );
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'a backup holds secrets: owner only');
  assert.equal(fs.existsSync(`${file}.partial`), false);

  const { header, manifest } = await verifyBackupFile(file);
  assert.equal(header.engine, t.db.engine);
  assert.equal(
    summary.rows,
    Object.values(manifest.tables).reduce((n, s) => n + s.rows, 0),
  );
  assert.ok(manifest.tables.companies!.rows >= 87);

  // A fresh instance (new in-memory database / new schema).
  const target = await createTestDb();
  try {
    const restored = await restoreDatabase(target, file);
    assert.equal(restored.rows, summary.rows);
    // One snapshot: every load company came with its install, none half-written.
    const [pairs] = await target.query<{ companies: number; installs: number }>(
      `SELECT (SELECT count(*)::int FROM companies WHERE id LIKE 'cmp_load%') AS companies,
              (SELECT count(*)::int FROM installs WHERE company_id LIKE 'cmp_load%') AS installs`,
    );
    assert.equal(pairs!.companies, pairs!.installs);
    assert.equal(pairs!.companies, manifest.tables.companies!.rows - 87);
    // Backing the restored database up again (before an app serves on it: serving writes
    // usage counts) gives the same tables, row for row.
    const again = path.join(dir, 'again.gz');
    const second = await backupDatabase(target, again);
    assert.deepEqual(second.manifest.tables, manifest.tables);
    assert.deepEqual(second.manifest.sequences, manifest.sequences);
    // The restored instance answers as the original did, with the same client and key.
    const copy = await createTestApp({ db: target });
    try {
      const res = await copy.app.inject({ method: 'GET', url: usageUrl, headers: client.headers });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), usageBefore);
    } finally {
      await copy.close();
    }
  } finally {
    await target.close();
  }
});

/** Rewrites a backup file's lines; `resum` recomputes checksums so the file verifies. */
function rewrite(source: string, target: string, edit: (lines: string[]) => void, resum = false): void {
  const lines = gunzipSync(fs.readFileSync(source)).toString('utf8').split('\n');
  edit(lines);
  if (resum) {
    const sums: Record<string, { rows: number; sha256: string }> = {};
    let hash = createHash('sha256');
    let rows = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.startsWith('#table ')) [hash, rows] = [createHash('sha256'), 0];
      else if (line.startsWith('{')) [rows] = [rows + 1, hash.update(`${line}\n`)];
      else if (line.startsWith('#end ')) {
        const end = JSON.parse(line.slice(5));
        sums[end.table] = { rows, sha256: hash.digest('hex') };
        lines[i] = `#end ${JSON.stringify({ table: end.table, ...sums[end.table] })}`;
      } else if (line.startsWith('#manifest ')) {
        const manifest = JSON.parse(line.slice(10));
        lines[i] = `#manifest ${JSON.stringify({ ...manifest, tables: sums })}`;
      }
    }
  }
  fs.writeFileSync(target, gzipSync(lines.join('\n')));
}

test('a changed or incomplete backup fails verification and restores nothing', async () => {
  const tampered = path.join(dir, 'tampered.gz');
  rewrite(file, tampered, (lines) => {
    // The companies row (company_domains holds the domain too).
    const table = lines.findIndex((l) => l.startsWith('#table {"name":"companies"'));
    const i = lines.findIndex((l, n) => n > table && l.includes('"domain":"me.example"'));
    lines[i] = lines[i]!.replace('me.example', 'me.exampl3');
  });
  await assert.rejects(
    verifyBackupFile(tampered),
    (err: Error) => err instanceof BackupFileError && /table companies does not match its checksum/.test(err.message),
  );
  const cut = path.join(dir, 'cut.gz');
  rewrite(file, cut, (lines) => lines.splice(lines.findIndex((l) => l.startsWith('#manifest '))));
  await assert.rejects(verifyBackupFile(cut), /no manifest at the end: the backup is incomplete/);
  await assert.rejects(verifyBackupFile(path.join(dir, 'missing.gz')), /no such file/);

  const target = await createTestDb();
  try {
    await assert.rejects(restoreDatabase(target, tampered), BackupFileError);
    const [n] = await target.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
    assert.equal(n!.n, 0);
  } finally {
    await target.close();
  }
});

test('restore refuses a database holding data unless forced, and a failing restore changes nothing', async () => {
  // The source database holds data: refused, and untouched.
  await assert.rejects(
    restoreDatabase(t.db, file),
    (err: Error) => err instanceof RestoreRefusedError && /not empty \(.*companies: \d+ rows/.test(err.message),
  );
  const before = await worldDigest(t.db);

  // A file that verifies but cannot load (an install of an unknown product): with --force the
  // target's data is emptied and reloaded in one transaction, so the failure leaves it as it was.
  const broken = path.join(dir, 'broken.gz');
  rewrite(
    file,
    broken,
    (lines) => {
      const i = lines.findIndex((l) => l.startsWith('{"company_id":"cmp_me","product_id":"prd_crm_a"'));
      lines[i] = lines[i]!.replace('"product_id":"prd_crm_a"', '"product_id":"prd_nowhere"');
    },
    true,
  );
  await verifyBackupFile(broken);
  await assert.rejects(restoreDatabase(t.db, broken, { force: true }));
  assert.deepEqual(await worldDigest(t.db), before, 'nothing changed');

  // Forced with a good file: the data is the backup's again (the companies written after it are gone).
  await restoreDatabase(t.db, file, { force: true });
  const { manifest } = await verifyBackupFile(file);
  const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
  assert.equal(n!.n, manifest.tables.companies!.rows);
});

test('a backup of the embedded database restores into PostgreSQL, verified', { skip: !TEST_DATABASE_URL && 'needs DATABASE_URL' }, async () => {
  const source = await openDb();
  const crossFile = path.join(dir, 'pglite.gz');
  try {
    await migrate(source);
    await insertWorld(source, intelligenceWorld());
    await refreshAll(source);
    await createTestClient(source, 'full');
    await backupDatabase(source, crossFile);
  } finally {
    await source.close();
  }
  const target = await createTestDb();
  try {
    const restored = await restoreDatabase(target, crossFile);
    assert.ok(restored.rows > 1000);
    const { manifest } = await verifyBackupFile(crossFile);
    const back = await backupDatabase(target, path.join(dir, 'pg-again.gz'));
    assert.deepEqual(back.manifest.tables, manifest.tables, 'row for row the same on PostgreSQL');
  } finally {
    await target.close();
  }
});
