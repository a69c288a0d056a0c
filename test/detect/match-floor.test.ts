// Where a pattern's matches can start: the floor never passes a match. A search from the floor
// finds the match a search from the start finds, for every pattern of the catalog on the fixture
// pages and on pages built around each pattern's own literal; the analysis of what a pattern
// reads before its literal is conservative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtInCatalog } from '../../src/detect/catalog.ts';
import { literalAnchor, matchFloor } from '../../src/detect/match-floor.ts';
import { compilePattern } from '../../src/detect/rules.ts';
import { scanPage } from '../../src/detect/page.ts';
import { toSiteArtifacts } from '../../src/detect/artifacts.ts';
import { readFixtures } from '../../src/eval/detect.ts';
import type { CompiledPattern } from '../../src/detect/rules.ts';

test('what a pattern reads before its literal: at most how many characters, and which characters never', () => {
  assert.deepEqual(literalAnchor('', 'abc'), { text: 'abc', maxLength: 0, stops: ['>', '<', '"', "'", '\n', ' '] });
  assert.deepEqual(literalAnchor('<img[^>]+', 'src='), { text: 'src=', maxLength: Infinity, stops: ['>'] });
  assert.deepEqual(literalAnchor('[^\\w$]', 'jquery'), { text: 'jquery', maxLength: 1, stops: [] });
  assert.deepEqual(literalAnchor('(?:https?:)?//[a-z0-9-]+\\.', 'cdn.'), { text: 'cdn.', maxLength: Infinity, stops: ['>', '<', '"', "'", '\n', ' '] });
  assert.deepEqual(literalAnchor('tap\\(\\s*[\'"]', 'create'), { text: 'create', maxLength: Infinity, stops: ['>', '<'] });
  assert.deepEqual(literalAnchor('x{2,5}', 'abc')?.maxLength, 5);
  // What it cannot read exactly counts as reading anything.
  assert.equal(literalAnchor('.*', 'abc'), null);
  assert.equal(literalAnchor('[^"]*\\W+', 'abc'), null);
  assert.equal(literalAnchor('\\x3e+', 'abc'), null);
  assert.equal(literalAnchor('[\\x00-\\x7f]+', 'abc'), null);
  assert.equal(literalAnchor('[[:punct:]]+', 'abc'), null);
  assert.equal(literalAnchor('(?s:.)+', 'abc'), null);
  // A range that covers a stop reads it; a negated class reads what it does not name.
  assert.deepEqual(literalAnchor('[!-/]+', 'abc')?.stops, ['>', '<', '\n', ' ']);
  assert.deepEqual(literalAnchor('[^<>]+', 'abc')?.stops, ['>', '<']);
  // A run that is not ASCII is not used (lower-casing may move it).
  assert.equal(literalAnchor('', 'café'), null);
});

test('the floor: after the last character the prefix cannot read, no further back than it reads, the end when an anchor is missing', () => {
  const anchor = literalAnchor('<img[^>]+', 'src="https://px/')!;
  const text = '<p>x</p><img alt="a" src="https://px/1">';
  assert.equal(matchFloor([anchor], text, text.toLowerCase()), text.indexOf('<img'));
  assert.equal(matchFloor([literalAnchor('[^\\w$]', 'jquery')!], 'var x = jQuery;', 'var x = jquery;'), 7);
  assert.equal(matchFloor([anchor], '<p>none</p>', '<p>none</p>'), '<p>none</p>'.length);
  // A character a case-insensitive match reads as a letter (ſ is s) keeps the search at the start.
  assert.equal(matchFloor([anchor], '<img ſrc="https://px/"> <img src="https://px/">', '<img ſrc="https://px/"> <img src="https://px/">'), 0);
});

/** Texts a pattern may be searched in: the fixture pages, and pages where its literal comes late, after near misses. */
function textsFor(p: CompiledPattern, pages: string[]): string[] {
  const lit = p.literal ?? '';
  const near = `<div class="x">${lit.slice(0, -1)}</div>\n<p> ${lit} </p>`;
  return [...pages, `${'<a href="/">home</a>\n'.repeat(50)}${near}${lit}>${lit}"`];
}

test('for every pattern of the catalog, a search from the floor finds what a search from the start finds', () => {
  const catalog = builtInCatalog();
  const sites = readFixtures().map((f) => toSiteArtifacts(f.artifact));
  const facts = sites.flatMap((s) => s.pages).flatMap((p) => (p.html ? [scanPage(p.html)] : []));
  const sets = {
    html: facts.map((f) => f.html),
    inlineScripts: facts.map((f) => f.inlineScript),
    resourceUrls: facts.flatMap((f) => f.resources.map((r) => r.url)),
    job: sites.flatMap((s) => s.jobs ?? []),
  };
  let searched = 0,
    moved = 0;
  for (const [field, texts] of Object.entries(sets)) {
    for (const p of catalog[field as keyof typeof sets].patterns) {
      if (p.anchors.length === 0) continue;
      for (const text of textsFor(p, texts)) {
        const lower = text.toLowerCase();
        if (p.literal && !lower.includes(p.literal)) continue;
        const floor = matchFloor(p.anchors, text, lower);
        const whole = p.re.exec(text);
        const fromFloor = floor <= text.length ? p.re.exec(text, floor) : null;
        assert.deepEqual(fromFloor && [...fromFloor, fromFloor.index], whole && [...whole, whole.index], `${p.ruleId} /${p.source}/ from ${floor}`);
        searched++;
        if (floor > 0) moved++;
      }
    }
  }
  assert.ok(moved > searched / 2, `${moved} of ${searched} searches start past the text's start`);
});

test("a text whose lower-casing changed its length (İ) is searched from the start: its positions are not the lower-cased copy's", () => {
  const p = compilePattern(0, 'Acme', 'job', '0', 'Acme Cloud');
  const text = 'İİİİ Acme Cloud';
  assert.equal(text.toLowerCase().length, text.length + 4);
  assert.equal(matchFloor(p.anchors, text, text.toLowerCase()), 0);
});

test('a job phrase (case-sensitive) is found from its floor as from the start', () => {
  const p = compilePattern(0, 'Acme', 'job', '0', '\\bAcme Cloud\\b');
  const text = 'We use acme cloud? No: we use Acme Cloud daily.';
  const m = p.re.exec(text, matchFloor(p.anchors, text, text.toLowerCase()));
  assert.equal(m?.index, text.indexOf('Acme Cloud'));
});
