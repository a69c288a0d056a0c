// The demo world's job posts: a company's applicant-tracking board. A company that hires posts
// several roles a year, more the bigger it is; each post is one team's role (an engineer, a data
// analyst, an accountant) and names the tools that team works with as required skills, now and
// then as nice-to-haves. Only tools of categories job posts reveal (the taxonomy's evidence
// sources, catalog/categories.txt `src=`) are named, and only while the company uses them: a
// post from last winter names the tool it dropped since. Tools of every team (team chat,
// office suites, project boards) are named in a few posts of any team. Internal tools that no
// post names (web analytics, DNS hosting) stay out of the posts.
// Deterministic from the seed; bounded: at most MAX_POSTS_PER_YEAR posts a year over the
// board's window, at most MAX_TOOLS_PER_POST tools a post.
import type { Catalog, Category } from './catalog.ts';
import type { Company } from './companies.ts';
import type { Install } from './stacks.ts';
import type { Trace, TraceKit } from './traces.ts';
import { rngFor, type Rng } from './rng.ts';

const DAY = 86_400_000;
/**
 * How far back the board's posts go: a year (older posts of dropped tools and sparse use are
 * artifacts.ts's dated lines). Each post is detected, and its evidence logged, at seed time:
 * a longer board would cost the first start more than it shows.
 */
export const BOARD_DAYS = 365;
const MAX_POSTS_PER_YEAR = 40;
const MAX_TOOLS_PER_POST = 8;
/** A tool of the post's team is required in this share of its posts, welcomed as a plus in OPTIONAL_SHARE more. */
const REQUIRED_SHARE = 0.6;
const OPTIONAL_SHARE = 0.08;
/** A tool every team uses (team chat, office suite) is named in this share of any team's posts. */
const SHARED_SHARE = 0.25;
/** A tool in sparse use (one team's side tool) is named this much less often. */
const SPARSE_FACTOR = 0.5;
/**
 * A post names a neighbouring team's tools now and then (a marketing role asks for the CRM); in
 * a small firm, where one hire wears several hats, more often: 0.55 at 1 employee, 0.39 at 10,
 * 0.19 at 170, down to the floor from about 1,000 employees (scale01 0.6).
 */
const generalistShare = (scale01: number) => Math.max(0.05, 0.55 - 0.8 * scale01);

type Team = 'engineering' | 'devops' | 'data' | 'it' | 'marketing' | 'sales' | 'support' | 'finance' | 'hr' | 'operations';

