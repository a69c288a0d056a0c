// Schemas of the AI helper endpoints: the query-string inputs (also the MCP tool inputs)
// and the suggestion items of the public API, with the extra fields a client needs to verify a
// suggestion with the deterministic endpoints (company domain, product id).
import { z } from 'zod';
import { textInput } from './text.ts';
import { intParam, MAX_PAGE_SIZE } from './common.ts';
import { optionalDomainSchema } from './params.ts';
import { MAX_PROMPT_CHARS } from '../intelligence/prompt/index.ts';
import { defineOperation } from './operation.ts';

const promptText = (what: string, example: string) =>
  textInput(MAX_PROMPT_CHARS, { multiline: true })
    .meta({ examples: [example] })
    .describe(`${what} Plain language, at most ${MAX_PROMPT_CHARS} characters; typos are tolerated. Contact details typed into it are ignored.`);

/** A prompt that must be given and not blank. */
const requiredPrompt = (what: string, example: string) =>
  promptText(what, example)
    .min(1, 'must not be empty')
    .refine((s) => s.trim() !== '', 'must not be empty');

export const customersInput = z.object({
  prompt: requiredPrompt(
    'Which products, vendors or categories, and optionally which companies (industry, country, size, revenue, adoption time).',
    'Software companies in Germany using Salesforce',
  ),
  size: intParam('size', 1, MAX_PAGE_SIZE, 10).describe(`Maximum suggested companies, 1-${MAX_PAGE_SIZE} (default 10)`),
});
export type CustomersInput = z.output<typeof customersInput>;

/**
 * The document's extension on each parameter of a group of which at least one must be given
 * (non-blank): OpenAPI cannot relate two query parameters.
 */
export const AT_LEAST_ONE_OF_EXTENSION = 'x-at-least-one-of';
const promptOrDomain = { [AT_LEAST_ONE_OF_EXTENSION]: ['prompt', 'companyDomain'] };

export const techStackInput = z.object({
  prompt: promptText('The company (name or domain) and optionally which products, vendors or categories to look at.', 'acme.com marketing tools')
    .optional()
    .meta(promptOrDomain),
  companyDomain: optionalDomainSchema('The company domain; takes precedence over a company named in the prompt').meta(promptOrDomain),
  size: intParam('size', 1, MAX_PAGE_SIZE, 20).describe(`Maximum suggested products, 1-${MAX_PAGE_SIZE} (default 20)`),
});
export type TechStackInput = z.output<typeof techStackInput>;

export const peopleInput = z.object({
  prompt: requiredPrompt(
    'Titles, seniority, functions, companies, industries and places of the people to find.',
    'Heads of marketing at fintech companies in Germany',
  ),
  size: intParam('size', 1, MAX_PAGE_SIZE, 10).describe(`Maximum profiles, 1-${MAX_PAGE_SIZE} (default 10)`),
});
export type PeopleInput = z.output<typeof peopleInput>;

const probability = z.number().int().min(0).max(100).describe('Probability 0-100 that the suggestion is true (calibrated)');
const timestamp = (text: string) => z.iso.datetime().optional().describe(`${text} (ISO 8601); absent for inferred suggestions`);

