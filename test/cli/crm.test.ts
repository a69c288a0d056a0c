// `stacklens crm …` beside a process that owns the embedded data folder (as `serve` does): the
// commands work through it, and against the validating HubSpot stub `crm sync --dry-run` prints
// the plan and writes nothing, `crm sync` writes, `crm log` lists both runs. The CLI runs on a
// PGlite data folder whatever engine the suite uses (a command opens DATA_DIR or DATABASE_URL,
// not a test schema).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openDb, type Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createClient } from '../../src/auth/clients.ts';
import { uploadList } from '../../src/services/lists.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { startHubSpotStub, type HubSpotStub } from '../helpers/crm-vendors.ts';

const TOKEN = 'pat-na1-cli-token-0123456789-QRST';
let dataDir: string;
let owner: Db;
let hs: HubSpotStub;
let clientId: string;
let listId: string;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-crm-cli-'));
  owner = await openDb({ dataDir });
  await migrate(owner);
  await insertWorld(owner, {
    companies: [0, 1].map((i) => ({ id: `co_${i}`, domain: `acme${i}.example`, name: `Acme ${i}`, country: 'DE' })),
  });
  clientId = (await createClient(owner, { name: 'crm cli', plan: 'full' })).clientId;
  listId = (await uploadList(owner, clientId, undefined, { name: 'Targets', rows: [{ domain: 'acme0.example' }, { domain: 'acme1.example' }] })).id;
  hs = await startHubSpotStub();
});
after(async () => {
  await hs.close();
  await owner.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process (it serves the stub and the data folder's socket). */
function cli(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'crm', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent', CRM_ALLOW_PRIVATE_NETWORK: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

test('connect, a dry run that prints the plan, a write, the log — through the process that owns the data folder', async () => {
  const connect = await cli(['connect', '--client', clientId, '--crm', 'hubspot', '--base-url', hs.url, '--token-file', '-'], `${TOKEN}\n`);
  assert.equal(connect.code, 0, connect.stderr);
  assert.match(connect.stderr, /working through the running server \(process \d+\)/);
  assert.match(connect.stdout, /hubspot at http:\/\/127\.0\.0\.1:\d+, token …QRST/);
  assert.ok(!connect.stdout.includes(TOKEN));

  const dry = await cli(['sync', '--client', clientId, '--list', listId, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /hubspot {2}dry run {2}done/);
  assert.match(dry.stdout, /^ {2}create {4}acme0\.example$/m);
  assert.match(dry.stdout, /^ {6}name: '' → 'Acme 0'$/m);
  assert.match(dry.stdout, /would: 2 create, 0 update, 0 unchanged, 0 skipped, 0 failed/);
  assert.equal(hs.companies.size, 0, 'the dry run wrote nothing');

  const real = await cli(['sync', '--client', clientId, '--list', listId]);
  assert.equal(real.code, 0, real.stderr);
  assert.match(real.stdout, /did: 2 create/);
  assert.deepEqual([...hs.companies.keys()].sort(), ['acme0.example', 'acme1.example']);
  assert.ok(hs.requests.every((r) => r.authorization === `Bearer ${TOKEN}`));
  assert.deepEqual(hs.violations, []);

  const log = await cli(['log', '--client', clientId]);
  assert.equal(log.code, 0, log.stderr);
  assert.match(log.stdout, /hubspot {2}write {2}done {2}\+2/);
  assert.match(log.stdout, /hubspot {2}dry run {2}done {2}\+2/);
  assert.match(log.stdout, /2 run\(s\)/);

  const [row] = await owner.query<{ token_sealed: string }>('SELECT token_sealed FROM crm_connections');
  assert.ok(!row!.token_sealed.includes(TOKEN) && row!.token_sealed.startsWith('v1.'));
});

test('bad input names the option; a client without the export permission is refused', async () => {
  const bad = await cli(['connect', '--client', clientId, '--crm', 'hubspot', '--base-url', 'ftp://x.example', '--token', TOKEN]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--base-url: must be an http\(s\) URL/);
  const basic = (await createClient(owner, { name: 'no export', plan: 'basic' })).clientId;
  const refused = await cli(['sync', '--client', basic, '--crm', 'hubspot', '--list', listId, '--dry-run']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /Permission 'export' is required/);
});
