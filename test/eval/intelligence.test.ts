// `stacklens eval` on a small generated world: every figure is in range, a world without
// hidden truth is refused with a clear error, and the printout names the figures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import type { Db } from '../../src/db/db.ts';
import { seedWorld } from '../../src/ingest/seed/index.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { evaluateIntelligence, NoTruthError, type IntelligenceEvalReport } from '../../src/eval/intelligence.ts';
import { formatIntelligenceEval } from '../../src/cli/eval.ts';

let db: Db;
let report: IntelligenceEvalReport;
before(async () => {
  db = await createTestDb();
  await assert.rejects(evaluateIntelligence(db), NoTruthError);
  await seedWorld(db, { companies: 200, seed: 'intelligence-eval-test', asOf: '2026-01-01' });
  await refreshAll(db);
  report = await evaluateIntelligence(db, { fit: true, relatedSample: 30 });
});
after(() => db.close());

test('figures are in range and count what they measured', () => {
  const unit = (x: number) => x >= 0 && x <= 1;
  assert.equal(report.companies, 200);
  assert.ok(report.segments > 1);
  for (const x of [
    report.purity.mean,
    report.purity.randomBaseline,
    report.competitorPrecision.mean,
    report.calibration.ece,
    report.calibration.accuracy,
    report.related.precisionAt5,
  ]) {
    assert.ok(unit(x), String(x));
  }
  // Peers chosen by similarity beat peers chosen at random on the world's hidden segments.
  assert.ok(report.purity.mean > report.purity.randomBaseline);
  assert.ok(report.calibration.installs > 0 && report.purity.companies > 0);
  assert.equal(
    report.calibration.table.reduce((s, b) => s + b.count, 0),
    report.calibration.installs,
  );
  assert.ok(report.fitted && report.fitted.coefficients.length > 0);
});

test('the printout names every figure and the fitted coefficients', () => {
  const text = formatIntelligenceEval(report);
  for (const label of ['cohort purity', 'competitor precision', 'products in use: ECE', 'related: top-5', 'Reliability', 'Fitted coefficients']) {
    assert.ok(text.includes(label), label);
  }
  assert.match(text, /^Demo world: 200 companies in \d+ hidden segments\.\n\n/);
});
