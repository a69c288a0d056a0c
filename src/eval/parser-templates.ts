// Prompt templates with known intent for the parser evaluation. A template returns the
// prompt as parts (plain text and entity slots, so a variant can misspell or re-case the
// entity) and the intent it expresses.
import type { EmployeeBand, PromptMode, RevenueBand, Seniority, PeopleFunction, TimeWindow } from '../intelligence/prompt/schema.ts';

export interface Slot {
  text: string;
  /** May be misspelled by the typo variant (a catalog or country name of 6+ letters). */
  typo?: boolean;
  /** Still means the same in lowercase (not a code such as "US", not a common-word name). */
  caseSafe?: boolean;
}
export type Part = string | Slot;

export interface Expected {
  products?: string[];
  vendors?: string[];
  categories?: string[];
  industries?: string[];
  countries?: string[];
  employeeRanges?: EmployeeBand[];
  revenueRanges?: RevenueBand[];
  timeWindow?: TimeWindow | null;
  titles?: string[];
  seniority?: Seniority[];
  functions?: PeopleFunction[];
  companyDomains?: string[];
}

export interface Named {
  id: string;
  surface: string;
}

/** What a template may draw from: catalog entities with unambiguous names, and fixed tables. */
export interface Pools {
  products: Named[];
  vendors: (Named & { domain: string })[];
  categories: Named[];
  industries: Named[];
  pick<T>(list: readonly T[]): T;
}

const SMB: EmployeeBand[] = ['Less than 10', '10 - 49', '50 - 199'];
const MID: EmployeeBand[] = ['200 - 499', '500 - 999'];
const ENT: EmployeeBand[] = ['1,000 - 4,999', '5,000 - 9,999', 'Above 10,000'];

const COUNTRY_NAMES: [string, string][] = [
  ['Germany', 'DE'],
  ['France', 'FR'],
  ['United States', 'US'],
  ['Spain', 'ES'],
  ['Canada', 'CA'],
  ['Japan', 'JP'],
  ['Brazil', 'BR'],
  ['Australia', 'AU'],
  ['the Netherlands', 'NL'],
  ['Sweden', 'SE'],
  ['Switzerland', 'CH'],
  ['India', 'IN'],
  ['Italy', 'IT'],
  ['Mexico', 'MX'],
  ['United Kingdom', 'GB'],
  ['Ireland', 'IE'],
  ['Singapore', 'SG'],
  ['Poland', 'PL'],
];
const DEMONYMS: [string, string][] = [
  ['German', 'DE'],
  ['French', 'FR'],
  ['American', 'US'],
  ['Spanish', 'ES'],
  ['Canadian', 'CA'],
  ['Japanese', 'JP'],
  ['British', 'GB'],
  ['Dutch', 'NL'],
  ['Swiss', 'CH'],
  ['Indian', 'IN'],
  ['Italian', 'IT'],
  ['Australian', 'AU'],
  ['Brazilian', 'BR'],
  ['Swedish', 'SE'],
];
const CODES: [string, string][] = [
  ['the US', 'US'],
  ['the UK', 'GB'],
  ['DE', 'DE'],
  ['FR', 'FR'],
];
const SIZE_WORDS: [string, EmployeeBand[]][] = [
  ['SMB', SMB],
  ['mid-market', MID],
  ['enterprise', ENT],
  ['midsize', MID],
  ['large', ENT],
  ['small', SMB],
];
const EMPLOYEE_PHRASES: [string, EmployeeBand[]][] = [
  ['more than 1000 employees', ENT],
  ['50-200 employees', ['50 - 199']],
  ['fewer than 50 employees', ['Less than 10', '10 - 49']],
  ['between 200 and 999 employees', MID],
  ['5k+ employees', ['5,000 - 9,999', 'Above 10,000']],
  ['at least 500 staff', ['500 - 999', ...ENT]],
  ['under 10 employees', ['Less than 10']],
  ['1,000-5,000 employees', ['1,000 - 4,999']],
];
const REVENUE_PHRASES: [string, RevenueBand[]][] = [
  ['over $1B in revenue', ['More than 1B']],
  ['$10M-$50M annual revenue', ['10M - 50M']],
  ['revenue under $5M', ['Less than 1M', '1M - 2M', '2M - 5M']],
  ['more than 500M revenue', ['500M - 1B', 'More than 1B']],
];
const TIME_PHRASES: [string, TimeWindow][] = [
  ['in the last 6 months', { field: 'adopted', withinDays: 183 }],
  ['since 2024', { field: 'adopted', since: '2024-01-01' }],
  ['over the past year', { field: 'adopted', withinDays: 365 }],
  ['in the last 30 days', { field: 'adopted', withinDays: 30 }],
  ['since March 2025', { field: 'adopted', since: '2025-03-01' }],
];
const DOMAINS = [
  'acme-robotics.com',
  'globex.io',
  'initech.co.uk',
  'umbrella-health.de',
  'stark-industries.com',
  'hooli.com',
  'piedpiper.net',
  'soylent.fr',
  'vandelay.com',
  'cyberdyne.ai',
];
const TITLES: [singular: string, plural: string, seniority: Seniority[], functions: PeopleFunction[]][] = [
  ['VP of Sales', 'VPs of Sales', ['VP'], ['Sales']],
  ['Head of Marketing', 'Heads of Marketing', ['Director'], ['Marketing']],
  ['CTO', 'CTOs', ['C-Level'], ['IT', 'Engineering']],
  ['CFO', 'CFOs', ['C-Level'], ['Finance']],
  ['Chief Marketing Officer', 'Chief Marketing Officers', ['C-Level'], ['Marketing']],
  ['Marketing Director', 'Marketing Directors', ['Director'], ['Marketing']],
  ['Senior Software Engineer', 'Senior Software Engineers', ['Senior'], ['Engineering']],
  ['IT Manager', 'IT Managers', ['Manager'], ['IT']],
  ['Account Executive', 'Account Executives', [], ['Sales']],
  ['Data Scientist', 'Data Scientists', [], ['Engineering']],
  ['HR Director', 'HR Directors', ['Director'], ['HR']],
  ['Engineering Manager', 'Engineering Managers', ['Manager'], ['Engineering']],
  ['Product Manager', 'Product Managers', ['Manager'], ['Product']],
  ['Recruiter', 'Recruiters', [], ['HR']],
  ['Director of Engineering', 'Directors of Engineering', ['Director'], ['Engineering']],
  ['Customer Success Manager', 'Customer Success Managers', ['Manager'], ['Customer Success']],
  ['General Counsel', 'General Counsels', [], ['Legal']],
  ['CEO', 'CEOs', ['C-Level'], ['General Management']],
];
const SENIORITY_WORDS: [string, Seniority][] = [
  ['senior', 'Senior'],
  ['junior', 'Entry'],
  ['C-level', 'C-Level'],
  ['director-level', 'Director'],
  ['VP-level', 'VP'],
  ['entry-level', 'Entry'],
];
const FUNCTION_WORDS: [string, PeopleFunction][] = [
  ['sales', 'Sales'],
  ['marketing', 'Marketing'],
  ['finance', 'Finance'],
  ['engineering', 'Engineering'],
  ['HR', 'HR'],
  ['legal', 'Legal'],
  ['customer success', 'Customer Success'],
  ['operations', 'Operations'],
  ['design', 'Product'],
];

