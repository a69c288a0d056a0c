// One company of the demo world, drawn from its hidden segment: country from the
// segment's region, size from its tier, revenue from size × industry, then name,
// domain, address, phone, links and history (funding rounds, acquisitions, listing).
import { employeeBandOf, revenueBandOf } from '../../bands.ts';
import { companyDomain, uniqueCompanyName } from './company-names.ts';
import { COUNTRIES, COUNTRIES_BY_REGION, type Country } from './geo.ts';
import type { Industry, SizeTier } from './industries.ts';
import { postalCode, streetLine } from './names.ts';
import { rngFor, type Rng } from './rng.ts';
import { slugify } from '../../slug.ts';
import type { Segment } from './segments.ts';

export interface FundingRound {
  type: string;
  date: string;
  amount: number | null;
}

export interface Acquisition {
  name: string;
  website: string;
  date: string;
  amount: number | null;
}

export interface Company {
  index: number;
  id: string;
  segment: Segment;
  industry: Industry;
  country: Country;
  name: string;
  legalName: string;
  domain: string;
  employees: number;
  employeeBand: string;
  revenueUsd: number;
  revenueBand: string;
  street: string;
  city: string;
  state: string;
  postalCode: string;
  phone: string;
  foundedYear: number;
  foundedDate: string;
  website: string;
  logoUrl: string;
  linkedinUrl: string;
  crunchbaseUrl: string | null;
  description: string;
  isPublic: boolean;
  stock: { exchange: string; ticker: string } | null;
  funding: FundingRound[];
  acquisitions: Acquisition[];
  /** Size within the world, 0 (tiny) … 1 (largest): drives stack breadth, people, news. */
  scale01: number;
}

const EMPLOYEE_RANGE: Record<SizeTier, [number, number]> = {
  small: [2, 60],
  mid: [40, 700],
  large: [350, 7000],
  enterprise: [3000, 160_000],
};
const AGE_MEDIAN: Record<SizeTier, number> = { small: 9, mid: 18, large: 30, enterprise: 55 };
const PUBLIC_SHARE: Record<SizeTier, number> = { small: 0, mid: 0.01, large: 0.1, enterprise: 0.35 };
/** Funding rounds in the order a company raises them, with the median amount of each. */
const ROUNDS = [
  { type: 'Seed', median: 1.5e6 },
  { type: 'Series A', median: 8e6 },
  { type: 'Series B', median: 22e6 },
  { type: 'Series C', median: 45e6 },
  { type: 'Series D', median: 80e6 },
  { type: 'Series E', median: 120e6 },
];

export interface CompanyContext {
  seed: string;
  asOf: Date;
  takenDomains: Set<string>;
  /** Folded names handed out so far (names are unique per world). */
  takenNames: Set<string>;
  companyId: (n: number) => string;
}

