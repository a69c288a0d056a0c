// MCP prompts for the common jobs: each names the tools to call, in order, and what to
// write at the end. Arguments are checked as the tools check them (a bad domain is named).
import { z } from 'zod';
import { domainSchema } from '../schemas/params.ts';
import { cohortParam } from '../schemas/intelligence.ts';

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  schema: z.ZodObject;
  text(args: Record<string, string>): string;
}

const companyArgument: PromptArgument = { name: 'companyDomain', description: 'Domain of the company, e.g. acme.com', required: true };

const PROMPTS: PromptDef[] = [
  {
    name: 'benchmark_stack',
    title: "Benchmark a company's stack against its peers",
    description: 'Compares the products a company uses with what its peer cohort uses: what it shares, what it lacks, where it differs.',
    arguments: [companyArgument, { name: 'cohort', description: 'Default (derived peers, the default), Defined or Aspirational', required: false }],
    schema: z.object({ companyDomain: domainSchema(), cohort: cohortParam.optional() }),
    text: ({ companyDomain, cohort = 'Default' }) =>
      `Benchmark the technology stack of ${companyDomain} against its ${cohort} cohort with the Stacklens tools:\n` +
      `1. company_firmographics {companyDomain: "${companyDomain}"}: who the company is.\n` +
      `2. company_products_paged {companyDomain: "${companyDomain}"}: what it uses (follow nextPage if there are more pages).\n` +
      `3. company_cohort {companyDomain: "${companyDomain}", cohort: "${cohort}"}: who its peers are.\n` +
      `4. usage_metrics {companyDomain: "${companyDomain}", cohort: "${cohort}"}: what share of the peers uses each product (the resource link holds the whole table).\n` +
      '5. usage_metrics_details with the domains of up to 10 peers: category by category, similar, different or missing.\n' +
      'Then write: the products most peers use that the company lacks (with the share of peers), the categories where it chose ' +
      'another product than its peers, and where it is ahead. Name each product with its vendor; say how many peers the cohort has.',
  },
  {
    name: 'find_lookalikes',
    title: 'Find lookalikes of a company',
    description: 'Finds companies like a given one, by what they do, their size and their technology.',
    arguments: [companyArgument, { name: 'count', description: 'How many lookalikes to propose (default 10)', required: false }],
    schema: z.object({
      companyDomain: domainSchema(),
      count: z
        .string()
        .regex(/^\d{1,3}$/, 'count must be a whole number')
        .optional(),
    }),
    text: ({ companyDomain, count = '10' }) =>
      `Find ${count} companies that look like ${companyDomain}, with the Stacklens tools:\n` +
      `1. company_firmographics {companyDomain: "${companyDomain}"}: its industry, size band, revenue band and country.\n` +
      `2. company_competitors {companyDomain: "${companyDomain}"}: the companies most like it in what it does.\n` +
      `3. company_cohort {companyDomain: "${companyDomain}", cohort: "Default"}: its nearest peers by industry, size, region and stack.\n` +
      `4. company_products_paged {companyDomain: "${companyDomain}"}: its most characteristic products; then companies_search with ` +
      'industries, employeeRange and filter.productIdIn of two or three of them to find more.\n' +
      `Then list ${count} lookalikes, best first, each with domain, name, industry, size and one line on why it looks alike ` +
      '(shared products, same segment). Do not list the company itself.',
  },
  {
    name: 'account_brief',
    title: 'Prepare an account brief',
    description: 'A one-page brief on a company from its firmographics, technology stack, news feed and people.',
    arguments: [companyArgument, { name: 'focus', description: 'What the brief is for, e.g. "selling a CRM" (optional)', required: false }],
    schema: z.object({ companyDomain: domainSchema(), focus: z.string().max(200).optional() }),
    text: ({ companyDomain, focus }) =>
      `Prepare an account brief on ${companyDomain}${focus ? ` for this purpose: ${focus}` : ''}, with the Stacklens tools:\n` +
      `1. company_firmographics {companyDomain: "${companyDomain}"}: industry, size, revenue, headquarters, funding, CEO.\n` +
      `2. company_products_paged {companyDomain: "${companyDomain}"}: its technology stack, with how recently each product was seen.\n` +
      `3. company_feed {companyDomain: "${companyDomain}"}: its latest news (funding, acquisitions, people moves).\n` +
      `4. profiles_search {companyDomains: ["${companyDomain}"], seniority: ["C-Level", "VP", "Director"]}: the people to talk to.\n` +
      'Then write the brief: who they are (3 lines), their stack by category, what changed recently, the people to contact ' +
      '(name, title; contact details only if bought), and two or three angles for a first conversation.',
  },
];

export const listedPrompts = {
  prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })),
};

/** A prompt rendered with its arguments; an unknown prompt or a bad argument throws a message naming it. */
export function renderPrompt(name: string, args: Record<string, string> = {}) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new PromptArgumentError(`Unknown prompt '${name}'. Call prompts/list for the available prompts.`);
  const checked = prompt.schema.safeParse(args);
  if (!checked.success) {
    const issues = checked.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
    throw new PromptArgumentError(`Invalid arguments for prompt ${name}: ${issues}`);
  }
  // The text uses the arguments as given (a cohort name reads better than its stored kind),
  // once they are known to be valid; the domain in its normalized form.
  const values = { ...args, companyDomain: (checked.data as { companyDomain: string }).companyDomain };
  return {
    description: prompt.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(values) } }],
  };
}

export class PromptArgumentError extends Error {}
