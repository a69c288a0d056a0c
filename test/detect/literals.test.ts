// The prefilter's automaton finds exactly the literals a text holds: every one, however they
// overlap or nest (one the prefix or suffix of another, one inside another), and no other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiteralMatcher } from '../../src/detect/literals.ts';

const naive = (literals: string[], text: string) =>
  literals
    .map((l, i) => (text.includes(l) ? i : -1))
    .filter((i) => i >= 0)
    .sort((a, b) => a - b);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

test('overlapping and nested literals are all found, each once', () => {
  const literals = ['he', 'she', 'his', 'hers', 'ushers', 'cdn.example.com/', 'cdn.example.com/widget.js', 'example', 'é-café'];
  const m = new LiteralMatcher(literals);
  for (const text of [
    'ushers',
    'she sells',
    'https://cdn.example.com/widget.js?v=1',
    'https://cdn.example.com/other.js',
    'un é-café',
    'nothing here',
    '',
    'hehehe',
  ])
    assert.deepEqual(sorted(m.found(text)), naive(literals, text), text);
});

test('the same matcher answers each text on its own (nothing found in one text is reported for the next)', () => {
  const m = new LiteralMatcher(['alpha', 'beta']);
  assert.deepEqual(m.found('alpha'), [0]);
  assert.deepEqual(m.found('beta'), [1]);
  assert.deepEqual(m.found('gamma'), []);
});

test('on random texts over a small alphabet it agrees with a search for each literal', () => {
  let seed = 1;
  const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const word = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[rand(alphabet.length)]).join('');
  for (let round = 0; round < 200; round++) {
    const literals = [...new Set(Array.from({ length: 1 + rand(12) }, () => word('abc<>', 1 + rand(5))))];
    const m = new LiteralMatcher(literals);
    for (let k = 0; k < 5; k++) {
      const text = word('abc<>\u00e9', rand(60));
      assert.deepEqual(sorted(m.found(text)), naive(literals, text), `${JSON.stringify(literals)} in ${JSON.stringify(text)}`);
    }
  }
});
