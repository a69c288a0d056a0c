// Employee and revenue bands: the exact labels of spec/enumerations.md, in order, with the
// numeric range each covers. The one list for every door (importers, search filters,
// the demo world, similarity): never spell a band label anywhere else.

export interface Band {
  /** The label clients send and receive, e.g. `50 - 199`. */
  readonly label: string;
  /** Inclusive lower bound. */
  readonly min: number;
  /** Inclusive upper bound; null for the open top band. */
  readonly max: number | null;
  /** 0-based position, smallest first: adjacent bands differ by 1. */
  readonly rank: number;
}

function bands(list: [label: string, min: number, max: number | null][]): readonly Band[] {
  return Object.freeze(list.map(([label, min, max], rank) => Object.freeze({ label, min, max, rank })));
}

/** Employee-count bands (headcount). */
export const EMPLOYEE_BANDS = bands([
  ['Less than 10', 0, 9],
  ['10 - 49', 10, 49],
  ['50 - 199', 50, 199],
  ['200 - 499', 200, 499],
  ['500 - 999', 500, 999],
  ['1,000 - 4,999', 1_000, 4_999],
  ['5,000 - 9,999', 5_000, 9_999],
  // The spec's label says "Above 10,000"; 10,000 itself would fall in no band otherwise.
  ['Above 10,000', 10_000, null],
]);

/** Annual-revenue bands in USD. Upper bounds are exclusive in words ("1M - 2M" means [1M, 2M)). */
export const REVENUE_BANDS = bands([
  ['Less than 1M', 0, 999_999],
  ['1M - 2M', 1_000_000, 1_999_999],
  ['2M - 5M', 2_000_000, 4_999_999],
  ['5M - 10M', 5_000_000, 9_999_999],
  ['10M - 50M', 10_000_000, 49_999_999],
  ['50M - 100M', 50_000_000, 99_999_999],
  ['100M - 500M', 100_000_000, 499_999_999],
  ['500M - 1B', 500_000_000, 999_999_999],
  ['More than 1B', 1_000_000_000, null],
]);

export const EMPLOYEE_BAND_LABELS: readonly string[] = EMPLOYEE_BANDS.map((b) => b.label);
export const REVENUE_BAND_LABELS: readonly string[] = REVENUE_BANDS.map((b) => b.label);

/** The band whose label is exactly `label`, or undefined. */
export function employeeBand(label: string): Band | undefined {
  return EMPLOYEE_BANDS.find((b) => b.label === label);
}

export function revenueBand(label: string): Band | undefined {
  return REVENUE_BANDS.find((b) => b.label === label);
}

/** The band a non-negative value falls in. */
export function bandFor(list: readonly Band[], value: number): Band {
  for (const b of list) if (value >= b.min && (b.max === null || value <= b.max)) return b;
  return list[value < 0 ? 0 : list.length - 1]!;
}

export function employeeBandFor(count: number): Band {
  return bandFor(EMPLOYEE_BANDS, count);
}

export function revenueBandFor(usd: number): Band {
  return bandFor(REVENUE_BANDS, usd);
}

export function inBand(band: Band, value: number): boolean {
  return value >= band.min && (band.max === null || value <= band.max);
}
