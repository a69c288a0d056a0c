import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateParser, formatEvalReport, generateEvalCases, VARIANTS } from '../../src/eval/parser.ts';
import { SAMPLE_CATALOG } from '../../src/intelligence/prompt/sample-catalog.ts';

test('the generator is deterministic and covers every mode and variant', () => {
  const a = generateEvalCases(SAMPLE_CATALOG, { count: 150, seed: 7 });
  const b = generateEvalCases(SAMPLE_CATALOG, { count: 150, seed: 7 });
  assert.deepEqual(a, b);
  assert.equal(a.length, 150);
  assert.deepEqual(new Set(a.map((c) => c.mode)), new Set(['customers', 'techstack', 'people']));
  for (const v of VARIANTS) assert.ok(a.filter((c) => c.variant === v).length >= 10, v);
  assert.notDeepEqual(generateEvalCases(SAMPLE_CATALOG, { count: 150, seed: 8 }), a);
  assert.ok(a.some((c) => c.variant === 'injection' && /ignore|disregard/i.test(c.prompt)));
});

test('parser accuracy on generated prompts with known intent is at least 0.95', () => {
  for (const seed of [7, 11]) {
    const cases = generateEvalCases(SAMPLE_CATALOG, { count: 200, seed });
    const report = evaluateParser(SAMPLE_CATALOG, cases);
    assert.ok(report.accuracy >= 0.95, formatEvalReport(report));
    for (const [mode, row] of Object.entries(report.byMode)) assert.ok(row.accuracy >= 0.9, `${mode}: ${formatEvalReport(report)}`);
  }
});

test('the scorer notices a wrong answer', () => {
  const cases = generateEvalCases(SAMPLE_CATALOG, { count: 20, seed: 3 });
  const report = evaluateParser(SAMPLE_CATALOG, cases, (c) => ({
    mode: c.mode,
    products: [],
    vendors: [],
    categories: [],
    industries: [],
    countries: [],
    employeeRanges: [],
    revenueRanges: [],
    timeWindow: null,
    titles: [],
    seniority: [],
    functions: [],
    companies: [],
    terms: [],
  }));
  assert.equal(report.correct, 0);
  assert.equal(report.failures.length, 20);
  assert.match(formatEvalReport(report), /Parser accuracy: 0\.0%/);
});
