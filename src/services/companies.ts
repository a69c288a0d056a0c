// Company operations: search (page and CSV export) and market sizing (facets).
// Transport-free: REST routes and MCP tools call these with the parsed schema input.
import type { Db } from '../db/db.ts';
import { checkResultWindow, toPage, type Page } from '../schemas/common.ts';
import type { CompanySearchInput, CompanySummary } from '../schemas/companies.ts';
import {
  BY_NAME,
  countCompanies,
  matchingCompanyIds,
  narrowsCompanies,
  searchCompaniesCounted,
  streamCompanies,
  type CompanySort,
  type CompanySummaryRow,
  type CompanySearchCriteria,
  type InstallSetFilter,
} from '../store/companies.ts';
import { categorySubtrees } from '../store/categories.ts';
import { facetCounts, type FacetRow } from '../store/facets.ts';
import { companyNamesById } from '../store/facet-world.ts';
import { currentFacetIndex } from './facet-index.ts';
import { takeFacetsCall } from './plan-limits.ts';
import type { FacetDimension, Facets, FacetsInput } from '../schemas/facets.ts';
import { dateRanges, intensityScores } from '../intelligence/buckets.ts';
import { audited, type Actor } from './exports.ts';
import { DEFAULT_STALE_AFTER_DAYS } from './observations.ts';
import { nowDate } from '../clock.ts';
import { requireCategories, requireCompanies, requireIndustries, requireProducts, requireVendors } from './resolve.ts';

function toCompanySummary(r: CompanySummaryRow): CompanySummary {
  return {
    id: r.id,
    domain: r.domain,
    name: r.name,
    logo: r.logo_url,
    industry: r.industry,
    revenueRange: r.revenue_band,
    employeeRange: r.employee_band,
    phone: r.phone,
    city: r.city,
    state: r.state,
    country: r.country,
    postalCode: r.postal_code,
    website: r.website,
  };
}

export async function searchCompanies(primary: Db, input: CompanySearchInput): Promise<Page<CompanySummary>> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  const page = input.page ?? 0;
  const size = input.size ?? 20;
  checkResultWindow(page, size);
  const criteria = await toCriteria(db, input, nowDate());
  const { rows, total } = await searchCompaniesCounted(db, criteria, size, page * size, sortOf(input.sort));
  return toPage(rows.map(toCompanySummary), total, size);
}

/** Every matching company (not one page), streamed; audited when the stream ends. */
export async function exportCompanySearch(db: Db, input: CompanySearchInput, actor: Actor): Promise<AsyncIterable<CompanySummary>> {
  const criteria = await toCriteria(db, input, nowDate());
  const { page: _page, size: _size, ...params } = input;
  return audited(db, mapRows(streamCompanies(db, criteria, sortOf(input.sort)), toCompanySummary), { actor, action: 'companies.search.export', params });
}

async function* mapRows<A, B>(rows: AsyncIterable<A>, fn: (a: A) => B): AsyncGenerator<B> {
  for await (const r of rows) yield fn(r);
}

/** 'employees' → by employees, ascending; '-employees' → descending; none → by name. */
function sortOf(sort: CompanySearchInput['sort']): CompanySort {
  if (!sort) return BY_NAME;
  const descending = sort.startsWith('-');
  return { by: (descending ? sort.slice(1) : sort) as CompanySort['by'], descending };
}

const uniq = <T>(xs: readonly T[] | undefined): T[] => [...new Set(xs ?? [])];

