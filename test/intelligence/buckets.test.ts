import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dateBucket, dateRanges, describeDateBuckets, describeIntensityBuckets, intensityBucket, intensityScores } from '../../src/intelligence/buckets.ts';

const now = new Date('2026-06-01T00:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);

test('intensity buckets cover 0-100 without gaps or overlaps', () => {
  assert.deepEqual([0, 33, 34, 66, 67, 100].map(intensityBucket), ['LOW', 'LOW', 'MEDIUM', 'MEDIUM', 'HIGH', 'HIGH']);
  assert.deepEqual(
    intensityScores(['LOW', 'MEDIUM', 'HIGH']),
    Array.from({ length: 101 }, (_, i) => i),
  );
  assert.deepEqual(intensityScores(['HIGH']).length, 34);
  assert.equal(describeIntensityBuckets(), 'LOW 0-33, MEDIUM 34-66, HIGH 67-100');
});

test('date buckets by age: RECENT <90 days, NEW <365, OLD <730, ANCIENT beyond', () => {
  assert.deepEqual(
    [0, 89.9, 90, 364, 365, 729, 730, 5000].map((d) => dateBucket(ago(d), now)),
    ['RECENT', 'RECENT', 'NEW', 'NEW', 'OLD', 'OLD', 'ANCIENT', 'ANCIENT'],
  );
  assert.equal(dateBucket(ago(-3), now), 'RECENT');
  assert.match(describeDateBuckets(), /RECENT within 90 days, NEW 90-365 days ago, OLD 365-730 days ago, ANCIENT more than 730 days ago/);
});

test('date ranges agree with dateBucket', () => {
  const ranges = dateRanges(['NEW', 'ANCIENT'], now);
  assert.deepEqual(ranges, [
    { from: ago(365), to: ago(90) },
    { from: null, to: ago(730) },
  ]);
  assert.deepEqual(dateRanges(['RECENT'], now), [{ from: ago(90), to: null }]);
  for (const d of [1, 100, 400, 800]) {
    const t = ago(d);
    const inRange = ranges.some((r) => (r.from === null || t >= r.from) && (r.to === null || t < r.to));
    assert.equal(inRange, ['NEW', 'ANCIENT'].includes(dateBucket(t, now)), `${d} days`);
  }
});
