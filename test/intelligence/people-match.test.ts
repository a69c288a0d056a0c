// Title matching of the AI people helper: whole words or phrases, never a substring of a
// longer word; C-level acronyms also stand for their spelled-out form; vocabulary lookups by
// own keys only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsWords, expandTitles } from '../../src/intelligence/people-match.ts';
import { singular } from '../../src/intelligence/prompt/text.ts';

test('containsWords: whole words or phrases only', () => {
  assert.equal(containsWords('director', 'cto'), false);
  assert.equal(containsWords('sales director', 'director'), true);
  assert.equal(containsWords('deputy cto & co-founder', 'cto'), true);
  assert.equal(containsWords('chief technology officer', 'chief technology officer'), true);
  assert.equal(containsWords('chief  technology officer', 'chief technology officer'), true, 'any run of spaces');
  assert.equal(containsWords('vp of engineering', 'engineer'), false);
  assert.equal(containsWords('c++ developer', 'c++'), true, 'metacharacters are literal');
  assert.equal(containsWords('head of marketing', '.*'), false);
});

test('expandTitles: an acronym adds its spelled-out form; a prototype key is just a word', () => {
  assert.deepEqual(expandTitles(['CTO']), ['cto', 'chief technology officer']);
  assert.deepEqual(expandTitles(['CTOs']), ['ctos', 'cto', 'chief technology officer']);
  assert.deepEqual(expandTitles(['constructor', 'toString', '__proto__']), ['constructor', 'tostring', '__proto__']);
  assert.equal(singular('constructor'), 'constructor');
});
