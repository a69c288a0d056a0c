// Search criteria for store-level tests.
import type { CompanySearchCriteria } from '../../src/store/companies.ts';

/** The criteria of a search that narrows nothing: every company matches. */
export function everyCompany(): CompanySearchCriteria {
  return {
    terms: [],
    countries: [],
    industryIds: [],
    employeeBands: [],
    revenueBands: [],
    domains: [],
    states: [],
    cities: [],
    postalCodes: [],
    requireScopedInstall: false,
  };
}