export const customerItemSchema = z.object({
  companyName: z.string().nullable(),
  companyDomain: z.string().describe('Verify with POST /companies/{companyDomain}/products-in-use'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
  industry: z.string().nullable(),
  productId: z.string().describe('The matched product this suggestion is about'),
  product: z.string(),
  howProductIsUsed: z.string().describe("From the category and the observed (or, when inferred, the peers') intensity"),
  scope: z.string().describe('Organization-wide, Several teams or Single team or limited, from intensity'),
  source: z.string().describe('The evidence ("website and job-posting signals, 14 hits, last seen 2026-09-02") or "inferred: used by 72% of its peer cohort"'),
  evidence: z.enum(['observed', 'inferred']).describe('observed: install evidence at the company; inferred: peer inference'),
  probability,
  dateFirstVerified: timestamp('First verification'),
  dateLastVerified: timestamp('Latest verification'),
});
export type CustomerItem = z.output<typeof customerItemSchema>;

export const techStackItemSchema = z.object({
  software: z.string().describe('Product name'),
  productId: z.string(),
  vendorDomain: z.string(),
  category: z.string(),
  reason: z.string(),
  source: z.string(),
  evidence: z.enum(['observed', 'inferred']),
  probability,
  dateFirstVerified: timestamp('First verification'),
  dateLastVerified: timestamp('Latest verification'),
});
export type TechStackItem = z.output<typeof techStackItemSchema>;

export const peopleItemSchema = z
  .object({
    id: z.string().describe('Profile id (GET /profiles/{profileId})'),
    fullName: z.string(),
    title: z.string().nullable(),
    companyName: z.string().nullable(),
    companyDomain: z.string().nullable(),
    country: z.string().nullable(),
    city: z.string().nullable(),
    confidence: z.number().min(0).max(1).describe('0-1, from match quality against the understood prompt (calibrated)'),
  })
  .describe('Never carries emails or phones');
export type PeopleItem = z.output<typeof peopleItemSchema>;

// Operations ---------------------------------------------------------------------------------
// The AI calls are POSTs with their input in the query string; a body, if sent, is ignored.

const UNDERSTOOD_DOC =
  'Response headers: X-Stacklens-Understood (what the prompt was understood as, one line; non-ASCII characters percent-encoded), ' +
  'X-Stacklens-Parser (embedded or model) and, when a configured model was not used, X-Stacklens-Parser-Fallback (timeout, http_error, network_error, invalid_output, ungrounded).';

export const findCustomersOfProductsOp = defineOperation({
  id: 'findCustomersOfProducts',
  summary: 'Companies that use (or are likely to use) the products a prompt names',
  description:
    'Companies with install evidence of the products (probability from the in-use confidence model), then companies whose nearest ' +
    'peers use them (probability from peer inference, calibrated on held-out evidence; evidence "inferred", no dates). One item per ' +
    'company, sorted by probability descending, then company id. Needs the ai permission and X-On-Behalf-Of-User; audited. ' +
    UNDERSTOOD_DOC,
  tag: 'AI helpers',
  input: customersInput,
  output: z.array(customerItemSchema),
  permission: 'ai',
  rateClass: 'ai',
  readOnly: true,
  attributed: true,
  http: { method: 'POST', path: '/ai/find-customers-of-products', query: customersInput },
  mcp: {
    name: 'find_customers_of_products',
    title: 'Find users of products',
    aliases: ['FindCustomersOfProducts'],
    description:
      'Suggests companies using the products, vendors or categories a plain-language prompt names: evidenced first, then inferred from peers, each with a probability. Needs onBehalfOfUser.',
  },
});

export const findTechStacksForCompanyOp = defineOperation({
  id: 'findTechStacksForCompany',
  summary: 'The evidenced and the likely tech stack of a company',
  description:
    'prompt and/or companyDomain (companyDomain wins over a company named in the prompt; products, vendors or categories named in the ' +
    'prompt restrict the answer). Evidenced installs with their in-use probability and dates, plus products its nearest peers run that it ' +
    'shows no evidence of (evidence "inferred"). Sorted by probability descending. Needs the ai permission and X-On-Behalf-Of-User; audited. ' +
    UNDERSTOOD_DOC,
  tag: 'AI helpers',
  input: techStackInput,
  output: z.array(techStackItemSchema),
  permission: 'ai',
  rateClass: 'ai',
  readOnly: true,
  attributed: true,
  http: { method: 'POST', path: '/ai/find-techstacks-for-company', query: techStackInput },
  mcp: {
    name: 'find_techstacks_for_company',
    title: "Suggest a company's technology stack",
    description:
      "A company's evidenced and likely products (what its peers run), each with a probability 0-100; the prompt may narrow to products or categories. Needs onBehalfOfUser.",
  },
});

export const findPeopleProfilesOp = defineOperation({
  id: 'findPeopleProfiles',
  summary: 'People profiles matching a prompt',
  description:
    'Profiles at the companies, places, industries and sizes the prompt names that meet the most of its titles, seniority and functions, ' +
    'with a confidence 0-1 from match quality. Sorted by confidence descending, then id. Never emails or phones (buy them with ' +
    'POST /profiles/purchase). Needs the ai permission and X-On-Behalf-Of-User; audited. ' +
    UNDERSTOOD_DOC,
  tag: 'AI helpers',
  input: peopleInput,
  output: z.array(peopleItemSchema),
  permission: 'ai',
  rateClass: 'ai',
  readOnly: true,
  attributed: true,
  http: { method: 'POST', path: '/ai/find-people-profiles', query: peopleInput },
  mcp: {
    name: 'find_people_profiles',
    title: 'Find people',
    description:
      'People matching a plain-language description ("VP of sales at German fintechs"), each with a confidence 0-1. No emails or phones. Needs onBehalfOfUser.',
  },
});

export const aiOperations = [findCustomersOfProductsOp, findTechStacksForCompanyOp, findPeopleProfilesOp];