export function generateCompany(ctx: CompanyContext, index: number, segment: Segment): Company {
  const rng = rngFor(ctx.seed, 'company', index);
  const industry = segment.industry;
  const regionCountries = COUNTRIES_BY_REGION.get(segment.region)!;
  // A few companies sit outside their segment's region (foreign headquarters).
  const pool = rng.chance(0.06) ? COUNTRIES : regionCountries;
  const country = rng.pickWeighted(
    pool,
    pool.map((c) => c.weight),
  );
  const cityObj = rng.pickWeighted(
    country.cities,
    country.cities.map((_, k) => 1 / Math.pow(k + 1, 0.7)),
  );
  const [lo, hi] = EMPLOYEE_RANGE[segment.tier];
  const employees = Math.round(Math.exp(rng.uniform(Math.log(lo), Math.log(hi))));
  const revenueUsd = Math.round((employees * industry.revenuePerEmployee * rng.logNormal(1, 0.45)) / 1000) * 1000;
  const asOfYear = ctx.asOf.getUTCFullYear();
  const techYoung = industry.sector === 'Technology' || industry.id === 'ind_biotech' || industry.id === 'ind_ecommerce' ? 0.6 : 1;
  const age = Math.min(170, Math.max(1, Math.round(rng.logNormal(AGE_MEDIAN[segment.tier] * techYoung, 0.6))));
  const foundedYear = asOfYear - age;
  const foundedDate = `${foundedYear}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
  const isPublic = industry.kind === 'company' && rng.chance(PUBLIC_SHARE[segment.tier]);
  const { name, legalName } = uniqueCompanyName(rng, industry, country, cityObj.name, isPublic, ctx.takenNames);
  const domain = companyDomain(rng, name, industry, country, ctx.takenDomains);
  const slug = slugify(name);
  const description = describe(rng, name, industry, cityObj.name, country, foundedYear);
  return {
    index,
    id: ctx.companyId(index),
    segment,
    industry,
    country,
    name,
    legalName,
    domain,
    employees,
    employeeBand: employeeBandOf(employees),
    revenueUsd,
    revenueBand: revenueBandOf(revenueUsd),
    street: streetLine(rng, country),
    city: cityObj.name,
    state: cityObj.state,
    postalCode: postalCode(rng, cityObj.postal),
    phone: phoneNumber(rng, country),
    foundedYear,
    foundedDate,
    website: `https://www.${domain}`,
    logoUrl: `https://logos.stacklens.example/${domain}.png`,
    linkedinUrl: `https://www.linkedin.com/company/${slug}`,
    crunchbaseUrl: industry.kind === 'company' && rng.chance(0.75) ? `https://www.crunchbase.com/organization/${slug}` : null,
    description,
    isPublic,
    stock: isPublic ? { exchange: country.exchange, ticker: ticker(rng, name) } : null,
    funding: industry.kind === 'company' ? fundingRounds(rng, industry, segment.tier, foundedYear, ctx.asOf) : [],
    acquisitions: acquisitions(rng, segment.tier, foundedYear, ctx.asOf, country),
    scale01: Math.min(1, Math.log10(employees) / 5),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function dayBefore(asOf: Date, days: number): string {
  return isoDay(new Date(asOf.getTime() - Math.round(days) * 86_400_000));
}

function phoneNumber(rng: Rng, country: Country): string {
  const digits = (n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');
  if (country.phone === '+1') return `+1 ${rng.int(201, 989)} 555 ${digits(4)}`;
  return `${country.phone} ${rng.int(1, 9)}${digits(1)} ${digits(3)} ${digits(4)}`;
}

function ticker(rng: Rng, name: string): string {
  const letters = name.replace(/[^A-Za-z]/g, '').toUpperCase();
  const len = rng.int(3, 4);
  return (
    letters.slice(0, 2) +
    letters
      .slice(2)
      .split('')
      .filter(() => rng.chance(0.5))
      .join('') +
    'XYZ'
  ).slice(0, len);
}

function describe(rng: Rng, name: string, industry: Industry, city: string, country: Country, founded: number): string {
  const what = rng.pick(industry.offerings);
  const who = rng.pick(industry.customers);
  const kind =
    industry.kind === 'company'
      ? `${/^[aeiou]/i.test(industry.name) ? 'an' : 'a'} ${industry.name.toLowerCase()} company`
      : industry.kind === 'education'
        ? 'an institution of higher education'
        : industry.kind === 'government'
          ? 'a public agency'
          : 'a nonprofit organization';
  return `${name} is ${kind} headquartered in ${city}, ${country.name}, founded in ${founded}. It provides ${what} for ${who}.`;
}

function fundingRounds(rng: Rng, industry: Industry, tier: SizeTier, foundedYear: number, asOf: Date): FundingRound[] {
  const venture =
    industry.sector === 'Technology' ||
    ['ind_biotech', 'ind_ecommerce', 'ind_elearning', 'ind_renewables', 'ind_financial_services', 'ind_medical_devices'].includes(industry.id);
  const p = (venture ? 0.45 : 0.07) * (tier === 'enterprise' ? 0.3 : 1);
  if (!rng.chance(p)) return [];
  const count = Math.min(ROUNDS.length, 1 + rng.poisson(tier === 'small' ? 0.6 : tier === 'mid' ? 1.6 : 2.5));
  const start = Math.max(foundedYear, asOf.getUTCFullYear() - 12);
  const totalDays = Math.max(60, (asOf.getTime() - Date.UTC(start, 0, 1)) / 86_400_000);
  // Rounds spread over the company's funded life, in order, 6-30 months apart.
  const rounds: FundingRound[] = [];
  let daysAgo = Math.min(totalDays, rng.uniform(0.3, 1) * totalDays);
  for (let k = 0; k < count && daysAgo > 0; k++) {
    const round = ROUNDS[k]!; // k < count <= ROUNDS.length
    const undisclosed = rng.chance(0.12);
    rounds.push({
      type: round.type,
      date: dayBefore(asOf, daysAgo),
      amount: undisclosed ? null : Math.round(rng.logNormal(round.median, 0.4) / 100_000) * 100_000,
    });
    daysAgo -= rng.uniform(180, 900);
  }
  return rounds;
}

function acquisitions(rng: Rng, tier: SizeTier, foundedYear: number, asOf: Date, country: Country): Acquisition[] {
  const n = rng.poisson(tier === 'enterprise' ? 2.2 : tier === 'large' ? 1 : tier === 'mid' ? 0.25 : 0.03);
  const maxDays = Math.min(3650, (asOf.getTime() - Date.UTC(foundedYear + 2, 0, 1)) / 86_400_000);
  const out: Acquisition[] = [];
  for (let k = 0; k < n && maxDays > 30; k++) {
    const target = rng.pick(['Data', 'Works', 'Labs', 'Systems', 'Partners', 'Group', 'Solutions']);
    const stem = rng.pick([
      'Brightline',
      'Corvid',
      'Westbrook',
      'Lumio',
      'Stackhouse',
      'Greyfield',
      'Quillon',
      'Tandem',
      'Oakridge',
      'Kestrel',
      'Marlow',
      'Verity',
    ]);
    const name = `${stem} ${target}`;
    out.push({
      name,
      website: `https://www.${slugify(name, '')}.${country.code === 'US' ? 'com' : country.tld}`,
      date: dayBefore(asOf, rng.uniform(20, maxDays)),
      amount: rng.chance(0.55) ? null : Math.round(rng.logNormal(25e6, 1) / 1e6) * 1e6,
    });
  }
  return out.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}
