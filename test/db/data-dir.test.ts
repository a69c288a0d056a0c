// The embedded database's data folder is private: the folder 0700 and nothing under it open to
// group or others, on a first start (PGlite unpacks its cluster with 0666 files) and for a
// folder an older version left 0755 with world-writable files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../../src/db/db.ts';

/** Every entry under `dir` (not following links) whose mode lets group or others in, as `mode path`. */
function openToOthers(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((name) => [name, fs.lstatSync(path.join(dir, name))] as const)
    .filter(([, stat]) => !stat.isSymbolicLink() && (stat.mode & 0o077) !== 0)
    .map(([name, stat]) => `${(stat.mode & 0o7777).toString(8)} ${name}`);
}
const modeOf = (p: string) => fs.statSync(p).mode & 0o7777;

test('a new data folder is 0700 and nothing under it is open to group or others, including the files PGlite unpacks', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-datadir-'));
  const dataDir = path.join(root, 'srv', 'data');
  try {
    const db = await openDb({ dataDir });
    await db.query('create table notes (body text)');
    await db.query(`insert into notes values ('private')`);
    await db.close();
    assert.equal(modeOf(dataDir).toString(8), '700');
    assert.equal(modeOf(path.dirname(dataDir)).toString(8), '700', 'a parent it had to create too');
    const files = (fs.readdirSync(dataDir, { recursive: true }) as string[]).filter((n) => fs.lstatSync(path.join(dataDir, n)).isFile());
    assert.ok(files.length > 100, `the cluster's files are there (${files.length})`);
    assert.deepEqual(openToOthers(dataDir), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a folder left open by an older version (0755, files 0666) is tightened at start; a link inside is not followed; files of others in DATA_DIR are left alone', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-datadir-'));
  const dataDir = path.join(root, 'data');
  const outside = path.join(root, 'outside.txt');
  try {
    await (await openDb({ dataDir })).close();
    // As older versions left it.
    fs.chmodSync(dataDir, 0o755);
    for (const name of fs.readdirSync(dataDir, { recursive: true }) as string[]) {
      const p = path.join(dataDir, name);
      fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o666);
    }
    fs.writeFileSync(outside, 'not ours');
    const neighbour = path.join(dataDir, 'operator-notes.txt'); // DATA_DIR may hold other things
    fs.writeFileSync(neighbour, 'notes');
    fs.chmodSync(neighbour, 0o644);
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(dataDir, 'pglite', 'link-to-outside'));
    assert.ok(openToOthers(dataDir).length > 100);

    const db = await openDb({ dataDir });
    assert.deepEqual(await db.query('select 1 as one'), [{ one: 1 }]);
    await db.close();
    assert.equal(modeOf(dataDir).toString(8), '700');
    assert.deepEqual(openToOthers(dataDir), ['644 operator-notes.txt']);
    assert.equal(modeOf(outside).toString(8), '644', 'the link target outside the folder is untouched');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
