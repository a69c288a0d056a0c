// Employee and revenue band labels (spec/enumerations.md) with the numeric ranges behind
// them. Kept here until the shared src/bands.ts lands on main; then switch to it.

export interface Band {
  label: string;
  /** Inclusive lower bound. */
  min: number;
  /** Exclusive upper bound (Infinity for the last band). */
  max: number;
}

export const EMPLOYEE_BANDS: readonly Band[] = [
  { label: 'Less than 10', min: 0, max: 10 },
  { label: '10 - 49', min: 10, max: 50 },
  { label: '50 - 199', min: 50, max: 200 },
  { label: '200 - 499', min: 200, max: 500 },
  { label: '500 - 999', min: 500, max: 1000 },
  { label: '1,000 - 4,999', min: 1000, max: 5000 },
  { label: '5,000 - 9,999', min: 5000, max: 10000 },
  { label: 'Above 10,000', min: 10000, max: Infinity },
];

const M = 1_000_000;
export const REVENUE_BANDS: readonly Band[] = [
  { label: 'Less than 1M', min: 0, max: 1 * M },
  { label: '1M - 2M', min: 1 * M, max: 2 * M },
  { label: '2M - 5M', min: 2 * M, max: 5 * M },
  { label: '5M - 10M', min: 5 * M, max: 10 * M },
  { label: '10M - 50M', min: 10 * M, max: 50 * M },
  { label: '50M - 100M', min: 50 * M, max: 100 * M },
  { label: '100M - 500M', min: 100 * M, max: 500 * M },
  { label: '500M - 1B', min: 500 * M, max: 1000 * M },
  { label: 'More than 1B', min: 1000 * M, max: Infinity },
];

export const EMPLOYEE_BAND_LABELS = EMPLOYEE_BANDS.map((b) => b.label);
export const REVENUE_BAND_LABELS = REVENUE_BANDS.map((b) => b.label);

function bandOf(bands: readonly Band[], value: number): string {
  for (const b of bands) if (value >= b.min && value < b.max) return b.label;
  return bands[bands.length - 1].label;
}

export const employeeBandOf = (count: number): string => bandOf(EMPLOYEE_BANDS, count);
export const revenueBandOf = (usd: number): string => bandOf(REVENUE_BANDS, usd);
