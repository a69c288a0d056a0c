// The labelled real pages (test/fixtures/real-pages): the set's integrity — 300+ pages, each with a
// manifest row naming its source, commit and licence, its file intact, every label a catalog
// technology with the evidence that justifies it — and that `eval detect` scores the detector on it.
// No figure of the detector's is held here: the measurement is printed, not asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync, gunzipSync } from 'node:zlib';
import { builtInCatalog } from '../../src/detect/catalog.ts';
import { evaluateRealPages, readRealPageSet, REAL_PAGES_DIR, type PageLabels } from '../../src/eval/detect-real.ts';
import { EVIDENCE_SOURCES } from '../../src/technographics/evidence.ts';

const set = readRealPageSet();
const catalog = builtInCatalog();

test('the real-page set: 300+ pages, one manifest row each with source, commit and licence, the files intact', () => {
  assert.ok(set.manifest.length >= 300, `${set.manifest.length} pages`);
  const ids = new Set(set.manifest.map((m) => m.id));
  assert.equal(ids.size, set.manifest.length, 'page ids are unique');
  assert.deepEqual(set.labels.map((l) => l.id).sort(), [...ids].sort(), 'every page is labelled, every label has a manifest row');
  for (const m of set.manifest) {
    assert.match(m.source, /^(?:mozilla\/readability|postlight\/parser)$/, m.id);
    assert.match(m.commit, /^[0-9a-f]{40}$/, m.id);
    assert.ok(m.path && m.licence, m.id);
    assert.ok(m.licenceFiles.length > 0, m.id);
    for (const f of m.licenceFiles) assert.ok(existsSync(new URL(f, REAL_PAGES_DIR)), `${m.id}: ${f}`);
    const html = gunzipSync(readFileSync(new URL(m.file, REAL_PAGES_DIR)));
    assert.equal(createHash('sha256').update(html).digest('hex'), m.sha256, `${m.id}: the page is the one imported`);
  }
  assert.ok(existsSync(new URL('README.md', REAL_PAGES_DIR)), 'the labelling rules are written down');
});

test('every label names a catalog technology; each positive carries the evidence that justifies it', () => {
  const sources = new Set<string>(EVIDENCE_SOURCES);
  let positives = 0;
  for (const page of set.labels) {
    for (const [name, t] of Object.entries(page.truth)) {
      positives++;
      assert.ok(catalog.byName.has(name), `${page.id}: '${name}' is not in the catalog`);
      assert.ok(t.evidence.trim().length > 0, `${page.id}: ${name} has no evidence`);
      assert.ok(t.sources.length > 0 && t.sources.every((s) => sources.has(s)), `${page.id}: ${name} sources ${t.sources}`);
      assert.ok(!(name in page.negatives) && !(name in page.unsure), `${page.id}: ${name} is both used and not`);
    }
    for (const name of [...Object.keys(page.negatives), ...Object.keys(page.unsure)])
      assert.ok(catalog.byName.has(name), `${page.id}: '${name}' is not in the catalog`);
  }
  assert.ok(positives >= 600, `${positives} positive labels`);
  assert.ok(set.labels.reduce((n, l) => n + Object.keys(l.negatives).length, 0) >= 100, 'hard negatives were recorded');
});

test('eval detect scores the detector on every real page and every label', () => {
  const report = evaluateRealPages(catalog);
  assert.equal(report.sites, set.labels.length);
  const positives = set.labels.reduce((n, l) => n + Object.keys(l.truth).length, 0);
  assert.equal(report.micro.tp + report.micro.fn, positives);
  assert.equal(
    report.hardNegatives.planted,
    set.labels.reduce((n, l) => n + Object.keys(l.negatives).length, 0),
  );
  for (const x of [report.micro.precision, report.micro.recall, report.micro.f1]) assert.ok(x >= 0 && x <= 1);
});

test('the real-page scorer: a miss per unfound label, a false positive per unlabelled detection, unsure and implied-only detections not scored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'realpages-test-'));
  try {
    mkdirSync(join(dir, 'pages'));
    const html = `<html><head><script src="https://www.googletagmanager.com/gtm.js?id=GTM-ABC123"></script>
<script src="https://cdn.example-bucket.s3.amazonaws.com/app.js"></script><meta name="generator" content="WordPress 6.4"></head>
<body><p>We write about Shopify.</p></body></html>`;
    writeFileSync(join(dir, 'pages', 'one.html.gz'), gzipSync(html));
    const row = {
      id: 'one',
      source: 'test',
      path: 'one.html',
      commit: '0'.repeat(40),
      licence: 'Apache-2.0',
      licenceFiles: [],
      file: 'pages/one.html.gz',
      url: 'https://shop.example/',
      domain: 'shop.example',
    };
    writeFileSync(join(dir, 'manifest.jsonl'), JSON.stringify(row) + '\n');
    const labels = (truth: PageLabels['truth'], unsure: Record<string, string>) =>
      writeFileSync(
        join(dir, 'labels.jsonl'),
        JSON.stringify({ id: 'one', truth, negatives: { Shopify: { evidence: 'We write about Shopify', context: 'text' } }, unsure }) + '\n',
      );
    const url = pathToFileURL(dir + '/');
    const used = (name: string) => ({ [name]: { sources: ['script' as const], evidence: name, context: 'script-src' } });

    // WordPress implies PHP: an implied-only PHP is not scored; S3 marked unsure is not either
    labels({ ...used('Google Tag Manager'), ...used('WordPress'), ...used('Stripe') }, { 'Amazon S3': 'a bucket of unknown owner' });
    const a = evaluateRealPages(catalog, url);
    assert.equal(a.micro.tp, 2);
    assert.equal(a.micro.fn, 1, 'Stripe is labelled and not found');
    assert.equal(a.micro.fp, 0);
    assert.equal(a.notScored.unsure, 1);
    assert.ok(a.notScored.implied >= 1);
    assert.deepEqual(a.hardNegatives.detected, []);
    assert.equal(a.hardNegatives.planted, 1);

    // without the unsure mark, the S3 detection is a false positive
    labels({ ...used('Google Tag Manager'), ...used('WordPress') }, {});
    const b = evaluateRealPages(catalog, url);
    assert.equal(b.micro.fp, 1);
    assert.equal(b.errors.find((e) => e.kind === 'fp')?.name, 'Amazon S3');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
