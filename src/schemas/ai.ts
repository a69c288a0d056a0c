// Schemas of the AI helper endpoints: the query-string inputs (also the MCP tool inputs)
// and the suggestion items of the spec, with the extra fields a client needs to verify a
// suggestion with the deterministic endpoints (company domain, product id).
import { z } from 'zod';
import { intParam, MAX_PAGE_SIZE } from './common.ts';
import { onBehalfOfUserHeader, optionalDomainSchema } from './params.ts';
import { MAX_PROMPT_CHARS } from '../intelligence/prompt/index.ts';

const promptText = (what: string, example: string) =>
  z
    .string()
    .max(MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`)
    .meta({ examples: [example] })
    .describe(`${what} Plain language, at most ${MAX_PROMPT_CHARS} characters; typos are tolerated. Contact details typed into it are ignored.`);

/** A prompt that must be given and not blank. */
const requiredPrompt = (what: string, example: string) =>
  promptText(what, example).min(1, 'must not be empty').refine((s) => s.trim() !== '', 'must not be empty');

export const customersInput = z.object({
  prompt: requiredPrompt('Which products, vendors or categories, and optionally which companies (industry, country, size, revenue, adoption time).', 'Software companies in Germany using Salesforce'),
  size: intParam('size', 1, MAX_PAGE_SIZE, 10).describe(`Maximum suggested companies, 1-${MAX_PAGE_SIZE} (default 10)`),
});
export type CustomersInput = z.output<typeof customersInput>;

export const techStackInput = z.object({
  prompt: promptText('The company (name or domain) and optionally which products, vendors or categories to look at.', 'acme.com marketing tools').optional(),
  companyDomain: optionalDomainSchema('The company domain; takes precedence over a company named in the prompt'),
  size: intParam('size', 1, MAX_PAGE_SIZE, 20).describe(`Maximum suggested products, 1-${MAX_PAGE_SIZE} (default 20)`),
});
export type TechStackInput = z.output<typeof techStackInput>;

export const peopleInput = z.object({
  prompt: requiredPrompt('Titles, seniority, functions, companies, industries and places of the people to find.', 'Heads of marketing at fintech companies in Germany'),
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
  howProductIsUsed: z.string().describe('From the category and the observed (or, when inferred, the peers\') intensity'),
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

export const peopleItemSchema = z.object({
  id: z.string().describe('Profile id (GET /profiles/{profileId})'),
  fullName: z.string(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  companyDomain: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  confidence: z.number().min(0).max(1).describe('0-1, from match quality against the understood prompt (calibrated)'),
}).describe('Never carries emails or phones');
export type PeopleItem = z.output<typeof peopleItemSchema>;

export const aiHeaders = z.looseObject({
  'x-on-behalf-of-user': onBehalfOfUserHeader('Email of the user the AI call is made for; required (403 when missing, 400 when not an email)'),
});
