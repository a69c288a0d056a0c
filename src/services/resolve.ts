// The one resolver: the domains, ids and names a request refers to become rows, or a 404
// whose message names the field and the missing values, worded the same everywhere:
//   companyDomain: company 'x.com' not found
//   filter.vendorDomainIn: vendors 'a.com', 'b.com' not found
// Inputs arrive normalized by the schemas (domains through schemas/params.ts), so nothing
// here parses; it only looks up. Lists are answered de-duplicated, in request order.
import type { Db } from '../db/db.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { findCompaniesByDomains, findCompanyByDomain, type CompanyRef, type CompanyRow } from '../store/companies.ts';
import { findVendorByDomain, vendorIdsByDomain, type VendorRow } from '../store/vendors.ts';
import { findProducts, type ProductRef } from '../store/products.ts';
import { findCategoriesByIds, findCategoriesByNames, type CategoryRow } from '../store/categories.ts';
import { findIndustriesByIdOrName, type IndustryRow } from '../store/industries.ts';

interface Noun {
  one: string;
  many: string;
  /** Where the valid values can be listed, when there is such a place. */
  hint?: string;
}
const COMPANY: Noun = { one: 'company', many: 'companies' };
const VENDOR: Noun = { one: 'vendor', many: 'vendors' };
const PRODUCT: Noun = { one: 'product', many: 'products' };
const CATEGORY: Noun = { one: 'category', many: 'categories', hint: 'see GET /api/categories' };
const INDUSTRY: Noun = { one: 'industry', many: 'industries', hint: 'see GET /api/industries' };
const PROFILE: Noun = { one: 'profile', many: 'profiles' };

/** At most this many missing values are quoted in a message. */
const SHOWN = 10;

const quote = (v: string) => `'${v.length > 80 ? `${v.slice(0, 77)}...` : v}'`;

function missingMessage(field: string, noun: Noun, missing: string[]): string {
  const more = missing.length > SHOWN ? ` and ${missing.length - SHOWN} more` : '';
  const list = missing.slice(0, SHOWN).map(quote).join(', ') + more;
  return `${field}: ${missing.length === 1 ? noun.one : noun.many} ${list} not found${noun.hint ? `; ${noun.hint}` : ''}`;
}

/** The 404 of the resolver, for callers that look up on their own (a single-row read). */
export function notFound(field: string, noun: 'company' | 'vendor' | 'product' | 'category' | 'industry' | 'profile', value: string): NotFoundError {
  const nouns = { company: COMPANY, vendor: VENDOR, product: PRODUCT, category: CATEGORY, industry: INDUSTRY, profile: PROFILE };
  return new NotFoundError(missingMessage(field, nouns[noun], [value]));
}

/** The values of `wanted` (de-duplicated, in order) for which `has` is false; a 404 when any. */
function check(field: string, noun: Noun, wanted: string[], has: (v: string) => boolean, error = NotFoundError): string[] {
  const unique = [...new Set(wanted)];
  const missing = unique.filter((v) => !has(v));
  if (missing.length > 0) throw new error(missingMessage(field, noun, missing));
  return unique;
}

export async function requireCompany(db: Db, domain: string, field = 'companyDomain'): Promise<CompanyRow> {
  const company = await findCompanyByDomain(db, domain);
  if (!company) throw notFound(field, 'company', domain);
  return company;
}

export async function requireCompanies(db: Db, domains: readonly string[], field: string): Promise<CompanyRef[]> {
  if (domains.length === 0) return [];
  const found = new Map((await findCompaniesByDomains(db, [...new Set(domains)])).map((c) => [c.domain, c]));
  return check(field, COMPANY, [...domains], (d) => found.has(d)).map((d) => found.get(d)!);
}

export async function requireVendor(db: Db, domain: string, field = 'vendorDomain'): Promise<VendorRow> {
  const vendor = await findVendorByDomain(db, domain);
  if (!vendor) throw notFound(field, 'vendor', domain);
  return vendor;
}

/** Vendor ids of the domains, in request order. */
export async function requireVendors(db: Db, domains: readonly string[], field: string): Promise<string[]> {
  if (domains.length === 0) return [];
  const ids = await vendorIdsByDomain(db, [...new Set(domains)]);
  return check(field, VENDOR, [...domains], (d) => ids.has(d)).map((d) => ids.get(d)!);
}

export async function requireProducts(db: Db, ids: readonly string[], field = 'productId'): Promise<ProductRef[]> {
  if (ids.length === 0) return [];
  const found = new Map((await findProducts(db, [...new Set(ids)])).map((p) => [p.id, p]));
  return check(field, PRODUCT, [...ids], (id) => found.has(id)).map((id) => found.get(id)!);
}

/** Categories by id. */
export async function requireCategories(db: Db, ids: readonly string[], field: string): Promise<CategoryRow[]> {
  if (ids.length === 0) return [];
  const found = new Map((await findCategoriesByIds(db, [...new Set(ids)])).map((c) => [c.id, c]));
  return check(field, CATEGORY, [...ids], (id) => found.has(id)).map((id) => found.get(id)!);
}

/** Categories by name, case-insensitive; every category of a name (names need not be unique). */
export async function requireCategoriesByName(db: Db, names: readonly string[], field: string): Promise<CategoryRow[]> {
  if (names.length === 0) return [];
  const rows = await findCategoriesByNames(db, [...new Set(names)]);
  const known = new Set(rows.map((c) => c.name.toLowerCase()));
  check(field, CATEGORY, [...names], (n) => known.has(n.toLowerCase()));
  return rows;
}

/**
 * Industries by id or name (case-insensitive). Company search treats the industry list as
 * a closed vocabulary, like the band labels, and answers an unknown one with a 400 (as it
 * documents); elsewhere an unknown industry is a 404 like any other unknown reference.
 */
export async function requireIndustries(db: Db, keys: readonly string[], field: string, status: 400 | 404 = 404): Promise<IndustryRow[]> {
  if (keys.length === 0) return [];
  const rows = await findIndustriesByIdOrName(db, [...new Set(keys)]);
  const has = (k: string) => rows.some((i) => i.id === k || i.name.toLowerCase() === k.toLowerCase());
  check(field, INDUSTRY, [...keys], has, status === 400 ? BadRequestError : NotFoundError);
  return rows;
}
