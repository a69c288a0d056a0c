// The native firmographic profile of a company (the evolving JSON shape of the public API),
// built from the same facts as the company row so both always agree.
import type { Company } from './companies.ts';
import type { Person } from './people.ts';
import { rngFor } from './rng.ts';
import { slugify } from '../../slug.ts';

export function firmographicProfile(seed: string, company: Company, ceo: Person | undefined): Record<string, unknown> {
  const rng = rngFor(seed, 'firmographics', company.index);
  const slug = slugify(company.name);
  const profile: Record<string, unknown> = {
    company_id: company.index + 1,
    name: company.legalName,
    short_name: company.name,
    company_type:
      company.industry.kind === 'company'
        ? company.isPublic
          ? 'Public'
          : 'Private'
        : company.industry.kind === 'education'
          ? 'Educational'
          : company.industry.kind === 'government'
            ? 'Government'
            : 'Nonprofit',
    description: company.description,
    employee_count: String(company.employees),
    revenue: company.revenueBand,
    founded_date: company.foundedDate,
    website: company.website,
    logo_url: company.logoUrl,
    profile_url: `https://stacklens.example/companies/${company.domain}`,
    perm_id: String(4_295_000_000 + company.index * 7 + rng.int(0, 6)),
    linkedin_link: company.linkedinUrl,
    industries: [company.industry.name],
    sic_code: company.industry.sic,
    hq_address: {
      street1: company.street,
      city: company.city,
      state: company.state,
      postal_code: company.postalCode,
      country: company.country.name,
      phone: company.phone,
    },
    funding: company.funding.map((f) => ({
      type: f.type,
      date: f.date,
      amount: f.amount === null ? '' : String(f.amount),
      undisclosed: f.amount === null ? 'true' : 'false',
    })),
    acquisition: company.acquisitions.map((a) => ({
      name: a.name,
      date: a.date,
      website: a.website,
      status: 'completed',
      amount: a.amount === null ? '' : String(a.amount),
      undisclosed: a.amount === null ? 'true' : 'false',
    })),
  };
  if (ceo) profile.ceo = { first_name: ceo.firstName, last_name: ceo.lastName, image_url: `https://images.stacklens.example/people/${ceo.id}.jpg` };
  if (company.stock) profile.stock = { exchange: company.stock.exchange, ticker: company.stock.ticker };
  if (rng.chance(0.65)) profile.twitter_link = `https://twitter.com/${slug.replace(/-/g, '').slice(0, 15)}`;
  if (rng.chance(0.5)) profile.facebook_link = `https://www.facebook.com/${slug.replace(/-/g, '')}`;
  if (rng.chance(0.3 + 0.4 * company.scale01)) profile.youtube_link = `https://www.youtube.com/@${slug.replace(/-/g, '')}`;
  return profile;
}
