// `stacklens eval changes` on a small world whose every company has a visited past: the
// technology events and adoption trends meet the goals against the hidden truth.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { CHANGE_GOALS, evaluateChanges, type ChangesEvalReport } from '../../src/eval/changes.ts';
import { NoTruthError } from '../../src/eval/intelligence.ts';
import { formatChangesEval } from '../../src/cli/eval.ts';

let db: Db;
let report: ChangesEvalReport;
before(async () => {
  db = await createTestDb();
  await assert.rejects(evaluateChanges(db), NoTruthError);
  await seedWorld(db, { companies: 400, seed: 'changes-eval-test', asOf: '2026-11-01', historyShare: 1 });
  report = await evaluateChanges(db);
  console.log(formatChangesEval(report));
});
after(() => db.close());

test('adoptions and drops: precision and recall against the truth of changes', () => {
  assert.equal(report.companies, 400);
  assert.ok(report.adopted.truth > 100 && report.dropped.truth > 30, JSON.stringify(report));
  assert.ok(report.adopted.precision >= CHANGE_GOALS.precision, `adopted precision ${report.adopted.precision}`);
  assert.ok(report.dropped.precision >= CHANGE_GOALS.precision, `dropped precision ${report.dropped.precision}`);
  assert.ok(report.adopted.recall >= CHANGE_GOALS.recall, `adopted recall ${report.adopted.recall}`);
  assert.ok(report.dropped.recall >= CHANGE_GOALS.recall, `dropped recall ${report.dropped.recall}`);
});

test('events are dated within one visit interval of the true date', () => {
  assert.ok(report.timing.paired > 100);
  assert.ok(report.timing.share >= CHANGE_GOALS.timing, `timing ${report.timing.share}`);
});

test('failed visits never make a drop: none in the world, none with one visit in ten more failed', () => {
  assert.ok(report.failedShare >= 0.03 && report.failedShare <= 0.12, `failed share ${report.failedShare}`);
  assert.equal(report.falseDrops.seeded, 0);
  assert.ok(report.falseDrops.injectedDrops > 0);
  assert.equal(report.falseDrops.injected, CHANGE_GOALS.falseDrops);
});

test('monthly adoption counts are within 5 % of the true counts', () => {
  assert.ok(report.trends.months >= 18 && report.trends.products >= 10, JSON.stringify(report.trends));
  assert.ok(report.trends.maxError <= CHANGE_GOALS.trendError, `trend error ${report.trends.maxError}`);
});
