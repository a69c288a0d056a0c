// Ordinal and geographic coordinates for firmographic similarity: band positions from
// the one band list (src/bands.ts) and a country → sales-region map.
import { employeeBand, revenueBand } from '../bands.ts';

/** 0-based position of an employee band label; -1 when absent or unknown. */
export function employeeBandIndex(label: string | null | undefined): number {
  return label ? (employeeBand(label.trim())?.rank ?? -1) : -1;
}

/** 0-based position of a revenue band label; -1 when absent or unknown. */
export function revenueBandIndex(label: string | null | undefined): number {
  return label ? (revenueBand(label.trim())?.rank ?? -1) : -1;
}

// Sales regions as account-based teams carve the world. Countries not listed fall in
// their own region ('other:XX'), which only matches itself.
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
