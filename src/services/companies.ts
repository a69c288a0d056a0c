// Company operations: resolve a company by domain, search (page and CSV export).
// Transport-free: REST routes and MCP tools call these with the parsed schema input.
import type { Db } from '../store/db.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { CompanySearchInput, CompanySummary } from '../schemas/companies.ts';
import { countCompanies, findCompanyByDomain, knownCompanyDomains, searchCompanies as searchRows, streamCompanies, type CompanyRow, type CompanySearchCriteria, type InstallSetFilter } from '../store/companies.ts';
import { vendorIdsByDomain } from '../store/vendors.ts';
import { knownProductIds } from '../store/products.ts';
import { categorySubtrees, findCategoriesByIds } from '../store/categories.ts';
import { findIndustriesByIdOrName } from '../store/industries.ts';
import { dateRanges, intensityScores } from '../intelligence/buckets.ts';
import { audited, type Actor } from './exports.ts';
import { nowDate } from '../clock.ts';

/** The company of a (normalized) domain, or 404 naming it. */
export async function resolveCompany(db: Db, domain: string): Promise<CompanyRow> {
  const company = await findCompanyByDomain(db, domain);
  if (!company) throw new NotFoundError(`Company '${domain}' not found`);
  return company;
}

export function toCompanySummary(r: CompanyRow): CompanySummary {
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

export async function searchCompanies(db: Db, input: CompanySearchInput): Promise<Page<CompanySummary>> {
  const page = input.page ?? 0;
  const size = input.size ?? 20;
  const criteria = await toCriteria(db, input, nowDate());
  const [total, rows] = await Promise.all([countCompanies(db, criteria), searchRows(db, criteria, size, page * size)]);
  return toPage(rows.map(toCompanySummary), total, size);
}

/** Every matching company (not one page), streamed; audited when the stream ends. */
export async function exportCompanySearch(db: Db, input: CompanySearchInput, actor: Actor): Promise<AsyncIterable<CompanySummary>> {
  const criteria = await toCriteria(db, input, nowDate());
  const { page: _page, size: _size, ...params } = input;
  return audited(db, mapRows(streamCompanies(db, criteria), toCompanySummary), { actor, action: 'companies.search.export', params });
}

async function* mapRows<A, B>(rows: AsyncIterable<A>, fn: (a: A) => B): AsyncGenerator<B> {
  for await (const r of rows) yield fn(r);
}

const uniq = <T>(xs: readonly T[] | undefined): T[] => [...new Set(xs ?? [])];

/** Resolves names and domains to ids (404/400 for unknown ones) and derives the bucket scope. */
async function toCriteria(db: Db, input: CompanySearchInput, now: Date): Promise<CompanySearchCriteria> {
  const f = input.filter ?? {};
  const domains = uniq([...(input.domains ?? []), ...(f.companyDomainIn ?? [])]);
  if (domains.length > 0) {
    const known = await knownCompanyDomains(db, domains);
    const unknown = domains.filter((d) => !known.has(d));
    if (unknown.length > 0) throw new NotFoundError(`Unknown company domain${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}`);
  }
  const industryKeys = uniq([...(input.industries ?? []), ...(f.industryIn ?? [])]);
  let industryIds: string[] = [];
  if (industryKeys.length > 0) {
    const found = await findIndustriesByIdOrName(db, industryKeys);
    const unknown = industryKeys.filter((k) => !found.some((i) => i.id === k || i.name.toLowerCase() === k.toLowerCase()));
    if (unknown.length > 0) throw new BadRequestError(`industries: unknown industry ${unknown.slice(0, 10).map((u) => `'${u}'`).join(', ')}; see GET /api/industries`);
    industryIds = found.map((i) => i.id);
  }

  const vendorIds = async (list: string[] | undefined, field: string): Promise<string[]> => {
    const ds = uniq(list);
    if (ds.length === 0) return [];
    const map = await vendorIdsByDomain(db, ds);
    const unknown = ds.filter((d) => !map.has(d));
    if (unknown.length > 0) throw new NotFoundError(`filter.${field}: unknown vendor ${unknown.slice(0, 10).join(', ')}`);
    return ds.map((d) => map.get(d)!);
  };
  const productIds = async (list: string[] | undefined, field: string): Promise<string[]> => {
    const ids = uniq(list);
    if (ids.length === 0) return [];
    const known = await knownProductIds(db, ids);
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new NotFoundError(`filter.${field}: unknown product ${unknown.slice(0, 10).join(', ')}`);
    return ids;
  };
  const categories = async (list: string[] | undefined, field: string, all: boolean | undefined) => {
    const ids = uniq(list);
    if (ids.length === 0) return undefined;
    const found = new Set((await findCategoriesByIds(db, ids)).map((c) => c.id));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0) throw new NotFoundError(`filter.${field}: unknown category ${unknown.slice(0, 10).join(', ')}`);
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
    dateRanges: f.dateLastVerifiedBucketIn && f.dateLastVerifiedBucketIn.length > 0 ? dateRanges(uniq(f.dateLastVerifiedBucketIn), now) : undefined,
    requireScopedInstall: false,
  };
  const hasInstallFilter = [criteria.vendorIn, criteria.vendorNotIn, criteria.productIn, criteria.productNotIn, criteria.categoryIn, criteria.categoryNotIn].some(Boolean);
  criteria.requireScopedInstall = !hasInstallFilter && Boolean(criteria.intensityScores || criteria.dateRanges);
  return criteria;
}
