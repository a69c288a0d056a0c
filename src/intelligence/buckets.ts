// Install buckets: the one definition of the intensity and date-last-verified cut-offs.
// Company search filters, product records and the API reference all derive from here.

export const INTENSITY_BUCKETS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type IntensityBucket = (typeof INTENSITY_BUCKETS)[number];

export const DATE_BUCKETS = ['RECENT', 'NEW', 'OLD', 'ANCIENT'] as const;
type DateBucket = (typeof DATE_BUCKETS)[number];

/** Inclusive intensity score ranges (0-100) of each bucket. */
const INTENSITY_RANGES: Record<IntensityBucket, readonly [number, number]> = {
  LOW: [0, 33],
  MEDIUM: [34, 66],
  HIGH: [67, 100],
};

/**
 * Age of `last_verified` in days, as [min, max) per bucket; max null = no upper bound.
 * RECENT: verified within the last 90 days; NEW: 90 days to 1 year; OLD: 1 to 2 years;
 * ANCIENT: more than 2 years ago.
 */
const DATE_AGE_DAYS: Record<DateBucket, readonly [number, number | null]> = {
  RECENT: [0, 90],
  NEW: [90, 365],
  OLD: [365, 730],
  ANCIENT: [730, null],
};

const DAY_MS = 86_400_000;

export function intensityBucket(score: number): IntensityBucket {
  for (const b of INTENSITY_BUCKETS) {
    const [lo, hi] = INTENSITY_RANGES[b];
    if (score >= lo && score <= hi) return b;
  }
  return score > 100 ? 'HIGH' : 'LOW';
}

export function dateBucket(lastVerified: Date, now: Date): DateBucket {
  const ageDays = (now.getTime() - lastVerified.getTime()) / DAY_MS;
  for (const b of DATE_BUCKETS) {
    const [lo, hi] = DATE_AGE_DAYS[b];
    if (ageDays >= lo && (hi === null || ageDays < hi)) return b;
  }
  return 'RECENT'; // verified "in the future" (clock skew): as recent as it gets
}

/** Every intensity score (0-100) the chosen buckets cover; the SQL filter is `intensity = ANY(...)`. */
export function intensityScores(buckets: readonly IntensityBucket[]): number[] {
  const scores = new Set<number>();
  for (const b of buckets) {
    const [lo, hi] = INTENSITY_RANGES[b];
    for (let s = lo; s <= hi; s++) scores.add(s);
  }
  return [...scores].sort((a, b) => a - b);
}

export interface TimeRange {
  /** Inclusive lower bound of last_verified; null = unbounded. */
  from: Date | null;
  /** Exclusive upper bound of last_verified; null = unbounded. */
  to: Date | null;
}

/** last_verified ranges of the chosen buckets at `now`; RECENT also covers future dates. */
export function dateRanges(buckets: readonly DateBucket[], now: Date): TimeRange[] {
  return buckets.map((b) => {
    const [minAge, maxAge] = DATE_AGE_DAYS[b];
    return {
      from: maxAge === null ? null : new Date(now.getTime() - maxAge * DAY_MS),
      to: b === 'RECENT' ? null : new Date(now.getTime() - minAge * DAY_MS),
    };
  });
}

/** One line for the API reference, e.g. "LOW 0-33, MEDIUM 34-66, HIGH 67-100". */
export function describeIntensityBuckets(): string {
  return INTENSITY_BUCKETS.map((b) => `${b} ${INTENSITY_RANGES[b][0]}-${INTENSITY_RANGES[b][1]}`).join(', ');
}

export function describeDateBuckets(): string {
  return DATE_BUCKETS.map((b) => {
    const [lo, hi] = DATE_AGE_DAYS[b];
    return hi === null ? `${b} more than ${lo} days ago` : lo === 0 ? `${b} within ${hi} days` : `${b} ${lo}-${hi} days ago`;
  }).join(', ');
}
