// `stacklens plans set` changes only the fields it is given: the logic (setPlan) on the test
// database of either engine, and the real command on a PGlite data folder.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createTestDb } from '../helpers/db.ts';
import { setPlan } from '../../src/auth/clients.ts';
import { findPlan } from '../../src/store/access.ts';

const db = await createTestDb();
after(() => db.close());

test('setPlan: a new plan needs its rate limits; an existing one keeps every field it is not given', async () => {
  await assert.rejects(setPlan(db, 'team', { description: 'no limits given' }), /needs --rpm, --ai-rpm and --export-rpm/);
  const first = await setPlan(db, 'team', {
    description: 'For teams',
    canExport: true,
    canAi: true,
    initialCredits: 50,
    requestsPerMinute: 100,
    aiRequestsPerMinute: 10,
    exportRequestsPerMinute: 2,
  });
  assert.equal(first.created, true);
  const second = await setPlan(db, 'team', { requestsPerMinute: 300, canAi: false });
  assert.equal(second.created, false);
  assert.deepEqual(await findPlan(db, 'team'), {
    id: 'team',
    description: 'For teams',
    canExport: true,
    canAi: false,
    canPurchase: false,
    initialCredits: 50,
    requestsPerMinute: 300,
    aiRequestsPerMinute: 10,
    exportRequestsPerMinute: 2,
    maxMonitors: 10,
    maxWebhooks: 2,
    eventsPerDay: 10_000,
    enrichRowsPerDay: 10_000,
    maxListRows: 10_000,
    facetsPerDay: 1000,
    detectionsPerDay: 100,
  });
  await assert.rejects(setPlan(db, 'team', { requestsPerMinute: 0 }), /rpm: must be a whole number/);
  // The watch limits: 0 is allowed (none), a negative or fractional number is a 400 naming the field.
  const watch = await setPlan(db, 'team', { maxMonitors: 0, maxWebhooks: 5, eventsPerDay: 250 });
  assert.deepEqual([watch.plan.maxMonitors, watch.plan.maxWebhooks, watch.plan.eventsPerDay, watch.plan.requestsPerMinute], [0, 5, 250, 300]);
  await assert.rejects(setPlan(db, 'team', { maxMonitors: -1 }), /max-monitors: must be a whole number ≥ 0/);
  await assert.rejects(setPlan(db, 'team', { eventsPerDay: 1.5 }), /events-per-day: must be a whole number ≥ 0/);
  await assert.rejects(setPlan(db, 'team', { enrichRowsPerDay: -1 }), /enrich-rows-per-day: must be a whole number ≥ 0/);
  await assert.rejects(setPlan(db, 'team', { maxWebhooks: 2 ** 31 }), /max-webhooks: must be a whole number ≥ 0 \(at most 2147483647\)/);
});

test('the command: `plans set` with one option leaves the description and the rest as they were', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-plans-'));
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'plans', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    return r.stdout;
  };
  try {
    assert.match(
      run('set', 'team', '--description', 'For teams', '--export', '--rpm', '100', '--ai-rpm', '10', '--export-rpm', '2', '--credits', '50'),
      /Plan team created/,
    );
    assert.match(run('set', 'team', '--rpm', '300', '--no-export'), /Plan team updated/);
    assert.match(
      run(
        'set',
        'team',
        '--max-monitors',
        '3',
        '--max-webhooks',
        '0',
        '--events-per-day',
        '500',
        '--enrich-rows-per-day',
        '40',
        '--facets-per-day',
        '7',
        '--detections-per-day',
        '3',
      ),
      /Plan team updated/,
    );
    assert.match(run('list'), /team .* monitors=3 webhooks=0 events\/day=500 enrich-rows\/day=40 .*facets\/day=7 detections\/day=3/);
    const plan = (JSON.parse(run('list', '--json')) as { id: string }[]).find((p) => p.id === 'team');
    assert.deepEqual(plan, {
      id: 'team',
      description: 'For teams',
      canExport: false,
      canAi: false,
      canPurchase: false,
      initialCredits: 50,
      requestsPerMinute: 300,
      aiRequestsPerMinute: 10,
      exportRequestsPerMinute: 2,
      maxMonitors: 3,
      maxWebhooks: 0,
      eventsPerDay: 500,
      enrichRowsPerDay: 40,
      maxListRows: 10_000,
      facetsPerDay: 7,
      detectionsPerDay: 3,
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
