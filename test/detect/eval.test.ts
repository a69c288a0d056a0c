// The measurement on the labelled fixtures: the detector's goals (micro precision >= 0.95,
// recall >= 0.90, no hard negative detected), the fixture set's size and make-up, and that the
// committed file is what the generator writes (no hand edits to fit the rules).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileCatalog, loadCatalog, readBuiltInRules } from '../../src/detect/catalog.ts';
import { evaluateDetector, FIXTURES_FILE, formatDetectEval, GOALS, readFixtures } from '../../src/eval/detect.ts';
import { generateFixtures } from '../fixtures/detect/generate.ts';

const fixtures = readFixtures();

test('the fixture set: 150+ sites, hard negatives of every class, the committed file equals the generator output', () => {
  assert.ok(fixtures.length >= 150, `${fixtures.length} fixtures`);
  assert.ok(fixtures.filter((f) => f.kind === 'negatives-only').length >= 20);
  assert.ok(fixtures.reduce((n, f) => n + f.negatives.length, 0) >= 300);
  const html = fixtures.map((f) => f.artifact.html ?? '').join('\n');
  for (const marker of ['<!-- <script', 'rel="dns-prefetch"', 'rel="preconnect"', 'partner-logo', 'Content-Security-Policy', '<pre><code', 'moved from'])
    assert.ok(html.includes(marker), marker);
  assert.ok(fixtures.some((f) => f.artifact.headers?.['content-security-policy']));
  assert.ok(fixtures.some((f) => f.artifact.jobs?.length));
  const committed = readFileSync(FIXTURES_FILE, 'utf8');
  assert.equal(
    committed,
    generateFixtures()
      .map((f) => JSON.stringify(f))
      .join('\n') + '\n',
    'regenerate with: node --import tsx test/fixtures/detect/generate.ts',
  );
});

test('eval detect meets the goals on the fixtures: micro P >= 0.95, R >= 0.90, zero hard negatives detected', () => {
  const report = evaluateDetector(fixtures, loadCatalog());
  const text = formatDetectEval(report, { errors: true });
  assert.ok(report.micro.precision >= GOALS.precision, text);
  assert.ok(report.micro.recall >= GOALS.recall, text);
  assert.deepEqual(report.hardNegatives.detected, [], text);
  assert.ok(report.perTechnology.length >= 100, `${report.perTechnology.length} technologies covered`);
  for (const source of ['html', 'script', 'meta', 'header', 'cookie', 'dns', 'job'] as const) assert.ok(report.perSource[source].tp > 20, source);
});

test('the scorer notices errors: a rule that fires everywhere is a false positive per site, a rule that never fires a miss per truth', () => {
  const rules = readBuiltInRules();
  rules['Noisy Widget'] = { cats: ['Live Chat'], html: '<p>' };
  rules.Stripe = { ...rules.Stripe!, scriptSrc: 'never-matches-anything\\.example', scripts: undefined, dns: undefined, cookies: undefined, job: undefined };
  const sample = fixtures.filter((f) => f.kind !== 'negatives-only').slice(0, 30);
  const report = evaluateDetector(sample, compileCatalog(rules));
  const noisy = report.perTechnology.find((t) => t.name === 'Noisy Widget')!;
  assert.equal(noisy.fp, sample.length);
  const stripe = report.perTechnology.find((t) => t.name === 'Stripe');
  const stripeTruth = sample.filter((f) => 'Stripe' in f.truth).length;
  if (stripeTruth) assert.equal(stripe!.fn, stripeTruth);
  assert.ok(report.micro.precision < 1);
});
