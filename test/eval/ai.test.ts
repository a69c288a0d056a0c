// `stacklens eval ai` end to end on a small generated world: the held-out evidence is really
// gone, every figure is in range, the parser goal holds, and the printout names the figures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { evaluateAi, type AiEvalReport } from '../../src/eval/ai.ts';
import { formatAiEval } from '../../src/cli/eval.ts';

let db: Db;
let report: AiEvalReport;
before(async () => {
  db = await createTestDb();
  report = await evaluateAi(db, {
    seed: 'ai-eval-test',
    companies: 250,
    stackSample: 40,
    productSample: 8,
    peoplePrompts: 40,
    parserPrompts: 120,
    fit: true,
    asOf: '2026-01-01',
  });
});
after(() => db.close());

test('held-out installs are removed from the evidence but stay in the truth', async () => {
  assert.ok(report.world.hiddenInstalls > 0);
  // Tools in use the detector never saw have no install either (and no observation): the held-out
  // ones are those in use, observed, and without an install.
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM truth_installs t WHERE t.in_use AND NOT EXISTS (SELECT 1 FROM installs i WHERE i.company_id = t.company_id AND i.product_id = t.product_id)
        AND EXISTS (SELECT 1 FROM observations o WHERE o.company_id = t.company_id AND o.product_id = t.product_id)`,
  );
  assert.equal(row!.n, report.world.hiddenInstalls);
});

test('figures are in range; parser accuracy meets its goal; fitted models are reported', () => {
  const unit = (x: number) => x >= 0 && x <= 1;
  const t = report.techStack,
    c = report.customers;
  for (const x of [
    t.precisionAt10,
    t.recallAt20,
    t.inferred.ece,
    t.observed.ece,
    c.precisionAt10Inferred,
    c.precisionAt10Answer,
    report.people.precisionAt10,
    report.overall.ece,
  ])
    assert.ok(unit(x), String(x));
  assert.ok(t.inferred.n > 0 && t.observed.n > 0 && report.people.answered > 0);
  assert.ok(report.parser.total >= 100);
  assert.ok(report.parser.accuracy >= 0.95, `parser accuracy ${report.parser.accuracy}`);
  assert.equal(report.fitted!.inference.length, 9);
  assert.equal(report.fitted!.people.length, 8);
  const text = formatAiEval(report);
  for (const label of ['precision@10', 'recall@20', 'ECE', 'parser: accuracy', 'Reliability']) assert.ok(text.includes(label), label);
});
