// A company's firmographic profile: the stored native profile when there is one, else
// one built from the company record; the simplified common fields are always added.
import type { Db } from '../db/db.ts';
import { firmographicNativeShape, type Firmographics } from '../schemas/firmographics.ts';
import { findCompanyWithProfile, type CompanyRow } from '../store/companies.ts';
import { notFound } from './resolve.ts';

/** The simplified common fields of the public profile, from the company record. */
function commonFields(c: CompanyRow) {
  return {
    id: c.id,
    domain: c.domain,
    industry: c.industry,
    employeeRange: c.employee_band,
    revenueRange: c.revenue_band,
    foundedYear: c.founded_year,
    hqCountry: c.country,
    hqCity: c.city,
    linkedinUrl: c.linkedin_url,
    crunchbaseUrl: c.crunchbase_url,
  };
}

/** The native fields that the company record can supply. */
function nativeFromCompany(c: CompanyRow): Record<string, unknown> {
  const p: Record<string, unknown> = {
    name: c.name ?? undefined,
    description: c.description ?? undefined,
    website: c.website ?? undefined,
    logo_url: c.logo_url ?? undefined,
    linkedin_link: c.linkedin_url ?? undefined,
    employee_count: c.employee_count !== null ? String(c.employee_count) : undefined,
    revenue: c.revenue_usd !== null ? String(c.revenue_usd) : undefined,
    founded_date: c.founded_year !== null ? String(c.founded_year) : undefined,
    industries: c.industry ? [c.industry] : undefined,
    hq_address: dropUndefined({
      street1: c.street ?? undefined,
      city: c.city ?? undefined,
      state: c.state ?? undefined,
      postal_code: c.postal_code ?? undefined,
      country: c.country ?? undefined,
      phone: c.phone ?? undefined,
    }),
  };
  return dropUndefined(p);
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Drops stored native fields whose type breaks the documented shape, instead of failing the call. */
function conforming(profile: Record<string, unknown>): Record<string, unknown> {
  const shape = firmographicNativeShape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  return Object.fromEntries(Object.entries(profile).filter(([k, v]) => !Object.hasOwn(shape, k) || shape[k]!.safeParse(v).success));
}

export async function companyFirmographics(primary: Db, input: { companyDomain: string }): Promise<Firmographics> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  const found = await findCompanyWithProfile(db, input.companyDomain);
  if (!found) throw notFound('companyDomain', 'company', input.companyDomain);
  const { profile: stored, ...company } = found;
  const native = stored ? conforming(stored) : nativeFromCompany(company);
  return { name: company.name ?? undefined, ...native, ...commonFields(company) } as Firmographics;
}
