// Ordered band labels (enumerations.md) and a country → region map: the ordinal and
// geographic coordinates that firmographic similarity measures distances on.

export const EMPLOYEE_BANDS = [
  'Less than 10', '10 - 49', '50 - 199', '200 - 499', '500 - 999', '1,000 - 4,999', '5,000 - 9,999', 'Above 10,000',
] as const;

export const REVENUE_BANDS = [
  'Less than 1M', '1M - 2M', '2M - 5M', '5M - 10M', '10M - 50M', '50M - 100M', '100M - 500M', '500M - 1B', 'More than 1B',
] as const;

const employeeIndex = new Map<string, number>(EMPLOYEE_BANDS.map((b, i) => [b.toLowerCase(), i]));
const revenueIndex = new Map<string, number>(REVENUE_BANDS.map((b, i) => [b.toLowerCase(), i]));

/** 0-based position of an employee band label; -1 when absent or unknown. */
export function employeeBandIndex(label: string | null | undefined): number {
  return label ? (employeeIndex.get(label.trim().toLowerCase()) ?? -1) : -1;
}

/** 0-based position of a revenue band label; -1 when absent or unknown. */
export function revenueBandIndex(label: string | null | undefined): number {
  return label ? (revenueIndex.get(label.trim().toLowerCase()) ?? -1) : -1;
}

// Sales regions as account-based teams carve the world. Countries not listed fall in
// their own region ('other'), which only matches itself by country.
const REGIONS: Record<string, string> = {};
const assign = (region: string, codes: string) => {
  for (const c of codes.split(' ')) REGIONS[c] = region;
};
assign('NA', 'US CA');
assign('LATAM', 'MX BR AR CL CO PE UY EC VE BO PY CR PA GT DO PR SV HN NI CU JM TT');
assign('EU', 'GB IE FR DE NL BE LU CH AT IT ES PT DK SE NO FI IS PL CZ SK HU RO BG GR HR SI EE LV LT CY MT RS UA BA MK AL ME MD BY');
assign('MEA', 'AE SA IL TR EG ZA NG KE MA QA KW BH OM JO LB GH TN DZ ET');
assign('APAC', 'JP CN KR IN SG AU NZ HK TW MY TH ID PH VN PK BD LK');

/** Region code of an ISO-2 country; null when the country is absent. */
export function regionOf(country: string | null | undefined): string | null {
  if (!country) return null;
  const c = country.trim().toUpperCase();
  return REGIONS[c] ?? `other:${c}`;
}
