// People of one company (the CEO first, more senior staff in small firms, more managers
// and individual contributors in big ones) and their contact details, kept apart.
import type { Company } from './companies.ts';
import { COUNTRIES_BY_REGION } from './geo.ts';
import { personName } from './names.ts';
import { rngFor, type Rng } from './rng.ts';
import { slugify } from '../../slug.ts';
import { FUNCTIONS, SENIORITIES, type PeopleFunction, type Seniority } from '../../intelligence/prompt/schema.ts';

// The seniorities and functions people have: one list, the prompt parser's (the people table holds them).
export { FUNCTIONS, SENIORITIES, type Seniority };
export type PersonFunction = PeopleFunction;

export interface Contact {
  kind: 'email' | 'phone';
  value: string;
  type: string;
  verified: boolean;
}

export interface Person {
  id: string;
  fullName: string;
  firstName: string;
  lastName: string;
  title: string;
  seniority: Seniority;
  fn: PersonFunction;
  country: string;
  city: string;
  linkedinUrl: string;
  contacts: Contact[];
}

const TITLES: Record<PersonFunction, Record<Seniority, string[]>> = {
  'General Management': {
    'C-Level': ['Chief Executive Officer'],
    VP: ['Executive Vice President', 'SVP, Strategy'],
    Director: ['Director of Strategy', 'Chief of Staff'],
    Manager: ['General Manager', 'Business Manager'],
    Senior: ['Senior Business Analyst'],
    Entry: ['Executive Assistant', 'Business Analyst'],
  },
  Sales: {
    'C-Level': ['Chief Revenue Officer', 'Chief Sales Officer'],
    VP: ['VP of Sales', 'Vice President, Sales'],
    Director: ['Sales Director', 'Director of Business Development'],
    Manager: ['Sales Manager', 'Regional Sales Manager', 'Account Manager'],
    Senior: ['Senior Account Executive', 'Key Account Manager'],
    Entry: ['Sales Development Representative', 'Business Development Representative', 'Inside Sales Representative'],
  },
  Marketing: {
    'C-Level': ['Chief Marketing Officer'],
    VP: ['VP of Marketing', 'VP, Demand Generation'],
    Director: ['Marketing Director', 'Director of Brand'],
    Manager: ['Marketing Manager', 'Digital Marketing Manager', 'Product Marketing Manager'],
    Senior: ['Senior Content Strategist', 'Senior Marketing Specialist'],
    Entry: ['Marketing Coordinator', 'Social Media Specialist'],
  },
  IT: {
    'C-Level': ['Chief Information Officer', 'Chief Information Security Officer'],
    VP: ['VP of IT', 'VP, Infrastructure'],
    Director: ['IT Director', 'Director of IT Operations'],
    Manager: ['IT Manager', 'Systems Manager'],
    Senior: ['Senior Systems Administrator', 'Senior Network Engineer'],
    Entry: ['IT Support Specialist', 'Help Desk Technician'],
  },
  Engineering: {
    'C-Level': ['Chief Technology Officer'],
    VP: ['VP of Engineering'],
    Director: ['Director of Engineering', 'Head of Platform'],
    Manager: ['Engineering Manager'],
    Senior: ['Senior Software Engineer', 'Staff Engineer', 'Senior DevOps Engineer'],
    Entry: ['Software Engineer', 'Junior Developer', 'QA Engineer'],
  },
  Finance: {
    'C-Level': ['Chief Financial Officer'],
    VP: ['VP of Finance', 'Vice President, Controller'],
    Director: ['Finance Director', 'Director of FP&A'],
    Manager: ['Finance Manager', 'Accounting Manager'],
    Senior: ['Senior Accountant', 'Senior Financial Analyst'],
    Entry: ['Staff Accountant', 'Accounts Payable Specialist'],
  },
  HR: {
    'C-Level': ['Chief People Officer', 'Chief Human Resources Officer'],
    VP: ['VP of People', 'VP, Human Resources'],
    Director: ['HR Director', 'Director of Talent Acquisition'],
    Manager: ['HR Manager', 'Recruiting Manager'],
    Senior: ['Senior HR Business Partner', 'Senior Recruiter'],
    Entry: ['HR Coordinator', 'Recruiter'],
  },
  Operations: {
    'C-Level': ['Chief Operating Officer'],
    VP: ['VP of Operations', 'VP, Supply Chain'],
    Director: ['Operations Director', 'Director of Procurement'],
    Manager: ['Operations Manager', 'Office Manager', 'Logistics Manager'],
    Senior: ['Senior Operations Analyst', 'Senior Buyer'],
    Entry: ['Operations Coordinator', 'Procurement Specialist'],
  },
  Legal: {
    'C-Level': ['Chief Legal Officer', 'General Counsel'],
    VP: ['VP, Legal', 'Deputy General Counsel'],
    Director: ['Director of Legal Affairs', 'Compliance Director'],
    Manager: ['Legal Manager', 'Compliance Manager'],
    Senior: ['Senior Corporate Counsel', 'Senior Paralegal'],
    Entry: ['Paralegal', 'Legal Assistant'],
  },
  'Customer Success': {
    'C-Level': ['Chief Customer Officer'],
    VP: ['VP of Customer Success'],
    Director: ['Director of Customer Success', 'Director of Support'],
    Manager: ['Customer Success Manager', 'Support Manager'],
    Senior: ['Senior Customer Success Manager', 'Senior Support Engineer'],
    Entry: ['Customer Support Specialist', 'Onboarding Specialist'],
  },
  Product: {
    'C-Level': ['Chief Product Officer'],
    VP: ['VP of Product'],
    Director: ['Director of Product Management'],
    Manager: ['Product Manager', 'Product Owner'],
    Senior: ['Senior Product Manager', 'Senior UX Designer'],
    Entry: ['Associate Product Manager', 'UX Designer'],
  },
};

