import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeCountry } from '../src/countries.ts';

test('normalizeCountry: codes, names, aliases and deprecated codes', () => {
  const cases: [string, string | null][] = [
    ['de', 'DE'],
    [' DE ', 'DE'],
    ['Germany', 'DE'],
    ['germany', 'DE'],
    ['United States', 'US'],
    ['USA', 'US'],
    ['UK', 'GB'],
    ['United Kingdom', 'GB'],
    ['Côte d’Ivoire', 'CI'],
    ['Myanmar', 'MM'],
    ['Burma', 'MM'],
    ['Hong Kong', 'HK'],
    ['South Korea', 'KR'],
    ['xx', null],
    ['ZZ', null],
    ['EU', null],
    ['Atlantis', null],
    ['', null],
    ['Deutschland', null],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeCountry(input), expected, input);
});