const ROLES: Record<Team, readonly string[]> = {
  engineering: ['Senior Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'Full-Stack Developer', 'Engineering Manager'],
  devops: ['DevOps Engineer', 'Site Reliability Engineer', 'Platform Engineer', 'Cloud Engineer'],
  data: ['Data Engineer', 'Data Analyst', 'Analytics Engineer', 'BI Developer'],
  it: ['IT Administrator', 'Systems Administrator', 'Security Analyst', 'IT Support Technician'],
  marketing: ['Marketing Operations Manager', 'Growth Marketer', 'Content Marketing Manager', 'Demand Generation Manager'],
  sales: ['Account Executive', 'Sales Operations Analyst', 'Sales Development Representative', 'Revenue Operations Manager'],
  support: ['Support Specialist', 'Customer Success Manager', 'Technical Support Engineer'],
  finance: ['Finance Manager', 'Staff Accountant', 'Financial Analyst', 'Controller'],
  hr: ['HR Generalist', 'Recruiter', 'People Operations Partner', 'Payroll Specialist'],
  operations: ['Operations Manager', 'Supply Chain Analyst', 'Office Manager', 'Project Coordinator'],
};
const TEAMS = Object.keys(ROLES) as Team[];
/** How often each team posts, relative to the others (an engineering-heavy firm posts engineers twice as often). */
const TEAM_WEIGHT: Record<Team, number> = {
  engineering: 2.5,
  devops: 0.8,
  data: 0.8,
  it: 0.8,
  marketing: 1.2,
  sales: 1.8,
  support: 1.2,
  finance: 0.8,
  hr: 0.6,
  operations: 1.5,
};

/** The teams whose posts name a category's tools, by its top-level category (and a few middle ones); 'all': any team's. */
const TEAMS_OF_TOP: Record<string, readonly Team[] | 'all'> = {
  Sales: ['sales'],
  Marketing: ['marketing'],
  'Customer Service': ['support'],
  Collaboration: 'all',
  'IT Infrastructure': ['devops'],
  'IT Management': ['it'],
  Security: ['it'],
  Development: ['engineering'],
  'Data & Analytics': ['data'],
  Finance: ['finance'],
  HR: ['hr'],
  'E-Commerce': ['marketing', 'operations'],
  Operations: ['operations'],
  'Governance, Risk & Compliance': ['operations', 'finance'],
  'Industry Solutions': ['operations'],
};
const TEAMS_OF_MIDDLE: Record<string, readonly Team[]> = {
  Databases: ['engineering', 'data', 'devops'],
  Monitoring: ['devops', 'engineering'],
  'Cloud Hosting': ['devops', 'engineering'],
  'Cloud Security': ['devops', 'it'],
  'Source Control': ['engineering', 'devops'],
  'CI/CD': ['devops', 'engineering'],
};

const REQUIRED_LEADS = [
  'Experience with',
  'Hands-on knowledge of',
  'You will own our',
  'Day to day you will work in',
  'Familiarity with',
  'You know your way around',
];
// (The last one welcomes a tool without a word that says so: the detector reads it as required.)
const OPTIONAL_LEADS = ['Nice to have: exposure to', 'Bonus points for knowing', 'Previous use of tools such as'];

/** A dated line of a post: a tool named as a required skill, or welcomed (`mention`: a plus, not a requirement). */
export interface JobLine {
  tech: number;
  phrase: string;
  at: number;
  mention: boolean;
}

/** One post on the board: its date, its role and the lines naming tools. */
export interface JobPost {
  at: number;
  role: string;
  lines: JobLine[];
}

/** The teams whose posts name the tools of a leaf category, or null when posts never name them. */
export function teamsOfLeaf(leaf: Category, categoryById: ReadonlyMap<string, Category>): readonly Team[] | 'all' | null {
  if (!leaf.sources.includes('job_posting')) return null;
  for (let c: Category | undefined = leaf; c; c = c.parentId ? categoryById.get(c.parentId) : undefined) {
    const middle = TEAMS_OF_MIDDLE[c.name];
    if (middle) return middle;
  }
  return TEAMS_OF_TOP[categoryById.get(leaf.topId)?.name ?? ''] ?? null;
}

/** Posts a year a company of this size puts on its board (before the random draw). */
export function postsPerYear(employees: number): number {
  return Math.min(MAX_POSTS_PER_YEAR, 1.2 * Math.pow(Math.max(1, employees), 0.6));
}

interface Named {
  tech: number;
  phrases: Array<Extract<Trace, { kind: 'job' }>>;
  teams: readonly Team[] | 'all';
  /** How often its posts name it, relative to a tool in full use. */
  weight: number;
  from: number;
  until: number;
}

/**
 * The board of one company over the last BOARD_DAYS: its posts, each naming the tools its team
 * used on the post's date. `silent` installs (in use without any public trace) are never named.
 */
export function jobBoard(
  seed: string,
  asOfMs: number,
  catalog: Catalog,
  kits: readonly TraceKit[],
  company: Company,
  installs: readonly Install[],
  silent: ReadonlySet<number>,
): JobPost[] {
  const rng = rngFor(seed, 'job-board', company.index);
  const tech = company.industry.sector === 'Technology';
  const generalist = generalistShare(company.scale01);
  const weights = TEAMS.map((t) => TEAM_WEIGHT[t] * (tech && (t === 'engineering' || t === 'devops' || t === 'data') ? 2 : 1));
  const named: Named[] = [];
  for (const inst of installs) {
    // Tools in use (and dropped ones while they were); mere mentions have lines of their own (artifacts.ts).
    if (inst.kind === 'weak_mention') continue;
    if (silent.has(inst.product)) continue;
    const product = catalog.products[inst.product]!;
    const phrases = kits[product.technology]!.traces.filter((t): t is Extract<Trace, { kind: 'job' }> => t.kind === 'job');
    if (!phrases.length) continue;
    const teams = teamsOfLeaf(catalog.categoryById.get(product.categoryId)!, catalog.categoryById);
    if (!teams) continue;
    named.push({
      tech: product.technology,
      phrases,
      teams,
      weight: inst.kind === 'active_sparse' ? SPARSE_FACTOR : 1,
      from: inst.firstVerified,
      until: inst.kind === 'churned' ? inst.lastVerified : Infinity,
    });
  }
  const posts: JobPost[] = [];
  const count = Math.min(Math.round((MAX_POSTS_PER_YEAR * BOARD_DAYS) / 365), rng.poisson((postsPerYear(company.employees) * BOARD_DAYS) / 365));
  for (let k = 0; k < count; k++) {
    const at = asOfMs - rng.int(0, BOARD_DAYS - 1) * DAY - rng.int(0, 86_399) * 1000;
    const team = rng.pickWeighted(TEAMS, weights);
    const lines: JobLine[] = [];
    for (const n of named) {
      if (at < n.from || at > n.until) continue;
      const u = rng.next() / n.weight;
      // Its own team's posts require it or welcome it; a tool of every team, or another team's in a small firm, now and then.
      const own = n.teams !== 'all' && n.teams.includes(team);
      const share = own ? REQUIRED_SHARE + OPTIONAL_SHARE : n.teams === 'all' ? SHARED_SHARE : generalist;
      if (u < share) lines.push({ tech: n.tech, phrase: rng.pick(n.phrases).phrase, at, mention: own && u >= REQUIRED_SHARE });
    }
    posts.push({ at, role: rng.pick(ROLES[team]), lines: lines.length > MAX_TOOLS_PER_POST ? rng.sample(lines, MAX_TOOLS_PER_POST) : lines });
  }
  return posts.sort((a, b) => a.at - b.at);
}

/** The text of one post: its role, the tools it requires, the ones it welcomes. */
export function postText(rng: Rng, company: Company, post: JobPost): string {
  const required = post.lines.filter((l) => !l.mention).map((l) => `${rng.pick(REQUIRED_LEADS)} ${l.phrase}.`);
  const optional = post.lines.filter((l) => l.mention).map((l) => `${rng.pick(OPTIONAL_LEADS)} ${l.phrase}.`);
  return [
    `${post.role} at ${company.name} (${company.city}). ${company.name} is growing and we are hiring.`,
    ...required,
    ...optional,
    'Collaborative team, flexible hours.',
  ].join(' ');
}
