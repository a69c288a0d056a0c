// Deep links into the web console, for tool answers: a person reading what an agent found
// opens the same search (its list, or its market-size view) or the same company there.
// The console's search keeps its state in the URL hash (src/console/public/js/search.js,
// stateOf/urlOf): a search whose filter the console cannot show gets no link rather than a
// link to a different search.
import type { CompanySearchInput } from '../schemas/companies.ts';
import type { FacetDimension } from '../schemas/facets.ts';

export function companyConsoleUrl(publicUrl: string, domain: string): string {
  return `${publicUrl}/console#/companies/${encodeURIComponent(domain)}`;
}

/** Filter fields the console's search form holds; any other field given means no link. */
const SHOWN = new Set([
  'productIdIn',
  'productIdInAnd',
  'vendorDomainIn',
  'vendorDomainInAnd',
  'productIdNotIn',
  'vendorDomainNotIn',
  'intensityBucketIn',
  'dateLastVerifiedBucketIn',
  'industryIn',
  'employeeRangeIn',
  'revenueRangeIn',
  'countryIn',
  'companyNameContains',
]);

const given = (v: unknown) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);

/**
 * The console URL of a company search (the market-size view when `dimensions` are given),
 * or null when the search uses what the console's form cannot hold (top-level lists, a
 * category, state, city or postal-code filter, a domain list, asOf).
 */
export function searchConsoleUrl(publicUrl: string, search: Partial<CompanySearchInput>, dimensions: readonly FacetDimension[] = []): string | null {
  const { filter = {}, query, sort, page: _page, size: _size, ...topLevel } = search;
  if (Object.values(topLevel).some(given)) return null;
  const f = filter as Record<string, unknown>;
  if (Object.entries(f).some(([k, v]) => given(v) && !SHOWN.has(k))) return null;
  // Both "all of" switches are one in the console: it can hold only the same choice for both.
  const hasProducts = given(f.productIdIn);
  const hasVendors = given(f.vendorDomainIn);
  const all = (hasProducts && f.productIdInAnd === true) || (hasVendors && f.vendorDomainInAnd === true);
  if (all && ((hasProducts && f.productIdInAnd !== true) || (hasVendors && f.vendorDomainInAnd !== true))) return null;
  const list = (k: string) => (Array.isArray(f[k]) ? (f[k] as string[]) : []);
  const q = new URLSearchParams();
  if (query) q.set('q', query);
  if (f.companyNameContains) q.set('name', String(f.companyNameContains));
  for (const id of list('productIdIn')) q.append('use', `p:${id}`);
  for (const d of list('vendorDomainIn')) q.append('use', `v:${d}`);
  if (all) q.set('useAll', '1');
  for (const id of list('productIdNotIn')) q.append('not', `p:${id}`);
  for (const d of list('vendorDomainNotIn')) q.append('not', `v:${d}`);
  for (const [field, param] of [
    ['intensityBucketIn', 'intensity'],
    ['dateLastVerifiedBucketIn', 'recency'],
    ['industryIn', 'industry'],
    ['employeeRangeIn', 'employees'],
    ['revenueRangeIn', 'revenue'],
  ] as const) {
    for (const v of list(field)) q.append(param, v);
  }
  if (list('countryIn').length) q.set('country', list('countryIn').join(','));
  if (dimensions.length) {
    q.set('view', 'market');
    q.set('by', dimensions[0]!);
    if (dimensions[1]) q.set('by2', dimensions[1]);
  }
  if (sort) q.set('sort', sort);
  const s = q.toString();
  return `${publicUrl}/console#/search${s ? `?${s}` : ''}`;
}