const FN_WEIGHTS = [0, 18, 11, 9, 14, 8, 6, 14, 3, 7, 5]; // General Management is the CEO slot + few
const SENIORITY_SMALL = [12, 6, 12, 22, 26, 22];
const SENIORITY_LARGE = [3, 6, 14, 28, 27, 22];
const EMAIL_PATTERNS = ['first.last', 'flast', 'first', 'firstl'] as const;
type EmailPattern = (typeof EMAIL_PATTERNS)[number];
const PERSONAL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'proton.me'];

function peopleCount(rng: Rng, employees: number, density: number): number {
  const mean = (1.8 * Math.log2(Math.max(2, employees)) - 1) * density;
  return Math.max(2, Math.min(40, Math.round(mean * rng.uniform(0.7, 1.3))));
}

export function generatePeople(seed: string, company: Company, density: number, personId: (n: number) => string): Person[] {
  const rng = rngFor(seed, 'people', company.index);
  const n = Math.min(peopleCount(rng, company.employees, density), company.employees);
  const emailPattern = rng.pick(EMAIL_PATTERNS);
  const sameRegion = COUNTRIES_BY_REGION.get(company.country.region)!;
  const cLevelUsed = new Set<PersonFunction>();
  const people: Person[] = [];
  const usedEmails = new Set<string>();
  for (let j = 0; j < Math.max(1, n); j++) {
    let fn: PersonFunction;
    let seniority: Seniority;
    if (j === 0) {
      fn = 'General Management';
      seniority = 'C-Level';
    } else {
      fn = rng.pickWeighted(FUNCTIONS, FN_WEIGHTS);
      seniority = rng.pickWeighted(SENIORITIES, company.scale01 < 0.45 ? SENIORITY_SMALL : SENIORITY_LARGE);
      if (seniority === 'C-Level' && cLevelUsed.has(fn)) seniority = 'VP';
    }
    if (seniority === 'C-Level') cLevelUsed.add(fn);
    const abroad = rng.chance(0.1);
    const country = abroad ? rng.pick(sameRegion) : company.country;
    const city = country === company.country && rng.chance(0.75) ? company.city : rng.pick(country.cities).name;
    const { first, last } = personName(rng, country.locale);
    const id = personId(company.index * 64 + j);
    const f = slugify(first, '');
    const l = slugify(last, '');
    const locals: Record<EmailPattern, string> = { 'first.last': `${f}.${l}`, flast: `${f[0] ?? 'x'}${l}`, first: f, firstl: `${f}${l[0] ?? ''}` };
    const local = locals[emailPattern];
    const contacts: Contact[] = [];
    let work = `${local}@${company.domain}`;
    if (usedEmails.has(work)) work = `${f}.${l}${j}@${company.domain}`;
    usedEmails.add(work);
    contacts.push({ kind: 'email', value: work, type: 'work', verified: rng.chance(0.72) });
    if (rng.chance(0.35))
      contacts.push({
        kind: 'email',
        value: `${f}${rng.chance(0.5) ? '.' : ''}${l}${rng.int(1, 99)}@${rng.pick(PERSONAL_DOMAINS)}`,
        type: 'personal',
        verified: rng.chance(0.4),
      });
    if (rng.chance(0.55))
      contacts.push({
        kind: 'phone',
        value: rng.chance(0.5) ? `${company.phone.slice(0, -4)}${rng.int(1000, 9999)}` : mobile(rng, country.phone),
        type: rng.chance(0.5) ? 'work' : 'mobile',
        verified: rng.chance(0.5),
      });
    people.push({
      id,
      fullName: `${first} ${last}`,
      firstName: first,
      lastName: last,
      title: rng.pick(TITLES[fn][seniority]),
      seniority,
      fn,
      country: country.code,
      city,
      linkedinUrl: `https://www.linkedin.com/in/${slugify(`${first} ${last}`)}-${id.slice(-6)}`,
      contacts,
    });
  }
  return people;
}

function mobile(rng: Rng, prefix: string): string {
  const d = () => rng.int(0, 9);
  return prefix === '+1'
    ? `+1 ${rng.int(201, 989)} ${rng.int(200, 999)} ${d()}${d()}${d()}${d()}`
    : `${prefix} ${rng.int(6, 7)}${d()} ${d()}${d()}${d()} ${d()}${d()}${d()}${d()}`;
}
