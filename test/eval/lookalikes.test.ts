// `stacklens eval lookalikes` on a small generated world: the figures are in range, beat a
// random ranking by far, and the printout names them; a world without hidden truth is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { NoTruthError } from '../../src/eval/intelligence.ts';
import { evaluateLookalikes, formatLookalikesEval, type LookalikesEvalReport } from '../../src/eval/lookalikes.ts';

let db: Db;
let report: LookalikesEvalReport;
before(async () => {
  db = await createTestDb();
  await assert.rejects(evaluateLookalikes(db), NoTruthError);
  await seedWorld(db, { companies: 400, seed: 'lookalikes-eval-test', asOf: '2026-01-01' });
  await refreshAll(db);
  // Segments of a world this small hold 5-11 companies: 3 seeds each, the rest held out.
  report = await evaluateLookalikes(db, { seeds: 3, minSegmentSize: 8, trialsPerSegment: 2 });
});
after(() => db.close());

test('figures are in range and beat a random ranking', () => {
  assert.ok(report.segments > 0 && report.trials === report.segments * 2);
  for (const x of [report.precisionAt50, report.recallAt200, report.randomPrecision]) assert.ok(x >= 0 && x <= 1, String(x));
  assert.ok(report.precisionAt50 > 3 * report.randomPrecision, JSON.stringify(report));
  assert.ok(report.recallAt200 > 0.5, JSON.stringify(report));
});

test('the printout names every figure and its goal', () => {
  const text = formatLookalikesEval(report);
  for (const label of ['precision@50', 'recall@200', '>= 0.85', '>= 0.6', 'random-ranking baseline']) assert.ok(text.includes(label), label);
});
