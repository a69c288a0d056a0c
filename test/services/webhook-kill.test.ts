// kill -9 of the process delivering webhooks mid-delivery loses no event: the deliveries and
// their jobs were committed with the events; the jobs the dead process held expire and another
// instance delivers them. Duplicates (an attempt that reached the receiver before the kill)
// carry the same webhook-id. Both engines: on PGlite the killed process owned the data folder,
// and the next one opens it again after the crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp } from '../helpers/app.ts';
import { createTestDb, testJobsSchema, TEST_DATABASE_URL } from '../helpers/db.ts';
import { createTestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { intelligenceWorld } from '../intelligence/world.ts';
import { openDb, type Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createWebhook, listWebhookDeliveries } from '../../src/services/webhooks.ts';
import { testConfig } from '../helpers/app.ts';
import { insertNewsItem } from '../helpers/import-records.ts';

const EVENTS = 20;

test('kill -9 mid-delivery: every event is delivered afterwards, duplicates share their webhook-id', async () => {
  const received: string[] = [];
  let answering = false;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      if (answering) res.writeHead(200).end();
      // Before the kill: hold every request open, so the deliverer dies with jobs in hand.
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const env = { WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_RETRY_DELAY_SECONDS: '1' };

  // The database: a test schema on PostgreSQL, a data folder on PGlite (closed again, so the child can own it).
  const dataDir = TEST_DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'stacklens-kill-'));
  let db: Db = TEST_DATABASE_URL ? await createTestDb() : await openDb({ dataDir });
  if (dataDir) await migrate(db);
  const jobsSchema = testJobsSchema(db);
  const schema = TEST_DATABASE_URL ? (await db.query<{ s: string }>('SELECT current_schema() AS s'))[0]!.s : undefined;
  await insertWorld(db, intelligenceWorld());
  const client = await createTestClient(db, 'full');
  const config = testConfig({ ...env, ...(jobsSchema ? { JOBS_SCHEMA: jobsSchema } : {}) });
  const hook = await createWebhook(db, client.clientId, { url, eventTypes: ['feed.item'] }, config);
  const [company] = await db.query<{ id: string }>('SELECT id FROM companies ORDER BY id LIMIT 1');
  for (let i = 0; i < EVENTS; i++) await insertNewsItem(db, { id: `fd_kill_${i}`, companyId: company!.id, title: `fd_kill_${i}` });
  if (dataDir) await db.close();

  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/processes/webhook-deliverer.ts'], {
    env: {
      ...process.env,
      ...env,
      ...(jobsSchema ? { JOBS_SCHEMA: jobsSchema } : {}),
      ...(schema ? { DB_SCHEMA: schema } : {}),
      ...(dataDir ? { DATA_DIR: dataDir, DATABASE_URL: '' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  // Mid-delivery: some requests have reached the receiver (and hang there).
  const deadline = Date.now() + 60_000;
  while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(received.length >= 3, 'the child started delivering');
  child.kill('SIGKILL');
  await exited;
  receiver.closeAllConnections();

  answering = true;
  if (dataDir) db = await openDb({ dataDir });
  const next = await createTestApp({
    db,
    env: { ...env, ...(jobsSchema ? { JOBS_SCHEMA: jobsSchema } : {}) },
    webhookTuning: { pollingIntervalSeconds: 0.5, expireInSeconds: 3, maintenanceIntervalSeconds: 1 },
  });
  try {
    await next.app.webhooks.start();
    const end = Date.now() + 90_000;
    let delivered = 0;
    while (Date.now() < end) {
      delivered = (await listWebhookDeliveries(db, client.clientId, hook.id, { status: 'delivered', page: 0, size: 200 })).totalElements;
      if (delivered === EVENTS) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(delivered, EVENTS, 'every delivery ends delivered');
    const ids = (await db.query<{ id: string }>(`SELECT id FROM events WHERE type = 'feed.item'`)).map((r) => r.id);
    for (const id of ids) assert.ok(received.includes(id), `event ${id} reached the receiver`);
    assert.ok(received.length >= EVENTS, 'at least once');
    assert.deepEqual(new Set(received), new Set(ids), 'a duplicate is an event already sent: same webhook-id');
  } finally {
    await next.close();
    await db.close();
    receiver.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
});
