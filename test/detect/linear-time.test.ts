// Matching is linear in the page whatever the rules: a page built to make a backtracking
// matcher quadratic on every rule of the catalog (each rule's literal, so the prefilter lets it
// run, then its leading text interleaved with runs of `<`) is detected in well under a second.
// With backtracking, one rule of the shape `<[^>]+literal` took 3 s on 64 K of `<`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtInCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import { adversarialHtml, adversarialInlineScript, PAGE_BYTES } from '../helpers/adversarial-page.ts';

const catalog = builtInCatalog();

/**
 * The time to detect a page, once the patterns it touches are compiled: the catalog's patterns
 * compile on first use (so a process starts in milliseconds), and on a page that touches all of
 * them that one-time cost (~1 s of 2,900 technologies on a loaded machine) would hide what is
 * measured here, the matching, which must stay in proportion to the page.
 */
function timeDetection(html: string): { ms: number; names: string[] } {
  detect({ domain: 'warm.example', pages: [{ url: 'https://warm.example/', html }] }, catalog);
  const started = performance.now();
  const found = detect({ domain: 'hostile.example', pages: [{ url: 'https://hostile.example/', html }] }, catalog);
  return { ms: performance.now() - started, names: found.map((d) => d.name) };
}

test("a 512 KiB page built from every html rule's own prefix is detected in under 1 s, a real trace on it still found", () => {
  const trace = '<form data-drupal-selector="x">';
  const html = trace + adversarialHtml(catalog, PAGE_BYTES - trace.length);
  assert.equal(html.length, PAGE_BYTES);
  for (const p of catalog.html.patterns) if (p.literal) assert.ok(html.toLowerCase().includes(p.literal), `${p.ruleId} runs on the page`);
  const { ms, names } = timeDetection(html);
  assert.ok(ms < 1000, `${Math.round(ms)} ms`);
  assert.ok(names.includes('Drupal'), names.join(', '));
});

test("a 512 KiB inline script built from every script rule's own prefix is detected in under 1 s", () => {
  const html = adversarialInlineScript(catalog);
  assert.equal(html.length, PAGE_BYTES);
  const { ms } = timeDetection(html);
  assert.ok(ms < 1000, `${Math.round(ms)} ms`);
});

test('the page a backtracking matcher took seconds on is still read right: a real trace after it is found', () => {
  const hostile = `data-reactroot>${'<'.repeat(64 * 1024)}`;
  const found = detect({ domain: 'x.example', pages: [{ url: 'https://x.example/', html: `${hostile}<div data-reactroot="">` }] }, catalog);
  assert.ok(
    found.some((d) => d.name === 'React' && d.evidence.some((e) => e.ruleId === 'React/html/0')),
    JSON.stringify(found.map((d) => d.name)),
  );
  const none = detect({ domain: 'x.example', pages: [{ url: 'https://x.example/', html: hostile }] }, catalog);
  assert.ok(!none.some((d) => d.name === 'React'));
});
