// `stacklens eval lists` on a small generated world: matching a noisy list made from its
// companies meets the goals (precision ≥ 0.97, recall ≥ 0.92).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { LIST_MATCH_GOALS, evaluateListMatching, formatListsEval, type ListsEvalReport } from '../../src/eval/lists.ts';

let db: Db;
let report: ListsEvalReport;
before(async () => {
  db = await createTestDb();
  await seedWorld(db, { companies: 600, seed: 'lists-eval-test', asOf: '2026-11-01' });
  report = await evaluateListMatching(db, { companies: 600 });
  console.log(formatListsEval(report));
});
after(() => db.close());

test('matching a noisy list meets the goals', () => {
  assert.ok(report.real >= 500, JSON.stringify(report));
  assert.ok(report.precision >= LIST_MATCH_GOALS.precision, `precision ${report.precision}`);
  assert.ok(report.recall >= LIST_MATCH_GOALS.recall, `recall ${report.recall}`);
  assert.equal(report.byKind.made_up!.correct + report.byKind.made_up!.wrong, 0, 'made-up accounts match nothing');
});