type Template = (p: Pools) => { parts: Part[]; expect: Expected };

const slot = (text: string, typo = true, caseSafe = true): Slot => ({ text, typo, caseSafe });

function country(p: Pools, style: 'name' | 'demonym' | 'any'): { slot: Slot; code: string } {
  const useCode = style === 'any' && p.pick([false, false, true]);
  const [text, code] = useCode ? p.pick(CODES) : p.pick(style === 'demonym' ? DEMONYMS : COUNTRY_NAMES);
  return { slot: slot(text, !useCode && text.length >= 6, !useCode), code };
}

function twoDistinct<T extends { id: string }>(p: Pools, list: T[]): [T, T] {
  const a = p.pick(list);
  let b = p.pick(list);
  for (let k = 0; b.id === a.id && k < 10; k++) b = p.pick(list);
  return [a, b];
}

export const TEMPLATES: Record<PromptMode, Template[]> = {
  customers: [
    (p) => {
      const x = p.pick(p.products);
      return { parts: ['Find companies using ', slot(x.surface)], expect: { products: [x.id] } };
    },
    (p) => {
      const [a, b] = twoDistinct(p, p.products);
      return { parts: ['Which companies use ', slot(a.surface), ' and ', slot(b.surface, false), '?'], expect: { products: [a.id, b.id] } };
    },
    (p) => {
      const x = p.pick(p.products);
      const k = country(p, 'demonym');
      return {
        parts: [k.slot, ' companies that recently adopted ', slot(x.surface)],
        expect: { products: [x.id], countries: [k.code], timeWindow: { field: 'adopted', withinDays: 90 } },
      };
    },
    (p) => {
      const v = p.pick(p.vendors);
      const k = country(p, 'any');
      return { parts: ['Customers of ', slot(v.surface), ' in ', k.slot], expect: { vendors: [v.id], countries: [k.code] } };
    },
    (p) => {
      const [s, bands] = p.pick(SIZE_WORDS);
      const i = p.pick(p.industries);
      const c = p.pick(p.categories);
      return {
        parts: [s, ' ', slot(i.surface, false), ' companies using ', slot(c.surface), ' tools'],
        expect: { employeeRanges: bands, industries: [i.id], categories: [c.id] },
      };
    },
    (p) => {
      const [e, bands] = p.pick(EMPLOYEE_PHRASES);
      const x = p.pick(p.products);
      return { parts: ['Companies with ', e, ' that use ', slot(x.surface)], expect: { employeeRanges: bands, products: [x.id] } };
    },
    (p) => {
      const x = p.pick(p.products);
      const [t, w] = p.pick(TIME_PHRASES);
      return { parts: ['Who adopted ', slot(x.surface), ' ', t, '?'], expect: { products: [x.id], timeWindow: w } };
    },
    (p) => {
      const i = p.pick(p.industries);
      const k = country(p, 'name');
      const x = p.pick(p.products);
      const [r, bands] = p.pick(REVENUE_PHRASES);
      return {
        parts: [slot(i.surface, false), ' firms in ', k.slot, ' running ', slot(x.surface, false), ' with ', r],
        expect: { industries: [i.id], countries: [k.code], products: [x.id], revenueRanges: bands },
      };
    },
    (p) => {
      const c = p.pick(p.categories);
      const k = country(p, 'any');
      return { parts: ['List ', slot(c.surface), ' users in ', k.slot], expect: { categories: [c.id], countries: [k.code] } };
    },
  ],
  techstack: [
    (p) => {
      const d = p.pick(DOMAINS);
      return { parts: ['What is the tech stack of ', slot(d, false), '?'], expect: { companyDomains: [d] } };
    },
    (p) => {
      const d = p.pick(DOMAINS);
      const c = p.pick(p.categories);
      return { parts: ['Which ', slot(c.surface), ' tools does ', slot(d, false), ' use?'], expect: { companyDomains: [d], categories: [c.id] } };
    },
    (p) => {
      const d = p.pick(DOMAINS);
      const x = p.pick(p.products);
      return { parts: ['Does ', slot(d, false), ' use ', slot(x.surface), '?'], expect: { companyDomains: [d], products: [x.id] } };
    },
    (p) => {
      const d = p.pick(DOMAINS);
      const v = p.pick(p.vendors);
      return { parts: [slot(v.surface), ' products at ', slot(d, false)], expect: { companyDomains: [d], vendors: [v.id] } };
    },
    (p) => {
      const d = p.pick(DOMAINS);
      return { parts: ['show me the software used by https://www.', slot(d, false), '/about'], expect: { companyDomains: [d] } };
    },
    (p) => {
      const d = p.pick(DOMAINS);
      const [a, b] = twoDistinct(p, p.categories);
      return { parts: [slot(a.surface), ' and ', slot(b.surface, false), ' at ', slot(d, false)], expect: { companyDomains: [d], categories: [a.id, b.id] } };
    },
  ],
  people: [
    (p) => {
      const [, plural, sen, fns] = p.pick(TITLES);
      const i = p.pick(p.industries);
      const k = country(p, 'name');
      return {
        parts: [plural, ' at ', slot(i.surface, false), ' companies in ', k.slot],
        expect: { titles: [singularOf(plural)], seniority: sen, functions: fns, industries: [i.id], countries: [k.code] },
      };
    },
    (p) => {
      const [sw, sen] = p.pick(SENIORITY_WORDS);
      const [fw, fn] = p.pick(FUNCTION_WORDS);
      const d = p.pick(DOMAINS);
      return { parts: ['Find ', sw, ' people in ', fw, ' at ', slot(d, false)], expect: { seniority: [sen], functions: [fn], companyDomains: [d] } };
    },
    (p) => {
      const [title, , sen, fns] = p.pick(TITLES);
      const d = p.pick(DOMAINS);
      return { parts: [title, ' at ', slot(d, false)], expect: { titles: [title], seniority: sen, functions: fns, companyDomains: [d] } };
    },
    (p) => {
      const [, plural, sen, fns] = p.pick(TITLES);
      const k = country(p, 'demonym');
      const [s, bands] = p.pick(SIZE_WORDS);
      return {
        parts: [plural, ' of ', k.slot, ' ', s, ' companies'],
        expect: { titles: [singularOf(plural)], seniority: sen, functions: fns, countries: [k.code], employeeRanges: bands },
      };
    },
    (p) => {
      const [, plural, sen, fns] = p.pick(TITLES);
      const v = p.pick(p.vendors);
      return {
        parts: ['Who are the ', plural, ' at ', slot(v.surface)],
        expect: { titles: [singularOf(plural)], seniority: sen, functions: fns, companyDomains: [v.domain] },
      };
    },
    (p) => {
      const [, plural, sen, fns] = p.pick(TITLES);
      const k = country(p, 'any');
      const [e, bands] = p.pick(EMPLOYEE_PHRASES);
      return {
        parts: [plural, ' in ', k.slot, ' at companies with ', e],
        expect: { titles: [singularOf(plural)], seniority: sen, functions: fns, countries: [k.code], employeeRanges: bands },
      };
    },
  ],
};

function singularOf(plural: string): string {
  return TITLES.find((t) => t[1] === plural)![0];
}
