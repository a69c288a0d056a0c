// Employee and revenue bands: the exact labels the public API uses, in order, with the
// numeric range each covers. The one list for every door (importers, search filters,
// the demo world, similarity): never spell a band label anywhere else.

interface Band {
  /** The label clients send and receive, e.g. `50 - 199`. */
  readonly label: string;
  /** Inclusive lower bound. */
  readonly min: number;
  /** Exclusive upper bound; Infinity for the open top band. */
  readonly max: number;
  /** 0-based position, smallest first: adjacent bands differ by 1. */
  readonly rank: number;
}

function bands(list: [label: string, min: number, max: number][]): readonly Band[] {
  return Object.freeze(list.map(([label, min, max], rank) => Object.freeze({ label, min, max, rank })));
}

/** Employee-count bands (headcount). */
export const EMPLOYEE_BANDS = bands([
  ['Less than 10', 0, 10],
  ['10 - 49', 10, 50],
  ['50 - 199', 50, 200],
  ['200 - 499', 200, 500],
  ['500 - 999', 500, 1_000],
  ['1,000 - 4,999', 1_000, 5_000],
  ['5,000 - 9,999', 5_000, 10_000],
  // The public label says "Above 10,000"; 10,000 itself would fall in no band otherwise.
  ['Above 10,000', 10_000, Infinity],
]);

/** Annual-revenue bands in USD: "1M - 2M" means [1M, 2M). */
const M = 1_000_000;
export const REVENUE_BANDS = bands([
  ['Less than 1M', 0, 1 * M],
  ['1M - 2M', 1 * M, 2 * M],
  ['2M - 5M', 2 * M, 5 * M],
  ['5M - 10M', 5 * M, 10 * M],
  ['10M - 50M', 10 * M, 50 * M],
  ['50M - 100M', 50 * M, 100 * M],
  ['100M - 500M', 100 * M, 500 * M],
  ['500M - 1B', 500 * M, 1000 * M],
  ['More than 1B', 1000 * M, Infinity],
]);

// Non-empty tuples, so they can feed z.enum().
export const EMPLOYEE_BAND_LABELS = EMPLOYEE_BANDS.map((b) => b.label) as unknown as readonly [string, ...string[]];
export const REVENUE_BAND_LABELS = REVENUE_BANDS.map((b) => b.label) as unknown as readonly [string, ...string[]];

/** The band whose label is exactly `label`, or undefined. */
export function employeeBand(label: string): Band | undefined {
  return EMPLOYEE_BANDS.find((b) => b.label === label);
}

export function revenueBand(label: string): Band | undefined {
  return REVENUE_BANDS.find((b) => b.label === label);
}

/** The band a non-negative value falls in (negative values: the lowest band). */
function bandFor(list: readonly Band[], value: number): Band {
  for (const b of list) if (value >= b.min && value < b.max) return b;
  return list[value < 0 ? 0 : list.length - 1]!;
}

export function employeeBandFor(count: number): Band {
  return bandFor(EMPLOYEE_BANDS, count);
}

export function revenueBandFor(usd: number): Band {
  return bandFor(REVENUE_BANDS, usd);
}

/** Labels directly, for callers that only need the text. */
export const employeeBandOf = (count: number): string => employeeBandFor(count).label;
export const revenueBandOf = (usd: number): string => revenueBandFor(usd).label;

export function inBand(band: Band, value: number): boolean {
  return value >= band.min && value < band.max;
}
