// Clients, plans and credits (services), the demo client written on first start, and the
// CLI end to end (`clients create --json`, `keys create --json`, `credits grant --client --amount`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { createClient, definePlan, listPlans, rotateClientSecret } from '../../src/auth/clients.ts';
import { ensureDemoWorld } from '../../src/ingest/demo.ts';
import { demoCredentialsLine } from '../../src/auth/demo-client.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openDb } from '../../src/db/db.ts';

const run = promisify(execFile);
let t: TestApp;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-auth-'));
before(async () => {
  t = await createTestApp();
});
after(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const tokenFor = (clientId: string, clientSecret: string) =>
  t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: 'http://stacklens.test' },
  });

test('plans basic and full exist out of the box, as data; operators add their own', async () => {
  const plans = await listPlans(t.db);
  const byId = Object.fromEntries(plans.map((p) => [p.id, p]));
  assert.deepEqual([byId.basic!.canExport, byId.basic!.canAi, byId.basic!.canPurchase], [false, false, false]);
  assert.deepEqual([byId.full!.canExport, byId.full!.canAi, byId.full!.canPurchase], [true, true, true]);
  for (const p of [byId.basic!, byId.full!]) {
    assert.ok(p.aiRequestsPerMinute < p.requestsPerMinute && p.exportRequestsPerMinute < p.requestsPerMinute, 'AI and export limits are lower');
  }
  await definePlan(t.db, {
    id: 'analyst',
    description: 'exports, no AI',
    canExport: true,
    canAi: false,
    canPurchase: false,
    initialCredits: 5,
    requestsPerMinute: 100,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 10,
    maxMonitors: 3,
    maxWebhooks: 1,
    eventsPerDay: 500,
    enrichRowsPerDay: 500,
    maxListRows: 10_000,
    facetsPerDay: 1000,
    detectionsPerDay: 100,
  });
  const c = await createClient(t.db, { name: 'analyst-co', plan: 'analyst' });
  assert.equal(c.credits, 5);
  const key = await createApiKey(t.db, c.clientId);
  const me = (await t.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-api-key': key.apiKey } })).json();
  assert.deepEqual(me.permissions, { export: true, ai: false, purchase: false });
  assert.deepEqual(me.rateLimits, { requestsPerMinute: 100, aiRequestsPerMinute: 1, exportRequestsPerMinute: 10 });
  await assert.rejects(definePlan(t.db, { ...byId.basic!, id: 'Bad Id' }), /id:/);
  await assert.rejects(createClient(t.db, { name: 'x', plan: 'nope' }), /no plan named 'nope'/);
});

test('rotate-secret: the new secret gets tokens, the old one no longer does', async () => {
  const c = await createClient(t.db, { name: 'rot', plan: 'basic' });
  assert.equal((await tokenFor(c.clientId, c.clientSecret)).statusCode, 200);
  const r = await rotateClientSecret(t.db, c.clientId);
  assert.notEqual(r.clientSecret, c.clientSecret);
  assert.equal((await tokenFor(c.clientId, c.clientSecret)).statusCode, 401);
  assert.equal((await tokenFor(c.clientId, r.clientSecret)).statusCode, 200);
  await assert.rejects(rotateClientSecret(t.db, 'cli_nobody'), /no client/);
});

test('demo world first start: a full demo client and key, printed and written to DATA_DIR/demo-client.json (mode 600), once', async () => {
  const dataDir = path.join(tmp, 'demo');
  const config = testConfig({ SEED_DEMO: 'true', DEMO_COMPANIES: '10', DATA_DIR: dataDir });
  const said: string[] = [];
  await ensureDemoWorld(t.db, config, (line) => said.push(line));
  const file = path.join(dataDir, 'demo-client.json');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const demo = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(Object.keys(demo).sort(), ['api_key', 'audience', 'base_url', 'client_id', 'client_secret', 'mcp_resource', 'mcp_url', 'token_url']);
  assert.equal(demo.audience, 'http://stacklens.test');
  assert.equal(demo.token_url, 'http://stacklens.test/oauth/token');
  assert.equal(demo.base_url, 'http://stacklens.test/api');
  assert.equal(demo.mcp_url, 'http://stacklens.test/mcp');
  assert.equal(demo.mcp_resource, 'http://stacklens.test/mcp');
  assert.ok(
    said.some((l) => l.includes(demo.api_key)),
    'the key is printed',
  );
  const viaKey = await t.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-api-key': demo.api_key } });
  assert.equal(viaKey.json().plan, 'full');
  assert.equal((await tokenFor(demo.client_id, demo.client_secret)).statusCode, 200);
  // A restart finds the world seeded and mints nothing new.
  await ensureDemoWorld(t.db, config, () => {});
  const demos = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_clients WHERE name = 'demo'`);
  assert.equal(demos[0]!.n, 1);
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).client_id, demo.client_id);
});

test('CLI: clients create --json, keys create --json, credits grant (embedded database)', async () => {
  const dataDir = path.join(tmp, 'cli');
  const env = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://cli.test' } as Record<string, string>;
  delete env.DATABASE_URL;
  const cli = async (...args: string[]) => (await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { env })).stdout;
  const created = JSON.parse(await cli('clients', 'create', '--name', 'Acme', '--plan', 'basic', '--credits', '7', '--json'));
  assert.match(created.client_id, /^cli_/);
  assert.equal(created.client_secret.length, 43);
  assert.equal(created.plan, 'basic');
  assert.equal(created.credits, 7);
  assert.equal(created.token_url, 'http://cli.test/oauth/token');
  const key = JSON.parse(await cli('keys', 'create', '--client', created.client_id, '--json'));
  assert.match(key.api_key, /^sl_/);
  const granted = JSON.parse(await cli('credits', 'grant', '--client', created.client_id, '--amount', '5', '--reason', 'welcome', '--json'));
  assert.deepEqual(granted, { client_id: created.client_id, amount: 5, balance: 12 });
  const db = await openDb({ dataDir });
  try {
    const [row] = await db.query<{ plan_id: string; credits: number }>('SELECT plan_id, credits FROM api_clients WHERE id = $1', [created.client_id]);
    assert.deepEqual(row, { plan_id: 'basic', credits: 12 });
    const [k] = await db.query<{ client_id: string }>('SELECT client_id FROM api_keys WHERE id = $1', [key.id]);
    assert.equal(k!.client_id, created.client_id);
  } finally {
    await db.close();
  }
});

test("start-up line: a restored database's demo client is named with how to renew its credentials, not reported missing", async () => {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'restored-'));
  // What a restore brings: the demo client in the database, no demo-client.json in the new folder.
  const demo = await createClient(t.db, { name: 'demo', plan: 'full' });
  const restored = await demoCredentialsLine(t.db, dataDir);
  assert.doesNotMatch(restored, /no demo client/);
  assert.match(restored, /demo client cli_[\w-]+ \(plan full\) exists, but .*demo-client\.json is missing/);
  assert.match(restored, /stacklens clients rotate-secret cli_[\w-]+, stacklens keys create --client cli_[\w-]+/);
  // A file of another database's client is not taken for this one's.
  fs.writeFileSync(path.join(dataDir, 'demo-client.json'), JSON.stringify({ client_id: 'cli_elsewhere' }));
  assert.match(await demoCredentialsLine(t.db, dataDir), /demo-client\.json names another client/);
  fs.writeFileSync(path.join(dataDir, 'demo-client.json'), JSON.stringify({ client_id: demo.clientId }));
  assert.equal(await demoCredentialsLine(t.db, dataDir), `Credentials: the demo client (plan full) is in ${path.join(dataDir, 'demo-client.json')}`);
});