/** Resolves names and domains to ids (404/400 for unknown ones) and derives the bucket scope. */
export async function toCriteria(db: Db, input: CompanySearchInput, now: Date): Promise<CompanySearchCriteria> {
  const f = input.filter ?? {};
  await requireCompanies(db, uniq(input.domains), 'domains');
  await requireCompanies(db, uniq(f.companyDomainIn), 'filter.companyDomainIn');
  const domains = uniq([...(input.domains ?? []), ...(f.companyDomainIn ?? [])]);
  // Unknown industries are a 400 here, as the search documents (a closed vocabulary, like the bands).
  const industries = [
    ...(await requireIndustries(db, uniq(input.industries), 'industries', 400)),
    ...(await requireIndustries(db, uniq(f.industryIn), 'filter.industryIn', 400)),
  ];
  const industryIds = uniq(industries.map((i) => i.id));

  const vendorIds = (list: string[] | undefined, field: string) => requireVendors(db, uniq(list), `filter.${field}`);
  const productIds = async (list: string[] | undefined, field: string) => (await requireProducts(db, uniq(list), `filter.${field}`)).map((p) => p.id);
  const categories = async (list: string[] | undefined, field: string, all: boolean | undefined) => {
    const ids = (await requireCategories(db, uniq(list), `filter.${field}`)).map((c) => c.id);
    if (ids.length === 0) return undefined;
    return { ids, all: all ?? false, subtree: await categorySubtrees(db, ids) };
  };
  const set = (ids: string[], all: boolean | undefined): InstallSetFilter | undefined => (ids.length > 0 ? { ids, all: all ?? false } : undefined);

  const criteria: CompanySearchCriteria = {
    nameContains: f.companyNameContains,
    terms: (input.query ?? '').split(/\s+/).filter(Boolean).slice(0, 10),
    countries: uniq([...(input.countries ?? []), ...(f.countryIn ?? [])]),
    industryIds,
    employeeBands: uniq([...(input.employeeRange ?? []), ...(f.employeeRangeIn ?? [])]),
    revenueBands: uniq([...(input.revenueRange ?? []), ...(f.revenueRangeIn ?? [])]),
    domains,
    states: uniq(f.stateIn),
    cities: uniq(f.cityIn),
    postalCodes: uniq(f.postalCodeIn),
    vendorIn: set(await vendorIds(f.vendorDomainIn, 'vendorDomainIn'), f.vendorDomainInAnd),
    vendorNotIn: set(await vendorIds(f.vendorDomainNotIn, 'vendorDomainNotIn'), f.vendorDomainNotInAnd),
    productIn: set(await productIds(f.productIdIn, 'productIdIn'), f.productIdInAnd),
    productNotIn: set(await productIds(f.productIdNotIn, 'productIdNotIn'), f.productIdNotInAnd),
    categoryIn: await categories(f.mainCategoryIdIn, 'mainCategoryIdIn', f.mainCategoryIdInAnd),
    categoryNotIn: await categories(f.mainCategoryIdNotIn, 'mainCategoryIdNotIn', f.mainCategoryIdNotInAnd),
    intensityScores: f.intensityBucketIn && f.intensityBucketIn.length > 0 ? intensityScores(uniq(f.intensityBucketIn)) : undefined,
    dateRanges:
      f.dateLastVerifiedBucketIn && f.dateLastVerifiedBucketIn.length > 0
        ? dateRanges(uniq(f.dateLastVerifiedBucketIn), input.asOf ? new Date(Date.parse(`${input.asOf}T00:00:00Z`) + 86_400_000) : now)
        : undefined,
    requireScopedInstall: false,
    ...(input.asOf ? { asOf: { before: new Date(Date.parse(`${input.asOf}T00:00:00Z`) + 86_400_000), staleAfterDays: DEFAULT_STALE_AFTER_DAYS } } : {}),
  };
  const hasInstallFilter = [
    criteria.vendorIn,
    criteria.vendorNotIn,
    criteria.productIn,
    criteria.productNotIn,
    criteria.categoryIn,
    criteria.categoryNotIn,
  ].some(Boolean);
  criteria.requireScopedInstall = !hasInstallFilter && Boolean(criteria.intensityScores || criteria.dateRanges);
  return criteria;
}

/**
 * Market sizing from the in-memory index (services/facet-index.ts) when it holds the current
 * world; undefined when the SQL path must answer (no index yet, a write since, a past `asOf`,
 * or a matching company the index does not know: written after the version was read).
 */
async function countInIndex(db: Db, criteria: CompanySearchCriteria, input: FacetsInput, maxStalenessMs: number) {
  if (criteria.asOf) return undefined;
  const index = await currentFacetIndex(db, maxStalenessMs);
  if (!index) return undefined;
  const matched = narrowsCompanies(criteria) ? index.positionsOf(await matchingCompanyIds(db, criteria)) : null;
  if (matched === undefined) return undefined;
  const counted = await index.count(matched, input.dimensions, input.limit, input.sample, (ids) => companyNamesById(db, ids));
  return { ...counted, countedAt: index.readAt };
}

/** The search criteria of a market-sizing request (for the benchmark's SQL-only figures). */
export function facetCriteria(db: Db, input: FacetsInput): Promise<CompanySearchCriteria> {
  return toCriteria(db, input, nowDate());
}

/**
 * Market sizing: the matches of a search counted by one or two dimensions (store/facets.ts), with
 * totals and samples. A client's call (count mode included) spends one of its plan's facetsPerDay
 * once the request is known to be valid; 'unmetered' is for the operator's own tools (benchmarks).
 */
export async function companyFacets(
  primary: Db,
  input: FacetsInput,
  by: { clientId: string } | 'unmetered',
  options: { maxStalenessMs?: number } = {},
): Promise<Facets> {
  const db = primary.read;
  const startedAt = new Date();
  const criteria = await toCriteria(db, input, nowDate());
  if (by !== 'unmetered') await takeFacetsCall(primary, by.clientId);
  const [d1, d2] = input.dimensions;
  // Count mode: the total alone.
  if (!d1) return { total: await countCompanies(db, criteria), dimensions: [], cells: [], cellCount: 0, totals: [], countedAt: startedAt.toISOString() };
  const { total, rows, cellCount, countedAt } = (await countInIndex(db, criteria, input, options.maxStalenessMs ?? 0)) ?? {
    ...(await facetCounts(db, criteria, input.dimensions, input.limit, input.sample)),
    countedAt: startedAt,
  };
  const value = (dimension: FacetDimension, v: string | null, name: string | null) => ({ dimension, value: v, name });
  const totalsOf = (level: number, dimension: FacetDimension, pick: (r: FacetRow) => [string | null, string | null]) => ({
    dimension,
    values: rows.filter((r) => r.level === level).map((r) => ({ value: pick(r)[0], name: pick(r)[1], companies: r.companies })),
  });
  const cells = rows
    .filter((r) => r.level === 0)
    .map((r) => ({
      values: d2 ? [value(d1, r.v1, r.n1), value(d2, r.v2, r.n2)] : [value(d1, r.v1, r.n1)],
      companies: r.companies,
      sample: r.sample ?? [],
    }));
  return {
    total,
    dimensions: input.dimensions,
    cells,
    cellCount,
    countedAt: countedAt.toISOString(),
    // One dimension: its totals are the cells.
    totals: d2 ? [totalsOf(1, d1, (r) => [r.v1, r.n1]), totalsOf(2, d2, (r) => [r.v2, r.n2])] : [totalsOf(0, d1, (r) => [r.v1, r.n1])],
  };
}
