// The backup's FILE.partial is created exclusively and never through a symbolic link: a link
// planted at that path (a shared folder) is refused with a clear message and its target is left
// untouched, as is an existing .partial of another (running or interrupted) backup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/db.ts';
import { createTestDb } from '../helpers/db.ts';
import { backupDatabase } from '../../src/backup/run.ts';
import { BackupFileError, verifyBackupFile } from '../../src/backup/file.ts';

let db: Db;
let dir: string;
before(async () => {
  db = await createTestDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-partial-'));
});
after(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const refused = (partial: string) => (err: unknown) =>
  err instanceof BackupFileError &&
  err.message ===
    `${partial} already exists: another backup to this file is running, or one was interrupted. If none is running, remove ${partial} and try again.`;

test('a symbolic link planted at FILE.partial is not followed: the backup is refused and the target keeps its content', async () => {
  const file = path.join(dir, 'nightly.backup.gz');
  const target = path.join(dir, 'victim.conf');
  fs.writeFileSync(target, 'precious\n');
  fs.symlinkSync(target, `${file}.partial`);
  await assert.rejects(backupDatabase(db, file), refused(`${file}.partial`));
  assert.equal(fs.readFileSync(target, 'utf8'), 'precious\n');
  assert.ok(fs.lstatSync(`${file}.partial`).isSymbolicLink(), 'the link is left for the operator to look at');
  assert.equal(fs.existsSync(file), false);
});

test('a dangling link at FILE.partial does not create its target', async () => {
  const file = path.join(dir, 'other.backup.gz');
  const target = path.join(dir, 'created-through-the-link');
  fs.symlinkSync(target, `${file}.partial`);
  await assert.rejects(backupDatabase(db, file), refused(`${file}.partial`));
  assert.equal(fs.existsSync(target), false);
});

test('an existing FILE.partial (another backup, or an interrupted one) is refused and kept; once removed, the backup is written 0600', async () => {
  const file = path.join(dir, 'stacklens.backup.gz');
  fs.writeFileSync(`${file}.partial`, 'another backup writing here');
  await assert.rejects(backupDatabase(db, file), refused(`${file}.partial`));
  assert.equal(fs.readFileSync(`${file}.partial`, 'utf8'), 'another backup writing here');
  fs.rmSync(`${file}.partial`);
  const summary = await backupDatabase(db, file);
  assert.ok(summary.tables > 0);
  assert.equal(fs.existsSync(`${file}.partial`), false);
  assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600');
  await verifyBackupFile(file);
});

test('a folder that does not exist is a clear error, not a crash', async () => {
  const file = path.join(dir, 'no-such-folder', 'x.backup.gz');
  await assert.rejects(
    backupDatabase(db, file),
    (err: unknown) => err instanceof BackupFileError && err.message.startsWith(`${file}.partial cannot be created: ENOENT`),
  );
});
