import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EMPLOYEE_BAND_LABELS,
  EMPLOYEE_BANDS,
  REVENUE_BAND_LABELS,
  REVENUE_BANDS,
  employeeBandFor,
  inBand,
  revenueBand,
  revenueBandFor,
} from '../src/bands.ts';

test('band labels are exactly those of the enumerations, in order', () => {
  assert.deepEqual(EMPLOYEE_BAND_LABELS, ['Less than 10', '10 - 49', '50 - 199', '200 - 499', '500 - 999', '1,000 - 4,999', '5,000 - 9,999', 'Above 10,000']);
  assert.deepEqual(REVENUE_BAND_LABELS, [
    'Less than 1M',
    '1M - 2M',
    '2M - 5M',
    '5M - 10M',
    '10M - 50M',
    '50M - 100M',
    '100M - 500M',
    '500M - 1B',
    'More than 1B',
  ]);
});

test('bands tile the number line without gaps or overlaps', () => {
  for (const list of [EMPLOYEE_BANDS, REVENUE_BANDS]) {
    assert.equal(list[0]!.min, 0);
    for (let i = 1; i < list.length; i++) assert.equal(list[i]!.min, list[i - 1]!.max);
    assert.equal(list.at(-1)!.max, Infinity);
    list.forEach((b, i) => assert.equal(b.rank, i));
  }
});

test('a value maps to the band that contains it', () => {
  assert.equal(employeeBandFor(0).label, 'Less than 10');
  assert.equal(employeeBandFor(49).label, '10 - 49');
  assert.equal(employeeBandFor(50).label, '50 - 199');
  assert.equal(employeeBandFor(10_000).label, 'Above 10,000');
  assert.equal(revenueBandFor(999_999).label, 'Less than 1M');
  assert.equal(revenueBandFor(1_000_000).label, '1M - 2M');
  assert.equal(revenueBandFor(5_000_000_000).label, 'More than 1B');
  assert.ok(inBand(revenueBand('10M - 50M')!, 20_000_000));
  assert.ok(!inBand(revenueBand('10M - 50M')!, 50_000_000));
});
